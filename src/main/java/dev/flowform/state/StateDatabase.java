package dev.flowform.state;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.zip.CRC32;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;

/**
 * The part of opening a state database that every {@link Backend} shares: the Flyway migrations (portable SQL under
 * {@code db/migration}), the quick check that a schema is current, the one-time creation of the environment row with
 * its lineage and secret salt, and plain JDBC connection handling. What differs between databases is in the
 * {@link Backend} implementations ({@link H2Backend}).
 */
final class StateDatabase {

    /** Where the migrations live on the class path. */
    static final String MIGRATIONS = "classpath:db/migration";

    /**
     * Every migration script under {@code db/migration}, in version order. A test checks this list against the
     * folder; {@link #schemaIsCurrent} compares a database's history with it.
     */
    static final List<String> MIGRATION_SCRIPTS = List.of("V1__state.sql", "V2__outputs.sql", "V3__lock_holder_process.sql",
            "V4__step_status_stopped.sql", "V5__environment_key.sql");

    /**
     * By version, the checksum of an earlier text of a migration whose statements are today's (only comments
     * changed): {@link #schemaIsCurrent} accepts it and {@link #migrate} records today's before Flyway validates.
     */
    static final Map<String, Integer> REWORDED = Map.of("1", -1678714916, "2", 1660312378);

    private static final int SALT_BYTES = 16;
    private static final HexFormat HEX = HexFormat.of();
    private static final SecureRandom RANDOM = new SecureRandom();

    private StateDatabase() {
    }

    /**
     * @param dataSource where to connect
     * @param location   where the database is, for messages
     * @return a new connection with auto-commit off
     * @throws StateStoreException when it cannot be opened
     */
    static Connection openConnection(DataSource dataSource, String location) {
        Connection connection;
        try {
            connection = dataSource.getConnection();
        } catch (SQLException e) {
            throw new StateStoreException("cannot open the state database " + location + ": " + e.getMessage(), e);
        }
        try {
            // Explicit transactions: each public call commits once. (This also turns off H2's
            // AUTO_RECONNECT, which only works in auto-commit mode; StateStore reconnects itself.)
            connection.setAutoCommit(false);
            return connection;
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new StateStoreException("cannot open the state database " + location + ": " + e.getMessage(), e);
        }
    }

