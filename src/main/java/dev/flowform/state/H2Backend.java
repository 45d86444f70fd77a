package dev.flowform.state;

import dev.flowform.locking.Sleeper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/**
 * The H2 backend of {@link StateStore}: a file database at {@code <stateDir>/<env>/flowform.mv.db} shared by several
 * processes through H2's auto-server mode, a read-only view of such a file, or an in-memory database for tests. Holds
 * everything H2-specific: URLs and options, the retries while another process opens the file, H2's error codes,
 * {@code BACKUP TO}, and the loopback-only bind address of H2's two sockets ({@code h2.bindAddress}, set before H2
 * loads; docs/state-backends.md, "H2").
 */
final class H2Backend implements Backend {

    /**
     * H2 options for file databases: {@code AUTO_SERVER} shares the file between processes; {@code WRITE_DELAY=0}
     * writes each commit before it returns (a {@code kill -9} loses nothing committed); {@code FILE_LOCK=SOCKET} lets
     * the next process take over at once from a killed one; {@code NETWORK_TIMEOUT} bounds every wait for the serving
     * process; {@code TRACE_LEVEL_FILE=0} writes no trace file beside the state (docs/state-backends.md, "H2").
     */
    static final String H2_FILE_OPTIONS = ";AUTO_SERVER=TRUE;WRITE_DELAY=0;FILE_LOCK=SOCKET;NETWORK_TIMEOUT="
            + H2Backend.NETWORK_TIMEOUT_MS + ";TRACE_LEVEL_FILE=0";

    /** How long a process connected to the one serving the file waits for each answer: 10 seconds, in ms. */
    static final int NETWORK_TIMEOUT_MS = 10_000;

    /** The address H2's sockets bind to: IPv4 loopback (see the class comment). */
    static final String LOOPBACK = "127.0.0.1";

    /** The system property H2 reads its bind address from. */
    static final String BIND_ADDRESS_PROPERTY = "h2.bindAddress";

    /** First pause when another process is opening the same database at the same moment: 50 ms. */
    static final Duration OPEN_RETRY_FIRST_DELAY = Duration.ofMillis(50);

    /** Longest pause between open attempts: 1 second. */
    static final Duration OPEN_RETRY_MAX_DELAY = Duration.ofSeconds(1);

    /** Total pausing after which a busy database is reported as an error: 15 seconds. */
    static final Duration OPEN_RETRY_BUDGET = Duration.ofSeconds(15);

    static {
        System.setProperty(BIND_ADDRESS_PROPERTY, LOOPBACK);
    }

    private final String location;
    private final DataSource dataSource;
    private final Sleeper sleeper;
    private final Path sharedDirectory;

    /**
     * @param sharedDirectory {@code <stateDir>/<env>} of a file database shared through the auto-server, whose holder
     *                        is asked before every connection and which reconnects; null for one that is not shared
     */
    private H2Backend(String url, String location, Sleeper sleeper, Path sharedDirectory) {
        this.location = location;
        this.dataSource = dataSource(url);
        this.sleeper = sleeper;
        this.sharedDirectory = sharedDirectory;
    }

    /**
     * @param environmentDirectory {@code <stateDir>/<env>}, absolute
     * @param sleeper              pauses between attempts while another process opens the file
     * @return the shared file database {@code <dir>/flowform.mv.db}, reconnecting after a lost connection
     */
    static H2Backend file(Path environmentDirectory, Sleeper sleeper) {
        return new H2Backend(jdbcUrl(environmentDirectory), databaseFile(environmentDirectory).toString(), sleeper,
                environmentDirectory);
    }

