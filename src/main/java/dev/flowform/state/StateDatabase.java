package dev.flowform.state;

import dev.flowform.apply.Sleeper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.zip.CRC32;
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
 *
 * <p><b>Loopback only.</b> Several processes share one state file through H2's auto-server mode: the
 * process that opens the file first serves it over TCP and the others connect to it. H2 2.5.252 opens two
 * listening sockets per open file database, both through {@code org.h2.util.NetUtils.createServerSocket}:
 * the auto-server's TCP server (started with {@code -tcpAllowOthers}) and, with {@code FILE_LOCK=SOCKET},
 * the lock socket. Both bind to {@code org.h2.engine.SysProperties.BIND_ADDRESS}, read once from the
 * system property {@code h2.bindAddress} when H2 first loads that class; unset, H2 binds to the wildcard
 * address (every interface) and writes {@code InetAddress.getLocalHost()} into the lock file as the address
 * to connect to. This class sets {@code h2.bindAddress} to {@value #LOOPBACK} before H2 is first used, so
 * both sockets listen on loopback and the lock file points the other processes at loopback. Measured with
 * {@code /proc/net/tcp6} while a state file is open: before, two listeners on {@code [::]} (all interfaces,
 * IPv4 included); after, two on {@code ::ffff:127.0.0.1}. A mode without a server ({@code FILE_LOCK=FS},
 * no {@code AUTO_SERVER}) opens no socket at all, but then a second process cannot open the file while the
 * first has it open (H2 error 90020, "Database may be already in use"), so a second apply could not even read
 * who holds the lock; it is not used. If H2 was loaded with another bind address before this class could set
 * it (another library in the same JVM), opening a file database fails rather than listen on every
 * interface.
 */
final class StateDatabase {

    /** Where the migrations live on the class path. */
    static final String MIGRATIONS = "classpath:db/migration";

    /**
     * Every migration script under {@code db/migration}, in version order. A test checks this list against the
     * folder; {@link #schemaIsCurrent} compares a database's history with it.
     */
    static final List<String> MIGRATION_SCRIPTS = List.of("V1__state.sql", "V2__outputs.sql", "V3__lock_holder_process.sql");

    /**
     * H2 options for file databases: {@code AUTO_SERVER} lets several processes share the file;
     * {@code WRITE_DELAY=0} writes every commit to the file before the commit returns;
     * {@code FILE_LOCK=SOCKET} makes the serving process hold the database through a listening socket
     * rather than a lock file it touches every second, so after that process is killed the next one
     * sees at once that nobody listens and takes over (with the default file method it waits until the
     * lock file is 2 s old and then 2 s more, measured 4 to 5 s against 1.4 s).
     */
    static final String H2_FILE_OPTIONS = ";AUTO_SERVER=TRUE;WRITE_DELAY=0;FILE_LOCK=SOCKET";

    /** The address H2's sockets bind to: IPv4 loopback (see the class comment). */
    static final String LOOPBACK = "127.0.0.1";

    /** The system property H2 reads its bind address from. */
    static final String BIND_ADDRESS_PROPERTY = "h2.bindAddress";

    static {
        System.setProperty(BIND_ADDRESS_PROPERTY, LOOPBACK);
    }

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
     * @return the JDBC URL that opens {@code <stateDir>/<env>/flowform} for reading only: {@code ACCESS_MODE_DATA=r}
     *         (the file is opened read-only), no auto-server and no file lock (both would write next to the file), no
     *         trace file ({@code TRACE_LEVEL_FILE=0}), and {@code IFEXISTS=TRUE} so a missing file is never created
     */
    static String readOnlyUrl(Path environmentDirectory) {
        return "jdbc:h2:file:" + environmentDirectory.resolve(StateStore.DATABASE_NAME)
                + ";ACCESS_MODE_DATA=r;FILE_LOCK=NO;TRACE_LEVEL_FILE=0;IFEXISTS=TRUE";
    }

    /**
     * @param url an H2 JDBC URL
     * @return a data source for it, user {@code sa} with an empty password (the file is protected
     *         by file-system permissions, like Terraform's local state file)
     */
    static DataSource dataSource(String url) {
        if (url.startsWith("jdbc:h2:file:")) {
            requireLoopback();
        }
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL(url);
        dataSource.setUser("sa");
        dataSource.setPassword("");
        return dataSource;
    }

    /**
     * Checks that H2 took the loopback bind address this class set: H2 reads it once, when it first loads
     * {@code SysProperties}.
     *
     * @throws StateStoreException when H2 binds elsewhere (it was loaded, with another address, before this class)
     */
    static void requireLoopback() {
        String bound = org.h2.engine.SysProperties.BIND_ADDRESS;
        if (!LOOPBACK.equals(bound)) {
            throw new StateStoreException("H2 was initialised with bind address " + (bound == null || bound.isEmpty()
                    ? "(every interface)" : bound) + " before flowform could restrict it to " + LOOPBACK
                    + "; refusing to open the state database with a listener reachable from other machines."
                    + " Start the JVM with -D" + BIND_ADDRESS_PROPERTY + "=" + LOOPBACK + ".", null);
        }
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

    /**
     * Tells, with plain JDBC and without loading Flyway, whether the database's schema history holds exactly the
     * migrations of {@link #MIGRATION_SCRIPTS}, each applied successfully with the checksum Flyway computes for the
     * script on the class path. Then {@link #migrate} would find nothing to do, and a state that is already
     * current opens without Flyway's start-up cost (about a thousand classes, most of a second in a new JVM).
     * Anything else (no history yet, a pending, failed, changed or newer migration) answers false, and
     * {@link #migrate} does what it always did, errors included.
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
                    if (found.put(version, rs.getString(2) + "|" + rs.getInt(3)) != null) {
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
            byte[] found = environmentSalt(c, environment, location);
            c.commit();
            if (found != null) {
                return found;
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
     * Checks that an existing database file is whole, before H2 opens it: H2 opens a truncated file without an error,
     * falling back to whatever older chunk it still finds (measured with H2 2.5.252: a 96 KiB state cut to 12,000 bytes
     * opened as an empty database, which the migrations then filled with a new lineage). The file must hold H2's two
     * header blocks, start with an MVStore header ({@code H:2,...,blockSize:...}), be a whole number of blocks long, and,
     * when the header names the last chunk (a file closed cleanly), hold that chunk to its end.
     *
     * @param file an existing database file
     * @throws DamagedStateException when it is not whole
     */
    static void checkFile(Path file) {
        long size;
        byte[] head = new byte[256];
        int read;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            size = java.nio.file.Files.size(file);
            read = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new StateStoreException("cannot read the state database " + file + ": " + e.getMessage(), e);
        }
        if (size < 2 * 4096) {
            throw new DamagedStateException(file, "it is " + size + " bytes long, shorter than an H2 database's two header "
                    + "blocks (the file was truncated or never completely written)");
        }
        String header = new String(head, 0, read, StandardCharsets.ISO_8859_1);
        Map<String, String> fields = new HashMap<>();
        if (header.startsWith("H:")) {
            for (String part : header.split("\n", 2)[0].trim().split(",")) {
                int colon = part.indexOf(':');
                if (colon > 0) {
                    fields.put(part.substring(0, colon), part.substring(colon + 1));
                }
            }
        }
        if (!fields.containsKey("H") || !fields.containsKey("blockSize")) {
            throw new DamagedStateException(file, "it does not start with an H2 MVStore file header");
        }
        long blockSize;
        try {
            blockSize = Long.parseLong(fields.get("blockSize"), 16);
        } catch (NumberFormatException e) {
            throw new DamagedStateException(file, "its H2 file header is unreadable");
        }
        if (blockSize <= 0 || size % blockSize != 0) {
            throw new DamagedStateException(file, "it is " + size + " bytes long, not a whole number of " + blockSize
                    + "-byte blocks (the file was truncated)");
        }
        // "block" names the last chunk written when the file was closed cleanly; an open (or killed) store leaves it out
        if (fields.containsKey("block")) {
            long block;
            try {
                block = Long.parseLong(fields.get("block"), 16);
            } catch (NumberFormatException e) {
                throw new DamagedStateException(file, "its H2 file header is unreadable");
            }
            long length = 1;
            try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file)) {
                if ((block + 1) * blockSize <= size) {
                    java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(256);
                    ch.read(buf, block * blockSize);
                    String chunk = new String(buf.array(), 0, buf.position(), StandardCharsets.ISO_8859_1);
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:^|,)len:([0-9a-f]+)").matcher(chunk);
                    if (chunk.startsWith("chunk:") && m.find()) {
                        length = Long.parseLong(m.group(1), 16);
                    }
                }
            } catch (IOException | NumberFormatException e) {
                length = 1;
            }
            if ((block + length) * blockSize > size) {
                throw new DamagedStateException(file, "its last chunk ends at block " + (block + length) + ", but the file "
                        + "ends at block " + (size / blockSize) + " (the file was truncated)");
            }
        }
    }

    /**
     * Reads the environment row without creating it, for a read-only store.
     *
     * @return the environment's secret salt
     * @throws IllegalStateException when there is no row, several rows, or the row belongs to another environment
     */
    static byte[] readEnvironment(Connection c, String environment, String location) throws SQLException {
        byte[] salt = environmentSalt(c, environment, location);
        c.rollback();
        if (salt == null) {
            throw new IllegalStateException("the state database " + location + " holds no environment; a state database "
                    + "belongs to exactly one");
        }
        return salt;
    }

    /**
     * @return the salt of the one environment row, or null when there is none yet
     * @throws IllegalStateException when there are several rows or the row belongs to another environment
     */
    private static byte[] environmentSalt(Connection c, String environment, String location) throws SQLException {
        List<String[]> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT name, secret_salt FROM environment");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(new String[] {rs.getString(1), rs.getString(2)});
            }
        }
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
