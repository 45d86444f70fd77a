package dev.flowform.state;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Objects;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * What an environment does with secret values, derived from its secret salt (16 random bytes created with the
 * environment, see {@link StateStore}): salted hashes for everything stored in state, and AES-GCM encryption for
 * the sensitive values of a saved plan file.
 *
 * <p>No database and no files: it only needs the salt, so every backend shares it. The one outside input is the
 * random nonce of {@link #encrypt}, from {@link SecureRandom}.
 */
public final class SecretCipher {

    /** Prefix of values {@link #encrypt} produces; the version names the scheme. */
    public static final String ENCRYPTED_PREFIX = "encrypted:v1:";

    private static final HexFormat HEX = HexFormat.of();
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] salt;
    private final String environment;

    /**
     * @param salt        the environment's secret salt (copied)
     * @param environment the environment's name, for error messages
     */
    public SecretCipher(byte[] salt, String environment) {
        this.salt = Objects.requireNonNull(salt, "salt").clone();
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    /**
     * Hashes a secret value for storing in state: {@code "sha256:" + hex(SHA-256(salt || UTF-8(value)))}.
     *
     * <p>Deterministic within an environment, so a changed secret still shows up as drift; different
     * across environments, so equal hashes do not reveal that two environments share a password.
     *
     * @param value the secret in clear text
     * @return {@code sha256:} followed by 64 lower-case hex digits
     * @throws NullPointerException when {@code value} is null
     */
    public String hash(String value) {
        Objects.requireNonNull(value, "value");
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available in this JVM", e);
        }
        sha.update(salt);
        sha.update(value.getBytes(StandardCharsets.UTF_8));
        return "sha256:" + HEX.formatHex(sha.digest());
    }

    /**
     * Encrypts a secret for a saved plan file, so {@code apply FILE} can use it without the file holding
     * it in clear: AES-256-GCM with a random 96-bit nonce, under a key derived from the environment's
     * secret salt as {@code HMAC-SHA256(salt, "flowform saved-plan key v1")}. Only a process that can open
     * this environment's state can decrypt it; a plan file of another environment does not decrypt here.
     *
     * @param value the secret in clear text
     * @return {@value #ENCRYPTED_PREFIX} followed by base64(nonce || ciphertext || tag)
     * @throws NullPointerException when {@code value} is null
     */
    public String encrypt(String value) {
        Objects.requireNonNull(value, "value");
        try {
            byte[] nonce = new byte[NONCE_BYTES];
            RANDOM.nextBytes(nonce);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, planKey(), new GCMParameterSpec(TAG_BITS, nonce));
            byte[] ct = cipher.doFinal(value.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[nonce.length + ct.length];
            System.arraycopy(nonce, 0, out, 0, nonce.length);
            System.arraycopy(ct, 0, out, nonce.length, ct.length);
            return ENCRYPTED_PREFIX + Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    /**
     * Reverses {@link #encrypt}.
     *
     * @param stored a value {@link #encrypt} of this environment produced
     * @return the secret in clear text
     * @throws IllegalArgumentException when {@code stored} is not an encrypted value, or was encrypted for
     *                                  another environment (or tampered with)
     */
    public String decrypt(String stored) {
        Objects.requireNonNull(stored, "stored");
        if (!stored.startsWith(ENCRYPTED_PREFIX)) {
            throw new IllegalArgumentException("the plan holds a sensitive value that is not encrypted (a plan printed with "
                    + "--json or shown masks its secrets); only a plan saved with \"flowform plan --out FILE\" can be applied");
        }
        byte[] in;
        try {
            in = Base64.getDecoder().decode(stored.substring(ENCRYPTED_PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("an encrypted value of the plan is damaged", e);
        }
        if (in.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new IllegalArgumentException("an encrypted value of the plan is damaged");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, planKey(), new GCMParameterSpec(TAG_BITS, in, 0, NONCE_BYTES));
            return new String(cipher.doFinal(in, NONCE_BYTES, in.length - NONCE_BYTES), StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new IllegalArgumentException("an encrypted value of the plan was not encrypted for environment \""
                    + environment + "\" (or was changed)", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    private SecretKey planKey() throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(salt, "HmacSHA256"));
        byte[] key = mac.doFinal("flowform saved-plan key v1".getBytes(StandardCharsets.UTF_8));
        return new SecretKeySpec(key, "AES");
    }
}