    /**
     * Prepares the folder of a file database for opening: creates it, and checks a file at rest for damage.
     *
     * @param dir     {@code <stateDir>/<env>}, absolute
     * @param sleeper pauses between attempts while another process opens the file
     * @return the backend of {@code <dir>/flowform.mv.db}
     * @throws IllegalArgumentException when the path cannot be put in an H2 URL
     * @throws StateStoreException      when the folder cannot be created
     * @throws DamagedStateException    when the file at rest is damaged
     */
    static H2Backend prepareFile(Path dir, Sleeper sleeper) {
        if (dir.resolve(StateStore.DATABASE_NAME).toString().indexOf(';') >= 0) {
            throw new IllegalArgumentException("state directory " + dir + " contains ';', which an H2 database URL cannot hold");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StateStoreException("cannot create the state directory " + dir + ": " + e.getMessage(), e);
        }
        Path file = databaseFile(dir);
        // While a process has the file open (or is creating it) H2 keeps flowform.lock.db next to it and serves the
        // file itself; only a file at rest is checked, which is also when a damaged file would be opened by H2 here.
        if (Files.exists(file) && !Files.exists(dir.resolve(StateStore.DATABASE_NAME + ".lock.db"))) {
            H2FileCheck.check(file);
        }
        return file(dir, sleeper);
    }

    /**
     * @param dir {@code <stateDir>/<env>}, absolute
     * @return the read-only backend of {@code <dir>/flowform.mv.db} (see {@link #readOnlyUrl})
     * @throws StateStoreException   when there is no such file
     * @throws DamagedStateException when it is damaged
     */
    static H2Backend readOnlyChecked(Path dir) {
        Path file = databaseFile(dir);
        if (!Files.isRegularFile(file)) {
            throw new StateStoreException("there is no state database at " + file, null);
        }
        H2FileCheck.check(file);
        return readOnly(dir);
    }

    /**
     * @param environmentDirectory {@code <stateDir>/<env>}, absolute
     * @return the file database opened read-only (see {@link #readOnlyUrl}); never reconnects
     */
    static H2Backend readOnly(Path environmentDirectory) {
        return new H2Backend(readOnlyUrl(environmentDirectory), databaseFile(environmentDirectory).toString(),
                Sleeper.SYSTEM, null);
    }

    /**
     * @param name a name no other in-memory database of this JVM has
     * @return a private in-memory database, gone with its last connection; never reconnects
     */
    static H2Backend memory(String name) {
        return new H2Backend("jdbc:h2:mem:" + name, "in-memory database " + name, Sleeper.SYSTEM, null);
    }

