package dev.flowform.state;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The database plumbing under {@link StateStore}: H2 URLs, opening connections (with the retries
 * H2's auto-server mode needs), Flyway migrations and the one-time creation of the environment
 * row. Kept apart so {@link StateStore} reads as the state API; everything here is SQL- and
 * H2-specific, and is where a PostgreSQL backend would differ.
 */
final class StateDatabase {

    /** Where the migrations live on the class path. */
    static final String MIGRATIONS = "classpath:db/migration";

    /**
     * H2 options for file databases: {@code AUTO_SERVER} lets several processes share the file;
     * {@code WRITE_DELAY=0} writes every commit to the file before the commit returns;
     * {@code FILE_LOCK=SOCKET} makes the serving process hold the database through a listening socket
     * rather than a lock file it touches every second, so after that process is killed the next one
     * sees at once that nobody listens and takes over (with the default file method it waits until the
     * lock file is 2 s old and then 2 s more, measured 4 to 5 s against 1.4 s).
     */
    static final String H2_FILE_OPTIONS = ";AUTO_SERVER=TRUE;WRITE_DELAY=0;FILE_LOCK=SOCKET";

    private static final int SALT_BYTES = 16;
    private static final HexFormat HEX = HexFormat.of();
    private static final SecureRandom RANDOM = new SecureRandom();

    private StateDatabase() {
    }

    /** @return the JDBC URL of {@code <stateDir>/<env>/flowform} in file mode, with {@link #H2_FILE_OPTIONS} */
    static String jdbcUrl(Path environmentDirectory) {
        return "jdbc:h2:file:" + environmentDirectory.resolve(StateStore.DATABASE_NAME) + H2_FILE_OPTIONS;
    }

    /**
     * @param url an H2 JDBC URL
     * @return a data source for it, user {@code sa} with an empty password (the file is protected
     *         by file-system permissions, like Terraform's local state file)
     */
    static DataSource dataSource(String url) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL(url);
        dataSource.setUser("sa");
        dataSource.setPassword("");
        return dataSource;
    }

    /**
     * Runs {@code attempt}, retrying while it fails because another process is opening the same
     * H2 database; see
     * {@link StateStore#open(Path, String, Clock, Sleeper)}. Package-private for tests.
     */
    static <T> T retryWhileBusy(Supplier<T> attempt, Sleeper sleeper, String location) {
        Duration delay = StateStore.OPEN_RETRY_FIRST_DELAY;
        Duration slept = Duration.ZERO;
        while (true) {
            try {
                return attempt.get();
            } catch (StateStoreException e) {
                if (!isBusyOpening(e) || slept.compareTo(StateStore.OPEN_RETRY_BUDGET) >= 0) {
                    throw e;
                }
                try {
                    sleeper.sleep(delay);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    StateStoreException stop = new StateStoreException(
                            "interrupted while waiting to open the state database " + location, interrupted);
                    stop.addSuppressed(e);
                    throw stop;
                }
                slept = slept.plus(delay);
                Duration doubled = delay.multipliedBy(2);
                delay = doubled.compareTo(StateStore.OPEN_RETRY_MAX_DELAY) < 0 ? doubled : StateStore.OPEN_RETRY_MAX_DELAY;
            }
        }
    }

    /**
     * True when the cause chain holds one of H2's "someone else is opening this file" errors:
     * 8000 (ERROR_OPENING_DATABASE_1, e.g. "Lock file recently modified"), 90020
     * (DATABASE_ALREADY_OPEN_1) or 90067 (CONNECTION_BROKEN_1, the serving process just exited).
     */
    static boolean isBusyOpening(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                int code = sql.getErrorCode();
                if (code == 8000 || code == 90020 || code == 90067) {
                    return true;
                }
            }
        }
        return false;
    }

    static Connection openConnection(DataSource dataSource, String location) {
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw new StateStoreException("cannot open the state database " + location + ": " + e.getMessage(), e);
        }
        try {
            // Explicit transactions: each public call commits once. (This also turns off H2's
            // AUTO_RECONNECT, which only works in auto-commit mode; see reconnect().)
            connection.setAutoCommit(false);
            return connection;
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new StateStoreException("cannot open the state database " + location + ": " + e.getMessage(), e);
        }
    }

    static void migrate(DataSource dataSource, String location) {
        Flyway flyway = Flyway.configure(StateStore.class.getClassLoader())
                .dataSource(dataSource)
                .locations(MIGRATIONS)
                .cleanDisabled(true)
                .load();
        MigrationInfo[] all;
        try {
            all = flyway.info().all();
        } catch (FlywayException e) {
            throw new StateStoreException("cannot read the schema history of " + location + ": " + e.getMessage(), e);
        }
        MigrationVersion known = null;
        for (MigrationInfo info : all) {
            if (info.getState().isResolved() && info.getVersion() != null
                    && (known == null || info.getVersion().compareTo(known) > 0)) {
                known = info.getVersion();
            }
        }
        for (MigrationInfo info : all) {
            if (info.getState() == MigrationState.FUTURE_SUCCESS || info.getState() == MigrationState.FUTURE_FAILED) {
                throw new IllegalStateException("the state database " + location + " has schema version "
                        + info.getVersion() + " (" + info.getDescription() + "), written by a newer flowform;"
                        + " this flowform knows schema versions up to " + known + ". Use a newer flowform for this environment.");
            }
        }
        try {
            flyway.migrate();
        } catch (FlywayException e) {
            throw new StateStoreException("cannot migrate the state database " + location + ": " + e.getMessage(), e);
        }
    }

    /** Reads the environment row, creating it (lineage, serial 0, salt) when the database is new. */
    static byte[] ensureEnvironment(Connection c, String environment, Clock clock, String location) throws SQLException {
        for (int attempt = 0; attempt < 2; attempt++) {
            List<String[]> rows = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT name, secret_salt FROM environment");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new String[] {rs.getString(1), rs.getString(2)});
                }
            }
            c.commit();
            if (rows.size() > 1) {
                throw new IllegalStateException("the state database " + location + " holds " + rows.size()
                        + " environments; a state database belongs to exactly one");
            }
            if (rows.size() == 1) {
                if (!rows.get(0)[0].equals(environment)) {
                    throw new IllegalStateException("the state database " + location + " belongs to environment \""
                            + rows.get(0)[0] + "\", not \"" + environment
                            + "\"; was it copied or renamed? Each environment keeps its own state.");
                }
                return HEX.parseHex(rows.get(0)[1]);
            }
            byte[] salt = new byte[SALT_BYTES];
            RANDOM.nextBytes(salt);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO environment "
                    + "(name, lineage, serial, secret_salt, kube_server, kube_namespace, created_at) VALUES (?, ?, 0, ?, NULL, NULL, ?)")) {
                ps.setString(1, environment);
                ps.setString(2, UUID.randomUUID().toString());
                ps.setString(3, HEX.formatHex(salt));
                ps.setObject(4, clock.instant().truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC));
                ps.executeUpdate();
                c.commit();
                return salt;
            } catch (SQLException e) {
                c.rollback();
                if (!StateStore.isContention(e)) {
                    throw e;
                }
                // another process created the row first: read its lineage and salt
            }
        }
        throw new IllegalStateException("the environment row of " + location + " could not be read or created");
    }

    /**
     * True when the connection itself is gone: H2 90067 (CONNECTION_BROKEN_1), 90098
     * (DATABASE_IS_CLOSED), 90121 (DATABASE_CALLED_AT_SHUTDOWN, "Database is already closed").
     */
    static boolean isConnectionLost(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                int code = sql.getErrorCode();
                if (code == 90067 || code == 90098 || code == 90121) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Closes {@code c}, ignoring errors: used on paths that are already failing or closing. */
    static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // nothing to save: every public call commits before returning
        }
    }
}
