package dev.flowform.state.pg;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An environment's state lock on PostgreSQL: a session-level advisory lock ({@code pg_try_advisory_lock}) on a
 * connection of its own, which PostgreSQL releases when the holder's session ends, however it ends (PostgreSQL
 * documentation, 13.3.5 "Advisory Locks"). The connection serves nothing else and is closed by {@link #close()}; the
 * {@linkplain #key key} mixes in the schema so two schemas of one database never contend (docs/state-backends.md).
 */
public final class PgAdvisoryLock implements AutoCloseable {

    /** Prefix of the hashed text, so flowform's keys do not coincide with keys other programs derive the same way. */
    static final String KEY_DOMAIN = "flowform-state-lock";

    private final Connection connection;
    private final long key;
    private final int backendPid;
    private boolean released;

    private PgAdvisoryLock(Connection connection, long key, int backendPid) {
        this.connection = connection;
        this.key = key;
        this.backendPid = backendPid;
    }

    /**
     * The advisory lock key of an environment: the first 8 bytes (big-endian) of SHA-256 over
     * {@code "flowform-state-lock" NUL schema NUL environment}; stable everywhere. A collision would only make two
     * environments wait for each other.
     *
     * @param schema      the schema that holds the state tables (the backend's {@code schema_name})
     * @param environment the environment's name
     * @return the key for {@code pg_try_advisory_lock(bigint)}
     */
    public static long key(String schema, String environment) {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(environment, "environment");
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(
                    (KEY_DOMAIN + '\0' + schema + '\0' + environment).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    /**
     * Tries once to take the lock, without waiting.
     *
     * @param dedicated a connection that serves only this lock (see the class comment), in auto-commit mode; on
     *                  success the lock owns it, on failure or error it is closed
     * @param key       the lock key ({@link #key})
     * @return the held lock, or empty when another session holds it
     * @throws SQLException when the statements fail (the connection is closed then too)
     */
    public static Optional<PgAdvisoryLock> tryAcquire(Connection dedicated, long key) throws SQLException {
        boolean kept = false;
        try {
            dedicated.setAutoCommit(true);
            int pid = backendPid(dedicated);
            boolean got;
            try (PreparedStatement ps = dedicated.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                ps.setLong(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    got = rs.getBoolean(1);
                }
            }
            kept = got;
            return got ? Optional.of(new PgAdvisoryLock(dedicated, key, pid)) : Optional.empty();
        } finally {
            if (!kept) {
                dedicated.close();
            }
        }
    }

    /**
     * Finds the session that holds a key, through {@code pg_locks} (high half in {@code classid}, low half in
     * {@code objid}, {@code objsubid} 1; PostgreSQL documentation, "pg_locks").
     *
     * @param any a connection to the database the lock lives in
     * @param key the lock key
     * @return the holder's backend pid, or empty when nobody holds the key
     * @throws SQLException when the query fails
     */
    public static OptionalInt holder(Connection any, long key) throws SQLException {
        try (PreparedStatement ps = any.prepareStatement("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
                + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                + " AND classid = ?::bigint::oid AND objid = ?::bigint::oid AND objsubid = 1")) {
            ps.setLong(1, key >>> 32);
            ps.setLong(2, key & 0xFFFF_FFFFL);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? OptionalInt.of(rs.getInt(1)) : OptionalInt.empty();
            }
        }
    }

    private static int backendPid(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_backend_pid()"); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /** @return the lock key */
    public long key() {
        return key;
    }

    /**
     * @return the server process id of the holding session ({@code pg_backend_pid()}), which is what {@code pg_locks}
     *         and {@code pg_stat_activity} show and what {@code pg_terminate_backend} takes; for the lock row's LockInfo
     */
    public int backendPid() {
        return backendPid;
    }

    /**
     * Checks, on the lock's own connection, that its session still holds the lock. False once the session is gone (the
     * connection was cut, the server restarted, or an administrator terminated it): the lock then no longer protects
     * anything and the holder must stop writing. A holder calls this before every state write that the lock guards.
     *
     * @return true when this session holds the key
     */
    public boolean stillHeld() {
        if (released) {
            return false;
        }
        try {
            OptionalInt pid = holder(connection, key);
            return pid.isPresent() && pid.getAsInt() == backendPid;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Releases the lock ({@code pg_advisory_unlock}) and closes the connection. Closing alone would release it too;
     * unlocking first makes the release immediate even if closing the socket is slow. Calling it again does nothing.
     * Never fails: when the unlock or the close fails, the connection is closed or broken, and the session ends, and
     * the lock with it.
     */
    @Override
    public void close() {
        if (released) {
            return;
        }
        released = true;
        try (Connection c = connection; PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            ps.execute();
        } catch (SQLException e) {
            // see above: a session that cannot unlock is a session that is gone or closing
        }
    }
}