    /** @return the file H2 keeps a state in: {@code <dir>/flowform.mv.db} */
    static Path databaseFile(Path environmentDirectory) {
        return environmentDirectory.resolve(StateStore.DATABASE_NAME + ".mv.db");
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

    @Override
    public String location() {
        return location;
    }

    @Override
    public Sleeper sleeper() {
        return sleeper;
    }

    @Override
    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * Opens a connection; for a shared file, first checks that the process holding it open answers.
     *
     * @throws HolderNotAnsweringException when it does not
     * @throws StateStoreException         when the connection cannot be opened, or the check was interrupted
     */
    @Override
    public Connection connect() {
        if (sharedDirectory != null) {
            try {
                H2FileHolder.requireAnswering(sharedDirectory, sleeper);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StateStoreException("interrupted while asking the process that holds " + location
                        + " open whether it answers", e);
            }
        }
        return StateDatabase.openConnection(dataSource, location);
    }

    @Override
    public <T> T opening(Supplier<T> attempt) {
        return sharedDirectory != null ? retryWhileBusy(attempt, sleeper, location) : attempt.get();
    }

    @Override
    public boolean reconnects() {
        return sharedDirectory != null;
    }

    @Override
    public boolean isConnectionLost(SQLException e) {
        return isConnectionLostError(e);
    }

    /** H2's {@code BACKUP TO}: a zip holding {@code flowform.mv.db}, consistent while the database stays open. */
    @Override
    public void backup(Connection c, Path zip) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("BACKUP TO ?")) {
            ps.setString(1, zip.toAbsolutePath().toString());
            ps.execute();
        }
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
     * {@link Backend#retrying} while another process is opening the same H2 database ({@link #isBusyOpening}), from
     * {@link #OPEN_RETRY_FIRST_DELAY} doubling to {@link #OPEN_RETRY_MAX_DELAY}, within {@link #OPEN_RETRY_BUDGET}.
     */
    static <T> T retryWhileBusy(Supplier<T> attempt, Sleeper sleeper, String location) {
        return Backend.retrying(attempt, H2Backend::isBusyOpening, OPEN_RETRY_FIRST_DELAY, OPEN_RETRY_MAX_DELAY,
                OPEN_RETRY_BUDGET, sleeper, location);
    }

    /**
     * True when the cause chain holds one of H2's "someone else is opening this file" errors:
     * 8000 (ERROR_OPENING_DATABASE_1, e.g. "Lock file recently modified"), 90020
     * (DATABASE_ALREADY_OPEN_1) or 90067 (CONNECTION_BROKEN_1, the serving process just exited).
     */
    static boolean isBusyOpening(Throwable e) {
        return hasErrorCode(e, 8000, 90020, 90067);
    }

    /**
     * True when the connection itself is gone: H2 90067 (CONNECTION_BROKEN_1), 90098
     * (DATABASE_IS_CLOSED), 90121 (DATABASE_CALLED_AT_SHUTDOWN, "Database is already closed").
     */
    static boolean isConnectionLostError(SQLException e) {
        return hasErrorCode(e, 90067, 90098, 90121);
    }

    private static boolean hasErrorCode(Throwable e, int... codes) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                for (int code : codes) {
                    if (sql.getErrorCode() == code) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * @param e a failure to open or read a state
     * @return H2's problem in one short line when the failure is H2 finding the file damaged (rather than busy, newer or
     *         someone else's: {@link DamagedStateException}, H2's FILE_CORRUPTED_1 90030, FILE_VERSION_ERROR_1 90048,
     *         GENERAL_ERROR_1 50000, an MVStore error, or a message saying "corrupt"), else empty
     */
    static Optional<String> damage(Throwable e) {
        return isDamaged(e) ? Optional.of(problem(e)) : Optional.empty();
    }

    private static boolean isDamaged(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DamagedStateException || t instanceof SQLException sql && (sql.getErrorCode() == 90030
                    || sql.getErrorCode() == 90048 || sql.getErrorCode() == 50000)) {
                return true;
            }
            String m = t.getMessage();
            if (t.getClass().getName().startsWith("org.h2.mvstore")
                    || (m != null && m.toLowerCase(Locale.ROOT).contains("corrupt"))) {
                return true;
            }
        }
        return false;
    }

    /** @return H2's innermost message in one short line, without its version suffix */
    private static String problem(Throwable e) {
        if (e instanceof DamagedStateException d) {
            return d.problem();
        }
        String found = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && (t instanceof SQLException || t.getClass().getName().startsWith("org.h2"))) {
                found = t.getMessage();
            }
        }
        if (found == null) {
            found = String.valueOf(e.getMessage());
        }
        String line = found.lines().findFirst().orElse("").trim();
        int ex = line.lastIndexOf("Exception: ");
        if (ex >= 0) {
            line = line.substring(ex + "Exception: ".length());
        }
        line = line.replaceAll("\\s*\\[[0-9./-]+]", "").replaceAll("^General error: \"|\"$", "").trim();
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    /**
     * @return true when it exists and it or its folder may not be written: either the process may not write it
     *         ({@link Files#isWritable}, which covers read-only mounts and other users' files) or its owner-write
     *         permission bit is off (root may write any file whatever its mode bits, so {@code chmod -w}, or a copy made
     *         read-only on purpose, is honoured through the bits)
     */
    static boolean isReadOnly(Path db) {
        return Files.exists(db) && (!writable(db) || !writable(db.getParent()));
    }

    private static boolean writable(Path p) {
        if (!Files.isWritable(p)) {
            return false;
        }
        PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class);
        if (view == null) {
            return true;
        }
        try {
            return view.readAttributes().permissions().contains(PosixFilePermission.OWNER_WRITE);
        } catch (IOException e) {
            return true;
        }
    }
}