    /**
     * Tells, with plain JDBC and without loading Flyway, whether the schema history holds exactly the migrations of
     * {@link #MIGRATION_SCRIPTS} with their checksums, so a current state opens without Flyway's start-up
     * (docs/performance.md). Anything else answers false and {@link #migrate} runs.
     *
     * @param c an open connection (auto-commit off); its read transaction is ended
     * @return true when migrating would change nothing
     */
    static boolean schemaIsCurrent(Connection c) {
        Map<String, String> expected = new HashMap<>();
        for (int i = 0; i < MIGRATION_SCRIPTS.size(); i++) {
            String script = MIGRATION_SCRIPTS.get(i);
            Integer checksum = flywayChecksum("db/migration/" + script);
            if (checksum == null) {
                return false;
            }
            expected.put(String.valueOf(i + 1), script + "|" + checksum);
        }
        Map<String, String> found = new HashMap<>();
        try {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT \"version\", \"script\", \"checksum\", \"success\", \"type\" FROM \"flyway_schema_history\"");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String version = rs.getString(1);
                    if (!rs.getBoolean(4)) {
                        return false;
                    }
                    if (version == null) {
                        if (!"TABLE".equals(rs.getString(5))) {
                            return false;
                        }
                        continue;
                    }
                    int checksum = rs.getInt(3);
                    if (REWORDED.containsKey(version) && REWORDED.get(version) == checksum) {
                        checksum = flywayChecksum("db/migration/" + rs.getString(2));
                    }
                    if (found.put(version, rs.getString(2) + "|" + checksum) != null) {
                        return false;
                    }
                }
            }
            return found.equals(expected);
        } catch (SQLException e) {
            return false;
        } finally {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the read changed nothing; the next statement starts a new transaction anyway
            }
        }
    }

    /**
     * @param resource a migration script on the class path
     * @return the checksum Flyway records for it (CRC32 over its lines, without line ends or a leading BOM), or null
     *         when it cannot be read
     */
    static Integer flywayChecksum(String resource) {
        InputStream in = StateDatabase.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            return null;
        }
        CRC32 crc = new CRC32();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            boolean first = true;
            while ((line = reader.readLine()) != null) {
                if (first && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                first = false;
                crc.update(line.getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            return null;
        }
        return (int) crc.getValue();
    }

    /**
     * Applies the pending migrations with Flyway; a database migrated by a newer flowform is refused.
     *
     * @throws IllegalStateException when the schema history holds a version this flowform does not know
     * @throws StateStoreException   when Flyway fails
     */
    static void migrate(Backend backend) {
        String location = backend.location();
        recordRewordedChecksums(backend);
        Flyway flyway = backend.flyway(Flyway.configure(StateStore.class.getClassLoader())
                .dataSource(backend.dataSource())
                .locations(MIGRATIONS)
                .cleanDisabled(true))
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

    /**
     * Replaces, in the schema history, each checksum of {@link #REWORDED} with today's checksum of that script. Does
     * nothing when the history does not exist yet; a history that cannot be updated is left to Flyway, whose
     * validation then names the script.
     */
    private static void recordRewordedChecksums(Backend backend) {
        Connection c = backend.connect();
        try {
            for (Map.Entry<String, Integer> e : REWORDED.entrySet()) {
                String script = MIGRATION_SCRIPTS.get(Integer.parseInt(e.getKey()) - 1);
                Sql.update(c, "UPDATE \"flyway_schema_history\" SET \"checksum\" = ? WHERE \"version\" = ? AND \"script\" = ?"
                        + " AND \"checksum\" = ?", flywayChecksum("db/migration/" + script), e.getKey(), script, e.getValue());
            }
            c.commit();
        } catch (SQLException e) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // nothing was changed
            }
        } finally {
            closeQuietly(c);
        }
    }

    /**
     * Reads the environment row, creating it (lineage, serial 0, salt) when the database is new; of several processes
     * creating it at once, one wins and the others read its row.
     *
     * @param shared true when the database holds many environments (PostgreSQL's schema), false for an H2 file,
     *               which belongs to exactly one
     * @return the environment's secret salt
     * @throws IllegalStateException when an H2 file belongs to another environment or holds several
     */
    static byte[] ensureEnvironment(Connection c, String environment, Clock clock, String location, boolean shared)
            throws SQLException {
        for (int attempt = 0; attempt < 2; attempt++) {
            byte[] found = environmentSalt(c, environment, location, shared);
            c.commit();
            if (found != null) {
                return found;
            }
            byte[] salt = new byte[SALT_BYTES];
            RANDOM.nextBytes(salt);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO environment "
                    + "(name, lineage, serial, secret_salt, kube_server, kube_namespace, created_at) VALUES (?, ?, 0, ?, NULL, NULL, ?)")) {
                Sql.bind(ps, environment, UUID.randomUUID().toString(), HEX.formatHex(salt), Sql.now(clock));
                ps.executeUpdate();
                c.commit();
                return salt;
            } catch (SQLException e) {
                c.rollback();
                if (!Sql.isContention(e)) {
                    throw e;
                }
                // another process created the row first: read its lineage and salt
            }
        }
        throw new IllegalStateException("the environment row of " + location + " could not be read or created");
    }

    /**
     * Reads the environment row without creating it, for a read-only store.
     *
     * @return the environment's secret salt
     * @throws IllegalStateException when there is no row, several rows, or the row belongs to another environment
     */
    static byte[] readEnvironment(Connection c, String environment, String location, boolean shared)
            throws SQLException {
        byte[] salt = environmentSalt(c, environment, location, shared);
        c.rollback();
        if (salt == null) {
            if (shared) {
                throw new NoStateException("there is no state for environment \"" + environment + "\" in " + location
                        + ": nothing has been planned or applied in it");
            }
            throw new IllegalStateException("the state database " + location + " holds no environment; a state database "
                    + "belongs to exactly one");
        }
        return salt;
    }

    /**
     * @return the salt of the one environment row, or null when there is none yet
     * @throws IllegalStateException when there are several rows or the row belongs to another environment
     */
    private static byte[] environmentSalt(Connection c, String environment, String location, boolean shared)
            throws SQLException {
        List<String[]> rows = Sql.query(c, "SELECT name, secret_salt FROM environment" + (shared ? " WHERE name = ?" : ""),
                rs -> new String[] {rs.getString(1), rs.getString(2)}, shared ? new Object[] {environment} : new Object[0]);
        if (rows.size() > 1) {
            throw new IllegalStateException("the state database " + location + " holds " + rows.size()
                    + " environments; a state database belongs to exactly one");
        }
        if (rows.isEmpty()) {
            return null;
        }
        if (!rows.get(0)[0].equals(environment)) {
            throw new IllegalStateException("the state database " + location + " belongs to environment \""
                    + rows.get(0)[0] + "\", not \"" + environment
                    + "\"; was it copied or renamed? Each environment keeps its own state.");
        }
        return HEX.parseHex(rows.get(0)[1]);
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
