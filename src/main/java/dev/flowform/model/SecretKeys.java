package dev.flowform.model;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Decides which configuration keys carry credentials, masked in output and stored only as salted hashes: keys with
 * {@code password}, {@code secret} or {@code token}, ending {@code .jaas.config} or {@code .key}, SSL key material and
 * basic-auth user info; not {@code *.class} keys (docs/operations.md, "Secrets").
 */
public final class SecretKeys {
    private static final Pattern SENSITIVE = Pattern.compile(
            ".*(password|secret|token|credential).*|.*\\.jaas\\.config|.*\\.key|.*basic\\.auth\\.user\\.info|.*sasl\\.oauthbearer\\.assertion.*");

    /** What masked values render as, everywhere (Terraform's spelling). */
    public static final String MASK = "(sensitive value)";

    private SecretKeys() {
    }

    /** Decisions already made: a few dozen distinct keys recur in every connector of a large plan. */
    private static final Map<String, Boolean> DECIDED = new ConcurrentHashMap<>();
    /** Keys beyond this many are decided afresh each time rather than remembered (bounded memory). */
    private static final int DECIDED_LIMIT = 4096;

    /** @return true when values of {@code key} must never be shown or stored in clear */
    public static boolean isSensitive(String key) {
        if (key == null) {
            return false;
        }
        Boolean decided = DECIDED.get(key);
        if (decided != null) {
            return decided;
        }
        boolean sensitive = decide(key);
        if (DECIDED.size() < DECIDED_LIMIT) {
            DECIDED.put(key, sensitive);
        }
        return sensitive;
    }

    private static boolean decide(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        // Class names and config-provider declarations name code, not credentials:
        // config.providers.secrets.class, *.login.callback.handler.class, ...
        if (k.endsWith(".class") || k.equals("config.providers") || k.endsWith(".classes")) {
            return false;
        }
        return SENSITIVE.matcher(k).matches();
    }
}
