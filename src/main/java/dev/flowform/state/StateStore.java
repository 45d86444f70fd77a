package dev.flowform.state;

import dev.flowform.locking.Sleeper;
import dev.flowform.plan.StateRef;
import dev.flowform.state.pg.PgConnection;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * One environment's state database: lineage and serial, and the components that keep the rest: {@link #journal()},
 * {@link #snapshots()}, {@link #outputs()}, {@link #lockTable()}, {@link #cipher()}. An H2 file per environment
 * ({@link #open}) or a PostgreSQL schema ({@link #openPostgres}); a lost connection is replaced and an uncommitted call
 * repeated. Every state-changing call is one committed transaction that adds 1 to the serial (Terraform's lineage and
 * serial). One connection per store, every transaction under the store's monitor, times from the injected
 * {@link Clock}. Failures: {@link StateStoreException} (database), {@link IllegalArgumentException} (arguments),
 * {@link IllegalStateException} (calls that do not fit the state). See docs/architecture.md, "State".
 */
public final class StateStore implements AutoCloseable {

    /** Allowed environment names: letters, digits, {@code _ . -}; also not {@code .} or {@code ..}. */
    public static final Pattern ENVIRONMENT_NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    /** Longest allowed environment name, in characters (the {@code environment.name} column). */
    public static final int MAX_ENVIRONMENT_NAME_LENGTH = 100;

    /** Base name of the database inside {@code <stateDir>/<env>/}; H2 appends {@code .mv.db}. */
    public static final String DATABASE_NAME = "flowform";

    private static final String ENVIRONMENT_COLUMNS = "name, lineage, serial, kube_server, kube_namespace, created_at";

    private final String environment;
    private final Clock clock;
    private final Backend backend;
    private final boolean readOnly;
    private final SecretCipher cipher;
    private final RunJournal journal;
    private final SnapshotTable snapshots;
    private final OutputTable outputs;
    private final StateLockTable locker;
    private Connection connection;
    private boolean closed;

    private StateStore(String environment, Clock clock, Backend backend, Connection connection, byte[] salt,
                       boolean readOnly) {
        this.environment = environment;
        this.clock = clock;
        this.backend = backend;
        this.connection = connection;
        this.readOnly = readOnly;
        this.cipher = new SecretCipher(salt, environment);
        this.journal = new RunJournal(this);
        this.snapshots = new SnapshotTable(this);
        this.outputs = new OutputTable(this);
        this.locker = new StateLockTable(this);
    }

    // ------------------------------------------------------------------------------------------
    // Opening

    /**
     * Opens (creating on first use: folder, file, environment row with a new lineage, serial 0 and salt) the state of
     * {@code environment} under {@code stateDir}, and migrates its schema; several processes may open it at once.
     *
     * @param stateDir    folder holding one sub-folder per environment, e.g. {@code ./state}
     * @param environment environment name, matching {@link #ENVIRONMENT_NAME}
     * @param clock       source of every time written
     * @return the open store; close it when done
     * @throws IllegalArgumentException when the name is invalid or the path cannot be put in an H2 URL
     * @throws IllegalStateException    when the database belongs to another environment or a newer flowform
     * @throws StateStoreException      when the folder or database cannot be created or opened
     */
    public static StateStore open(Path stateDir, String environment, Clock clock) {
        return open(stateDir, environment, clock, Sleeper.SYSTEM);
    }

    /**
     * Same as {@link #open(Path, String, Clock)}, pausing with {@code sleeper} (50 ms doubling to 1 s, at most 15 s in
     * all) while another process is in the middle of opening the same database (H2's auto-server handshake).
     *
     * @param sleeper how to pause between open attempts
     * @see #open(Path, String, Clock) the other parameters, the result and the errors (a database still busy after
     *      15 s fails with {@link StateStoreException})
     */
    public static StateStore open(Path stateDir, String environment, Clock clock, Sleeper sleeper) {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(sleeper, "sleeper");
        validateEnvironmentName(environment);
        Backend backend = H2Backend.prepareFile(environmentDirectory(stateDir, environment), sleeper);
        return backend.opening(() -> openOn(backend, environment, clock, false, true));
    }

    /**
     * Opens (creating on first use) the state of {@code environment} in a PostgreSQL schema holding every environment
     * ({@link PgBackend}): creates and migrates the schema and the environment's row as needed.
     *
     * @param settings    the connection settings ({@link PgConnection#resolve}); the password is never shown
     * @param schema      the schema holding the state tables ({@code schema_name})
     * @param environment environment name, matching {@link #ENVIRONMENT_NAME}
     * @param clock       source of every time written
     * @param sleeper     how to pause between connection attempts
     * @param create      false to refuse an environment without state ({@link NoStateException}) instead of creating it
     * @return the open store; close it when done
     * @throws IllegalArgumentException when the name is invalid
     * @throws IllegalStateException    when the schema was migrated by a newer flowform
     * @throws StateStoreException      when the server cannot be reached or refuses
     */
    public static StateStore openPostgres(PgConnection settings, String schema, String environment, Clock clock,
                                          Sleeper sleeper, boolean create) {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(clock, "clock");
        validateEnvironmentName(environment);
        Backend backend = new PgBackend(settings, schema, sleeper);
        return backend.opening(() -> openOn(backend, environment, clock, false, create));
    }

    /**
     * Opens a private in-memory state database, for tests: same schema and behaviour as
     * {@link #open}, gone when the store is closed. Every call gets a new database, so two
     * in-memory stores never share a lineage, even for the same environment name.
     *
     * @param environment environment name, matching {@link #ENVIRONMENT_NAME}
     * @param clock       source of every time written
     * @return the open store
     * @throws IllegalArgumentException when the name is invalid
     */
    public static StateStore inMemory(String environment, Clock clock) {
        Objects.requireNonNull(clock, "clock");
        validateEnvironmentName(environment);
        return openOn(H2Backend.memory("flowform-" + environment + "-" + UUID.randomUUID()), environment, clock, false,
                true);
    }

    /**
     * Opens an existing state read-only (H2 {@code ACCESS_MODE_DATA=r}, no auto-server, no lock file), for files that
     * may not be written: nothing is migrated or created, writes fail, no lock is taken.
     *
     * @param stateDir    folder holding one sub-folder per environment
     * @param environment environment name, matching {@link #ENVIRONMENT_NAME}
     * @param clock       source of every time read
     * @return the open store; close it when done
     * @throws IllegalArgumentException when the name is invalid
     * @throws IllegalStateException    when the database belongs to another environment, has no environment row, or
     *                                  needs a schema migration
     * @throws StateStoreException      when the database cannot be opened or read
     */
    public static StateStore openReadOnly(Path stateDir, String environment, Clock clock) {
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(clock, "clock");
        validateEnvironmentName(environment);
        return openOn(H2Backend.readOnlyChecked(environmentDirectory(stateDir, environment)), environment, clock, true, false);
    }

    /**
     * Connects; for writing, migrates a schema that is not current and reads or creates the environment row; for
     * reading only, refuses a schema that needs a migration and reads the row.
     */
    private static StateStore openOn(Backend backend, String environment, Clock clock, boolean readOnly,
                                     boolean create) {
        Connection connection = backend.connect();
        try {
            // Our connection stays open while Flyway uses its own, so the database is not closed in between.
            boolean current = StateDatabase.schemaIsCurrent(connection);
            if (!current && readOnly) {
                throw new IllegalStateException("the state database " + backend.location() + " needs a schema migration, "
                        + "which a read-only state cannot get; open it once where it can be written");
            } else if (!current) {
                StateDatabase.migrate(backend);
            }
            byte[] salt = !create
                    ? StateDatabase.readEnvironment(connection, environment, backend.location(), backend.sharesEnvironments())
                    : StateDatabase.ensureEnvironment(connection, environment, clock, backend.location(),
                    backend.sharesEnvironments());
            return new StateStore(environment, clock, backend, connection, salt, readOnly);
        } catch (SQLException e) {
            StateDatabase.closeQuietly(connection);
            throw new StateStoreException("cannot " + (readOnly ? "read" : "initialise") + " the state database "
                    + backend.location() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            StateDatabase.closeQuietly(connection);
            throw e;
        }
    }

    /** @return true when this store was opened with {@link #openReadOnly} */
    public boolean isReadOnly() {
        return readOnly;
    }

    /**
     * Writes a consistent copy of the whole database into {@code zip} with H2's {@code BACKUP TO} (a zip holding
     * {@code flowform.mv.db}), while the database stays open. See {@link StateBackups}.
     *
     * @param zip the file to write; its folder must exist
     * @throws StateStoreException when H2 cannot write it
     */
    public void backupTo(Path zip) {
        inTransaction("backup", c -> {
            backend.backup(c, zip);
            return null;
        });
    }

    /**
     * Checks an environment name: 1 to {@link #MAX_ENVIRONMENT_NAME_LENGTH} characters from
     * {@link #ENVIRONMENT_NAME}, and not {@code .} or {@code ..} (the name becomes a folder name).
     *
     * @param environment the name to check
     * @throws IllegalArgumentException when it is null or not allowed, saying why
     */
    public static void validateEnvironmentName(String environment) {
        if (environment == null) {
            throw new IllegalArgumentException("environment name is missing");
        }
        if (environment.isEmpty()
                || environment.length() > MAX_ENVIRONMENT_NAME_LENGTH
                || !ENVIRONMENT_NAME.matcher(environment).matches()
                || environment.equals(".")
                || environment.equals("..")) {
            throw new IllegalArgumentException("invalid environment name \"" + environment
                    + "\": use 1 to " + MAX_ENVIRONMENT_NAME_LENGTH
                    + " letters, digits, '_', '.' or '-' (not \".\" or \"..\"), e.g. \"prod\" or \"eu-west.staging\"");
        }
    }

    /**
     * @param stateDir    folder holding one sub-folder per environment
     * @param environment a valid environment name
     * @return the file H2 keeps the environment's state in: {@code <stateDir>/<env>/flowform.mv.db}
     *         (absolute, normalised)
     * @throws IllegalArgumentException when the name is invalid
     */
    public static Path databaseFile(Path stateDir, String environment) {
        validateEnvironmentName(environment);
        return H2Backend.databaseFile(environmentDirectory(stateDir, environment));
    }

    /** The JDBC URL {@link #open} uses; package-private for tests that inspect the file directly. */
    static String jdbcUrl(Path stateDir, String environment) {
        return H2Backend.jdbcUrl(environmentDirectory(stateDir, environment));
    }

    private static Path environmentDirectory(Path stateDir, String environment) {
        return stateDir.toAbsolutePath().normalize().resolve(environment);
    }

    // ------------------------------------------------------------------------------------------
    // Environment, lineage and serial

    /** @return the environment name this store was opened for */
    public String environmentName() {
        return environment;
    }

    /**
     * Reads the environment row as it is now in the database (another process may have changed it).
     *
     * @return name, lineage, serial, Kubernetes server and namespace, creation time
     * @throws StateStoreException   when the database fails
     * @throws IllegalStateException when the store is closed
     */
    public EnvironmentRecord environment() {
        return inTransaction("environment()", this::selectEnvironment);
    }

    /**
     * @return the current lineage and serial, for saved plans and the "Saved plan is stale" check
     * @throws StateStoreException when the database fails
     */
    public StateRef stateRef() {
        return environment().stateRef();
    }

    /**
     * Records the Kubernetes API server and namespace this environment was applied to, so a later
     * run can refuse a different cluster (the {@code expected_server} guard). Serial +1.
     *
     * @param url       API server URL, e.g. {@code https://10.0.0.1:6443}; not blank
     * @param namespace namespace, or null when not known
     * @throws IllegalArgumentException when {@code url} is blank
     * @throws StateStoreException     when the database fails
     */
    public void setKubeServer(String url, String namespace) {
        Sql.requireText(url, "url");
        inTransaction("setKubeServer", c -> {
            Sql.update(c, "UPDATE environment SET kube_server = ?, kube_namespace = ? WHERE name = ?", url, namespace,
                    environment);
            return bumpSerial(c);
        });
    }

    // Components

    /** @return this environment's secret hashing and saved-plan encryption, from its salt */
    public SecretCipher cipher() {
        return cipher;
    }

    /** @return the runs and their step journal */
    public RunJournal journal() {
        return journal;
    }

    /** @return the resource snapshots: the last applied body of every managed object */
    public SnapshotTable snapshots() {
        return snapshots;
    }

    /** @return the root module's outputs, as the last successful apply recorded them */
    public OutputTable outputs() {
        return outputs;
    }

    /** @return the environment's state lock */
    public StateLockTable lockTable() {
        return locker;
    }

    /** @return the clock this store writes times with */
    public Clock clock() {
        return clock;
    }

    /**
     * Closes the database connection. H2 closes the file when its last connection goes; a lock
     * still held stays in the database (release it first). Calling it again does nothing.
     *
     * <p>Never throws: every call commits before it returns, so there is nothing left to lose
     * here, and a connection that is already broken (e.g. the process serving the file in H2
     * auto-server mode exited first) needs no closing.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        StateDatabase.closeQuietly(connection);
    }

    @Override
    public String toString() {
        return "StateStore[" + environment + " at " + backend.location() + "]";
    }

    // Transactions, for the components

    /** One unit of work on the store's connection. */
    interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} and commits, holding the store's monitor; rolls back on any failure. A connection lost before
     * the commit is replaced and {@code work} run again; lost during the commit, the outcome is unknown and a
     * {@link StateStoreException} is thrown rather than risk doing the change twice.
     */
    synchronized <T> T inTransaction(String what, SqlWork<T> work) {
        ensureOpen();
        for (int attempt = 0; ; attempt++) {
            boolean committing = false;
            try {
                T result = work.run(connection);
                committing = true;
                connection.commit();
                return result;
            } catch (SQLException e) {
                rollbackQuietly(e);
                if (attempt > 0 || !backend.reconnects() || !backend.isConnectionLost(e)) {
                    throw new StateStoreException(what + " failed on " + backend.location() + ": " + e.getMessage(), e);
                }
                reconnect(e);
                if (committing) {
                    throw new StateStoreException(what + " on " + backend.location() + ": the connection to the database"
                            + " was lost while committing, so the change may or may not have been saved; the store has"
                            + " reconnected. Re-read the state before going on.", e, true);
                }
            } catch (RuntimeException e) {
                rollbackQuietly(e);
                throw e;
            }
        }
    }

    /** Replaces a lost connection with a new one to the same database (retrying while it is busy). */
    private void reconnect(SQLException lost) {
        StateDatabase.closeQuietly(connection);
        try {
            connection = backend.opening(backend::connect);
        } catch (RuntimeException e) {
            e.addSuppressed(lost);
            closed = true;
            throw e;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the state store for \"" + environment + "\" is closed");
        }
    }

    private void rollbackQuietly(Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /** Adds 1 to the serial in the caller's transaction; the environment row lock orders concurrent writers. */
    long bumpSerial(Connection c) throws SQLException {
        if (Sql.update(c, "UPDATE environment SET serial = serial + 1 WHERE name = ?", environment) != 1) {
            throw new IllegalStateException("the environment row of " + backend.location() + " is missing");
        }
        return Sql.query(c, "SELECT serial FROM environment WHERE name = ?", rs -> rs.getLong(1), environment).get(0);
    }

    /** @return the environment row, read in the caller's transaction */
    EnvironmentRecord selectEnvironment(Connection c) throws SQLException {
        return Sql.query(c, "SELECT " + ENVIRONMENT_COLUMNS + " FROM environment WHERE name = ?",
                rs -> new EnvironmentRecord(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4),
                        rs.getString(5), Sql.instant(rs, 6)), environment).stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("the environment row of " + backend.location() + " is missing"));
    }

    /** @return the database this store lives in */
    Backend backend() {
        return backend;
    }

    /** @return where the database is, for messages */
    String location() {
        return backend.location();
    }

    /** @return the clock's time, truncated to what the database keeps */
    Instant now() {
        return Sql.now(clock);
    }
}
