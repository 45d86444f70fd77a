package dev.flowform.state;

import dev.flowform.apply.Sleeper;
import dev.flowform.plan.StateRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * One environment's state database: lineage and serial, run history with a step journal, resource
 * snapshots and the state lock (docs/architecture.md).
 *
 * <p><b>Storage.</b> {@link #open(Path, String, Clock)} uses an H2 file database at
 * {@code <stateDir>/<env>/flowform.mv.db}, one per environment, so environments never share a
 * lineage, serial or lock. The JDBC URL carries {@code AUTO_SERVER=TRUE}: the first process opens
 * the file and serves it over a local TCP port, later processes connect to it, and the lock below
 * works across processes. Processes that open the file at the same moment retry briefly while the
 * first one starts serving it; when the serving process exits, the others lose their connection,
 * and the store reconnects (becoming the server) and repeats the interrupted call if nothing of it
 * had been committed (H2's own {@code AUTO_RECONNECT} works only in auto-commit mode). The URL also
 * carries {@code WRITE_DELAY=0}: H2 otherwise writes commits to the file up to a second later, and
 * a {@code kill -9} in that window loses committed rows (measured with H2 2.5.252); with it, a row
 * is in the file when the call that wrote it returns. The schema comes
 * from the Flyway migrations under {@code db/migration}, applied on open; a database migrated by a
 * newer flowform is refused rather than written with an older understanding of it.
 *
 * <p><b>Lineage and serial</b> follow Terraform ({@code internal/states/statefile/file.go}): the
 * lineage is a UUID created exactly once, when the environment's database is first opened, and
 * never changed; the serial starts at 0 and every state-changing call adds 1 in the same
 * transaction as its change ({@link #startRun}, {@link #journalIntent}, {@link #journalDone},
 * {@link #journalFailed}, {@link #finishRun}, {@link #markInterrupted}, {@link #saveResource},
 * {@link #deleteResource} when something was deleted, {@link #setKubeServer}, {@link #replaceOutputs} when the
 * outputs changed). A saved plan records
 * {@link #stateRef()}; if the serial moved, the plan is stale. Taking, refreshing and releasing the
 * lock do not change the state and leave the serial alone, as in Terraform.
 *
 * <p><b>Durability.</b> Every state-changing call is its own committed transaction: when it returns
 * its row is on disk. An apply journals a step's intent ({@link #journalIntent}, status
 * {@code STARTED}) before acting and its outcome after, so a crash leaves a run still
 * {@code RUNNING} with at most one open step, which {@link #interruptedRun()} finds.
 *
 * <p><b>Locking</b> follows Terraform's {@code statemgr.Locker} and {@code LockWithContext}: one lock
 * row per environment, taken by an INSERT that the table's primary key lets only one racer win;
 * released by the holder's {@link #unlock} or by {@link #forceUnlock} with the lock's ID as nonce;
 * waited for with {@link #lockWithTimeout} (backoff 1 s doubling to 16 s). The row carries a
 * heartbeat; see {@link LockInfo#STALE_AFTER}.
 *
 * <p><b>Threads.</b> One JDBC connection per store; public methods are synchronized, so one store
 * may be shared by an apply thread and a heartbeat thread. Times come from the injected
 * {@link Clock}, truncated to microseconds (what the database keeps).
 *
 * <p><b>Errors.</b> Database failures throw {@link StateStoreException}; a held lock throws
 * {@link LockHeldException}; bad arguments throw {@link IllegalArgumentException}; calls that do not
 * fit the recorded state (finishing a finished run, using a closed store) throw
 * {@link IllegalStateException}.
 */
public final class StateStore implements AutoCloseable {

    /** Allowed environment names: letters, digits, {@code _ . -}; also not {@code .} or {@code ..}. */
    public static final Pattern ENVIRONMENT_NAME = Pattern.compile("[A-Za-z0-9_.-]+");

    /** Longest allowed environment name, in characters (the {@code environment.name} column). */
    public static final int MAX_ENVIRONMENT_NAME_LENGTH = 100;

    /** Base name of the database inside {@code <stateDir>/<env>/}; H2 appends {@code .mv.db}. */
    public static final String DATABASE_NAME = "flowform";

    /** First pause of {@link #lockWithTimeout}, as in Terraform's {@code LockWithContext}: 1 second. */
    public static final Duration LOCK_RETRY_FIRST_DELAY = Duration.ofSeconds(1);

    /** Longest pause of {@link #lockWithTimeout}; the pause doubles up to this: 16 seconds. */
    public static final Duration LOCK_RETRY_MAX_DELAY = Duration.ofSeconds(16);

    /** First pause when another process is opening the same database at the same moment: 50 ms. */
    public static final Duration OPEN_RETRY_FIRST_DELAY = Duration.ofMillis(50);

    /** Longest pause between open attempts: 1 second. */
    public static final Duration OPEN_RETRY_MAX_DELAY = Duration.ofSeconds(1);

    /** Total pausing after which a busy database is reported as an error: 15 seconds. */
    public static final Duration OPEN_RETRY_BUDGET = Duration.ofSeconds(15);

    private static final int LOCK_INSERT_ATTEMPTS = 5;
    private static final HexFormat HEX = HexFormat.of();

    private static final String RUN_COLUMNS =
            "id, kind, who, flowform_version, started_at, finished_at, outcome, summary";
    private static final String STEP_COLUMNS =
            "id, run_id, step_index, step_id, kind, address, intent_json, status, started_at, finished_at, detail, duration_ms";
    private static final String RESOURCE_COLUMNS =
            "address, kind, namespace, name, body_json, updated_serial, updated_at";
    private static final String LOCK_COLUMNS =
            "lock_id, environment, operation, who, version, created, heartbeat, info, holder_process";

    private final String environment;
    private final Clock clock;
    private final String location;
    private final DataSource reconnectTo;
    private final Sleeper sleeper;
    private final byte[] salt;
    private final boolean readOnly;
    private Connection connection;
    private boolean closed;

    private StateStore(String environment, Clock clock, String location, DataSource reconnectTo, Sleeper sleeper,
                       Connection connection, byte[] salt, boolean readOnly) {
        this.readOnly = readOnly;
        this.environment = environment;
        this.clock = clock;
        this.location = location;
        this.reconnectTo = reconnectTo;
        this.sleeper = sleeper;
        this.connection = connection;
        this.salt = salt;
    }

    // ------------------------------------------------------------------------------------------
    // Opening

    /**
     * Opens (creating on first use) the state database of {@code environment} under
     * {@code stateDir}, and migrates its schema.
     *
     * <p>On first open this creates {@code <stateDir>/<environment>/}, the database file, the
     * environment row with a new lineage, serial 0 and a new secret salt. Several processes may open
     * the same environment at once (H2 auto-server mode); exactly one of them creates the row.
     *
     * @param stateDir    folder holding one sub-folder per environment, e.g. {@code ./state}
     * @param environment environment name, matching {@link #ENVIRONMENT_NAME}
     * @param clock       source of every time written
     * @return the open store; close it when done
     * @throws IllegalArgumentException when the name is invalid or the path cannot be put in an H2 URL
     * @throws IllegalStateException    when the database belongs to another environment or was
     *                                  migrated by a newer flowform
     * @throws StateStoreException      when the folder or database cannot be created or opened
     */
    public static StateStore open(Path stateDir, String environment, Clock clock) {
        return open(stateDir, environment, clock, Sleeper.SYSTEM);
    }

    /**
     * Same as {@link #open(Path, String, Clock)}, pausing with {@code sleeper} while another
     * process is in the middle of opening the same database.
     *
     * <p>When several flowform processes open one environment at the same moment, H2's auto-server
     * handshake can fail for all but the first ("Lock file recently modified", "Database may be
     * already in use") until the first has started serving the file. Such failures are retried with
     * pauses from {@link #OPEN_RETRY_FIRST_DELAY} doubling to {@link #OPEN_RETRY_MAX_DELAY}, for at
     * most {@link #OPEN_RETRY_BUDGET} of pauses in total; other failures are not retried.
     *
     * @param stateDir    folder holding one sub-folder per environment, e.g. {@code ./state}
     * @param environment environment name, matching {@link #ENVIRONMENT_NAME}
     * @param clock       source of every time written
     * @param sleeper     how to pause between open attempts
     * @return the open store; close it when done
     * @throws IllegalArgumentException when the name is invalid or the path cannot be put in an H2 URL
     * @throws IllegalStateException    when the database belongs to another environment or was
     *                                  migrated by a newer flowform
     * @throws StateStoreException      when the folder or database cannot be created or opened, or
     *                                  the database stayed busy for {@link #OPEN_RETRY_BUDGET}
     */
    public static StateStore open(Path stateDir, String environment, Clock clock, Sleeper sleeper) {
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(sleeper, "sleeper");
        validateEnvironmentName(environment);
        Path dir = environmentDirectory(stateDir, environment);
        Path base = dir.resolve(DATABASE_NAME);
        if (base.toString().indexOf(';') >= 0) {
            throw new IllegalArgumentException("state directory " + dir + " contains ';', which an H2 database URL cannot hold");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StateStoreException("cannot create the state directory " + dir + ": " + e.getMessage(), e);
        }
        String url = jdbcUrl(stateDir, environment);
        Path file = databaseFile(stateDir, environment);
        String location = file.toString();
        // While a process has the file open (or is creating it) H2 keeps flowform.lock.db next to it and serves the
        // file itself; only a file at rest is checked, which is also when a damaged file would be opened by H2 here.
        if (Files.exists(file) && !Files.exists(dir.resolve(DATABASE_NAME + ".lock.db"))) {
            StateDatabase.checkFile(file);
        }
        return StateDatabase.retryWhileBusy(() -> connect(url, environment, clock, location, true, sleeper),
                sleeper, location);
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
        String name = "flowform-" + environment + "-" + UUID.randomUUID();
        return connect("jdbc:h2:mem:" + name, environment, clock, "in-memory database " + name, false, Sleeper.SYSTEM);
    }

    /**
     * Opens an existing state database for reading only, for a state whose files may not be written (a read-only
     * copy, a read-only mount, files without write permission): H2 opens the file with {@code ACCESS_MODE_DATA=r},
     * without the auto-server and without a lock file, so nothing under the folder is created or changed. The schema
     * is not migrated, so a database that needs a migration is refused; every write method then fails, and no state
     * lock can be taken (nor is one needed: nothing can change the files through this store).
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
        Path dir = environmentDirectory(stateDir, environment);
        String location = databaseFile(stateDir, environment).toString();
        if (!Files.isRegularFile(databaseFile(stateDir, environment))) {
            throw new StateStoreException("there is no state database at " + location, null);
        }
        StateDatabase.checkFile(databaseFile(stateDir, environment));
        DataSource dataSource = StateDatabase.dataSource(StateDatabase.readOnlyUrl(dir));
        Connection connection = StateDatabase.openConnection(dataSource, location);
        try {
            if (!StateDatabase.schemaIsCurrent(connection)) {
                throw new IllegalStateException("the state database " + location + " needs a schema migration, which a "
                        + "read-only state cannot get; open it once where it can be written");
            }
            byte[] salt = StateDatabase.readEnvironment(connection, environment, location);
            return new StateStore(environment, clock, location, null, Sleeper.SYSTEM, connection, salt, true);
        } catch (SQLException e) {
            StateDatabase.closeQuietly(connection);
            throw new StateStoreException("cannot read the state database " + location + ": " + e.getMessage(), e);
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
    public synchronized void backupTo(Path zip) {
        inTransaction("backup", c -> {
            try (PreparedStatement ps = c.prepareStatement("BACKUP TO ?")) {
                ps.setString(1, zip.toAbsolutePath().toString());
                ps.execute();
            }
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
        return environmentDirectory(stateDir, environment).resolve(DATABASE_NAME + ".mv.db");
    }

    /** The JDBC URL {@link #open} uses; package-private for tests that inspect the file directly. */
    static String jdbcUrl(Path stateDir, String environment) {
        return StateDatabase.jdbcUrl(environmentDirectory(stateDir, environment));
    }

    private static Path environmentDirectory(Path stateDir, String environment) {
        return stateDir.toAbsolutePath().normalize().resolve(environment);
    }

    private static StateStore connect(String url, String environment, Clock clock, String location, boolean file,
                                      Sleeper sleeper) {
        DataSource dataSource = StateDatabase.dataSource(url);
        Connection connection = StateDatabase.openConnection(dataSource, location);
        try {
            // Our connection stays open while Flyway uses its own, so the database is not closed in between.
            if (!StateDatabase.schemaIsCurrent(connection)) {

                StateDatabase.migrate(dataSource, location);
            }
            byte[] salt = StateDatabase.ensureEnvironment(connection, environment, clock, location);
            return new StateStore(environment, clock, location, file ? dataSource : null, sleeper, connection, salt, false);
        } catch (SQLException e) {
            StateDatabase.closeQuietly(connection);
            throw new StateStoreException("cannot initialise the state database " + location + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            StateDatabase.closeQuietly(connection);
            throw e;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Environment

    /**
     * @return the environment name this store was opened for
     */
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
    public synchronized EnvironmentRecord environment() {
        return inTransaction("environment()", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT name, lineage, serial, kube_server, kube_namespace, created_at FROM environment WHERE name = ?")) {
                ps.setString(1, environment);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("the environment row of " + location + " is missing");
                    }
                    return new EnvironmentRecord(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4),
                            rs.getString(5), instant(rs, 6));
                }
            }
        });
    }

    /**
     * @return the current lineage and serial, for saved plans and the "Saved plan is stale" check
     * @throws StateStoreException when the database fails
     */
    public synchronized StateRef stateRef() {
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
    public synchronized void setKubeServer(String url, String namespace) {
        requireText(url, "url");
        inTransaction("setKubeServer", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE environment SET kube_server = ?, kube_namespace = ? WHERE name = ?")) {
                ps.setString(1, url);
                ps.setString(2, namespace);
                ps.setString(3, environment);
                ps.executeUpdate();
            }
            return bumpSerial(c);
        });
    }

    /**
     * Hashes a secret value for storing in state: {@code "sha256:" + hex(SHA-256(salt || UTF-8(value)))}
     * where {@code salt} is this environment's 16 random bytes, created with the environment.
     *
     * <p>Deterministic within an environment, so a changed secret still shows up as drift; different
     * across environments, so equal hashes do not reveal that two environments share a password.
     *
     * @param value the secret in clear text
     * @return {@code sha256:} followed by 64 lower-case hex digits
     * @throws NullPointerException when {@code value} is null
     */
    public String hashSecret(String value) {
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

    /** Prefix of values {@link #encryptSecret} produces; the version names the scheme. */
    public static final String ENCRYPTED_PREFIX = "encrypted:v1:";

    /**
     * Encrypts a secret for a saved plan file, so {@code apply FILE} can use it without the file holding
     * it in clear: AES-256-GCM with a random 96-bit nonce, under a key derived from this environment's
     * secret salt as {@code HMAC-SHA256(salt, "flowform saved-plan key v1")}. Only a process that can open
     * this environment's state can decrypt it; a plan file of another environment does not decrypt here.
     *
     * @param value the secret in clear text
     * @return {@value #ENCRYPTED_PREFIX} followed by base64(nonce || ciphertext || tag)
     * @throws NullPointerException when {@code value} is null
     */
    public String encryptSecret(String value) {
        Objects.requireNonNull(value, "value");
        try {
            byte[] nonce = new byte[12];
            new java.security.SecureRandom().nextBytes(nonce);
            javax.crypto.Cipher cipher = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(javax.crypto.Cipher.ENCRYPT_MODE, planKey(), new javax.crypto.spec.GCMParameterSpec(128, nonce));
            byte[] ct = cipher.doFinal(value.getBytes(StandardCharsets.UTF_8));
            byte[] out = new byte[nonce.length + ct.length];
            System.arraycopy(nonce, 0, out, 0, nonce.length);
            System.arraycopy(ct, 0, out, nonce.length, ct.length);
            return ENCRYPTED_PREFIX + java.util.Base64.getEncoder().encodeToString(out);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    /**
     * Reverses {@link #encryptSecret}.
     *
     * @param stored a value {@link #encryptSecret} of this environment produced
     * @return the secret in clear text
     * @throws IllegalArgumentException when {@code stored} is not an encrypted value, or was encrypted for
     *                                  another environment (or tampered with)
     */
    public String decryptSecret(String stored) {
        Objects.requireNonNull(stored, "stored");
        if (!stored.startsWith(ENCRYPTED_PREFIX)) {
            throw new IllegalArgumentException("the plan holds a sensitive value that is not encrypted (a plan printed with "
                    + "--json or shown masks its secrets); only a plan saved with \"flowform plan --out FILE\" can be applied");
        }
        byte[] in;
        try {
            in = java.util.Base64.getDecoder().decode(stored.substring(ENCRYPTED_PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("an encrypted value of the plan is damaged", e);
        }
        if (in.length < 12 + 16) {
            throw new IllegalArgumentException("an encrypted value of the plan is damaged");
        }
        try {
            javax.crypto.Cipher cipher = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(javax.crypto.Cipher.DECRYPT_MODE, planKey(), new javax.crypto.spec.GCMParameterSpec(128, in, 0, 12));
            return new String(cipher.doFinal(in, 12, in.length - 12), StandardCharsets.UTF_8);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new IllegalArgumentException("an encrypted value of the plan was not encrypted for environment \""
                    + environment + "\" (or was changed)", e);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    private javax.crypto.SecretKey planKey() throws java.security.GeneralSecurityException {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(salt, "HmacSHA256"));
        byte[] key = mac.doFinal("flowform saved-plan key v1".getBytes(StandardCharsets.UTF_8));
        return new javax.crypto.spec.SecretKeySpec(key, "AES");
    }

    // ------------------------------------------------------------------------------------------
    // Runs and the step journal

    /**
     * Records the start of a run with outcome {@link RunOutcome#RUNNING}. Serial +1; committed
     * before returning.
     *
     * @param kind     what runs, e.g. {@code apply} or {@code refresh}; not blank
     * @param planJson the plan being applied, already free of secrets, or null
     * @param who      {@code user@host} (see {@link LockInfo#localWho()}); not blank
     * @param version  flowform version; not blank
     * @return the run id
     * @throws IllegalArgumentException when a required argument is blank
     * @throws StateStoreException     when the database fails
     */
    public synchronized long startRun(String kind, String planJson, String who, String version) {
        requireText(kind, "kind");
        requireText(who, "who");
        requireText(version, "version");
        return inTransaction("startRun", c -> {
            long id;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO run "
                            + "(kind, plan_json, who, flowform_version, started_at, outcome) VALUES (?, ?, ?, ?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, kind);
                ps.setString(2, planJson);
                ps.setString(3, who);
                ps.setString(4, version);
                ps.setObject(5, timestamp(now()));
                ps.setString(6, RunOutcome.RUNNING.name());
                ps.executeUpdate();
                id = generatedId(ps);
            }
            bumpSerial(c);
            return id;
        });
    }

    /**
     * Journals a step's intent before the step acts: a row with status {@link StepStatus#STARTED}.
     * Serial +1; committed before returning, so it survives the process being killed while the
     * step runs.
     *
     * @param runId      a run that is still {@link RunOutcome#RUNNING}
     * @param stepIndex  0-based position in the run's execution order
     * @param stepId     the plan's step id
     * @param kind       step kind, e.g. {@code SET_WORKER_EOS}; not blank
     * @param address    resource address acted on, or null
     * @param intentJson what the step is about to do, as JSON without secrets, or null
     * @return the journal row id, for {@link #journalDone} or {@link #journalFailed}
     * @throws IllegalArgumentException when the run does not exist or {@code kind} is blank
     * @throws IllegalStateException    when the run is already finished
     * @throws StateStoreException      when the database fails
     */
    public synchronized long journalIntent(long runId, int stepIndex, int stepId, String kind, String address,
                                           String intentJson) {
        requireText(kind, "kind");
        return inTransaction("journalIntent(run " + runId + ")", c -> {
            RunOutcome outcome = runOutcome(c, runId);
            if (outcome.isFinal()) {
                throw new IllegalStateException("run " + runId + " is already " + outcome + "; cannot journal step " + stepId);
            }
            long id;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO run_step "
                            + "(run_id, step_index, step_id, kind, address, intent_json, status, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    Statement.RETURN_GENERATED_KEYS)) {
                ps.setLong(1, runId);
                ps.setInt(2, stepIndex);
                ps.setInt(3, stepId);
                ps.setString(4, kind);
                ps.setString(5, address);
                ps.setString(6, intentJson);
                ps.setString(7, StepStatus.STARTED.name());
                ps.setObject(8, timestamp(now()));
                ps.executeUpdate();
                id = generatedId(ps);
            }
            bumpSerial(c);
            return id;
        });
    }

    /**
     * Marks a journaled step {@link StepStatus#DONE}, with its finish time and duration. Serial +1.
     *
     * @param stepRowId the id {@link #journalIntent} returned
     * @param detail    what was observed, or null
     * @throws IllegalArgumentException when there is no such journal row
     * @throws IllegalStateException    when the step is already DONE or FAILED
     * @throws StateStoreException      when the database fails
     */
    public synchronized void journalDone(long stepRowId, String detail) {
        finishStep(stepRowId, StepStatus.DONE, detail);
    }

    /**
     * Marks a journaled step {@link StepStatus#FAILED}, with its finish time and duration. Serial +1.
     *
     * @param stepRowId the id {@link #journalIntent} returned
     * @param detail    the error, or null
     * @throws IllegalArgumentException when there is no such journal row
     * @throws IllegalStateException    when the step is already DONE or FAILED
     * @throws StateStoreException      when the database fails
     */
    public synchronized void journalFailed(long stepRowId, String detail) {
        finishStep(stepRowId, StepStatus.FAILED, detail);
    }

    private void finishStep(long stepRowId, StepStatus status, String detail) {
        inTransaction("journal" + (status == StepStatus.DONE ? "Done" : "Failed") + "(" + stepRowId + ")", c -> {
            Instant started;
            StepStatus current;
            try (PreparedStatement ps = c.prepareStatement("SELECT status, started_at FROM run_step WHERE id = ?")) {
                ps.setLong(1, stepRowId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalArgumentException("no journal row " + stepRowId + " in " + location);
                    }
                    current = StepStatus.valueOf(rs.getString(1));
                    started = instant(rs, 2);
                }
            }
            if (current != StepStatus.STARTED) {
                throw new IllegalStateException("journal row " + stepRowId + " is already " + current + "; cannot mark it " + status);
            }
            Instant finished = now();
            long durationMs = Math.max(0, Duration.between(started, finished).toMillis());
            try (PreparedStatement ps = c.prepareStatement("UPDATE run_step "
                    + "SET status = ?, finished_at = ?, detail = ?, duration_ms = ? WHERE id = ? AND status = ?")) {
                ps.setString(1, status.name());
                ps.setObject(2, timestamp(finished));
                ps.setString(3, detail);
                ps.setLong(4, durationMs);
                ps.setLong(5, stepRowId);
                ps.setString(6, StepStatus.STARTED.name());
                if (ps.executeUpdate() != 1) {
                    throw new IllegalStateException("journal row " + stepRowId + " changed while being marked " + status);
                }
            }
            return bumpSerial(c);
        });
    }

    /**
     * Records how a run ended. Serial +1.
     *
     * <p>{@link RunOutcome#SUCCEEDED} is refused while one of the run's steps is still
     * {@link StepStatus#STARTED}: a run cannot have succeeded with a step whose outcome is unknown.
     *
     * @param runId   a run that is still {@link RunOutcome#RUNNING}
     * @param outcome SUCCEEDED, FAILED or INTERRUPTED
     * @param summary one paragraph for the history, or null
     * @throws IllegalArgumentException when the run does not exist or {@code outcome} is RUNNING
     * @throws IllegalStateException    when the run is already finished, or SUCCEEDED is given while
     *                                  a step is still STARTED
     * @throws StateStoreException      when the database fails
     */
    public synchronized void finishRun(long runId, RunOutcome outcome, String summary) {
        Objects.requireNonNull(outcome, "outcome");
        if (!outcome.isFinal()) {
            throw new IllegalArgumentException("finishRun needs a final outcome, not " + outcome);
        }
        inTransaction("finishRun(" + runId + ")", c -> {
            RunOutcome current = runOutcome(c, runId);
            if (current.isFinal()) {
                throw new IllegalStateException("run " + runId + " is already " + current + "; cannot finish it as " + outcome);
            }
            if (outcome == RunOutcome.SUCCEEDED) {
                List<StepRecord> open = selectSteps(c, "WHERE run_id = ? AND status = ? ORDER BY id",
                        runId, StepStatus.STARTED.name());
                if (!open.isEmpty()) {
                    StepRecord s = open.get(0);
                    throw new IllegalStateException("run " + runId + " cannot have SUCCEEDED: step " + s.stepId() + " ("
                            + s.kind() + ") is still STARTED; record its outcome first");
                }
            }
            setRunOutcome(c, runId, outcome, summary);
            return bumpSerial(c);
        });
    }

    /**
     * Marks a run that was left {@link RunOutcome#RUNNING} by a process that is gone as
     * {@link RunOutcome#INTERRUPTED}, with the time of marking as its finish time. Its open steps
     * stay {@link StepStatus#STARTED}: whether they reached the cluster is unknown, and the history
     * should say so. Marking an already interrupted run does nothing. Serial +1 when it changes.
     *
     * <p>Only call this for a run whose process is known to be gone, typically after taking the
     * lock (which proves no other flowform process is applying).
     *
     * @param runId the run
     * @throws IllegalArgumentException when the run does not exist
     * @throws IllegalStateException    when the run SUCCEEDED or FAILED
     * @throws StateStoreException      when the database fails
     */
    public synchronized void markInterrupted(long runId) {
        inTransaction("markInterrupted(" + runId + ")", c -> {
            RunOutcome current = runOutcome(c, runId);
            if (current == RunOutcome.INTERRUPTED) {
                return null;
            }
            if (current != RunOutcome.RUNNING) {
                throw new IllegalStateException("run " + runId + " " + current + "; only a RUNNING run can be marked INTERRUPTED");
            }
            setRunOutcome(c, runId, RunOutcome.INTERRUPTED,
                    "Interrupted: the process running it stopped before recording an outcome; found by a later run.");
            return bumpSerial(c);
        });
    }

    /**
     * Finds the newest run still {@link RunOutcome#RUNNING}, with its newest step still
     * {@link StepStatus#STARTED}.
     *
     * <p>The store cannot tell a running run from one whose process died: the caller decides,
     * typically by holding the lock first (then no other process can be running one). After
     * handling it, call {@link #markInterrupted(long)}.
     *
     * @return the run and its open step, or empty when no run is RUNNING
     * @throws StateStoreException when the database fails
     */
    public synchronized Optional<Interrupted> interruptedRun() {
        return inTransaction("interruptedRun()", c -> {
            List<RunRecord> running = selectRuns(c, "WHERE outcome = ? ORDER BY id DESC FETCH FIRST 1 ROWS ONLY",
                    RunOutcome.RUNNING.name());
            if (running.isEmpty()) {
                return Optional.empty();
            }
            RunRecord run = running.get(0);
            List<StepRecord> open = selectSteps(c, "WHERE run_id = ? AND status = ? ORDER BY id DESC FETCH FIRST 1 ROWS ONLY",
                    run.id(), StepStatus.STARTED.name());
            return Optional.of(new Interrupted(run, open.stream().findFirst()));
        });
    }

    /**
     * @return every run, newest first
     * @throws StateStoreException when the database fails
     */
    public synchronized List<RunRecord> runs() {
        return inTransaction("runs()", c -> selectRuns(c, "ORDER BY id DESC"));
    }

    /**
     * @param limit how many runs at most; at least 1
     * @return the newest {@code limit} runs, newest first
     * @throws IllegalArgumentException when {@code limit} is below 1
     * @throws StateStoreException     when the database fails
     */
    public synchronized List<RunRecord> runs(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        return inTransaction("runs(" + limit + ")", c -> selectRuns(c, "ORDER BY id DESC FETCH FIRST ? ROWS ONLY", limit));
    }

    /**
     * @param runId a run id
     * @return that run, or empty when there is none
     * @throws StateStoreException when the database fails
     */
    public synchronized Optional<RunRecord> run(long runId) {
        return inTransaction("run(" + runId + ")", c -> selectRuns(c, "WHERE id = ?", runId).stream().findFirst());
    }

    /**
     * @param runId a run id
     * @return the plan JSON recorded by {@link #startRun}; empty when the run does not exist or
     *         was started without a plan
     * @throws StateStoreException when the database fails
     */
    public synchronized Optional<String> planJson(long runId) {
        return inTransaction("planJson(" + runId + ")", c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT plan_json FROM run WHERE id = ?")) {
                ps.setLong(1, runId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.ofNullable(rs.getString(1)) : Optional.empty();
                }
            }
        });
    }

    /**
     * @param runId a run id
     * @return its journal rows in the order they were written (empty for an unknown run)
     * @throws StateStoreException when the database fails
     */
    public synchronized List<StepRecord> steps(long runId) {
        return inTransaction("steps(" + runId + ")", c -> selectSteps(c, "WHERE run_id = ? ORDER BY id", runId));
    }

    // ------------------------------------------------------------------------------------------
    // Resource snapshots

    /**
     * Saves (inserts or replaces) the snapshot of one resource. Serial +1; the saved row records the
     * new serial and the current time.
     *
     * @param snapshot the resource; its {@code updatedSerial} and {@code updatedAt} are ignored.
     *                 Secret values in {@code bodyJson} must already be hashed with {@link #hashSecret}.
     * @return the snapshot as saved, with {@code updatedSerial} and {@code updatedAt} filled in
     * @throws StateStoreException when the database fails
     */
    public synchronized ResourceSnapshot saveResource(ResourceSnapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        return inTransaction("saveResource(" + snapshot.address() + ")", c -> {
            long serial = bumpSerial(c);
            Instant now = now();
            int updated;
            try (PreparedStatement ps = c.prepareStatement("UPDATE resource_snapshot "
                    + "SET kind = ?, namespace = ?, name = ?, body_json = ?, updated_serial = ?, updated_at = ? WHERE address = ?")) {
                ps.setString(1, snapshot.kind());
                ps.setString(2, snapshot.namespace());
                ps.setString(3, snapshot.name());
                ps.setString(4, snapshot.bodyJson());
                ps.setLong(5, serial);
                ps.setObject(6, timestamp(now));
                ps.setString(7, snapshot.address());
                updated = ps.executeUpdate();
            }
            if (updated == 0) {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO resource_snapshot (" + RESOURCE_COLUMNS
                        + ") VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                    ps.setString(1, snapshot.address());
                    ps.setString(2, snapshot.kind());
                    ps.setString(3, snapshot.namespace());
                    ps.setString(4, snapshot.name());
                    ps.setString(5, snapshot.bodyJson());
                    ps.setLong(6, serial);
                    ps.setObject(7, timestamp(now));
                    ps.executeUpdate();
                }
            }
            return new ResourceSnapshot(snapshot.address(), snapshot.kind(), snapshot.namespace(), snapshot.name(),
                    snapshot.bodyJson(), serial, now);
        });
    }

    /**
     * Removes the snapshot of one resource. Serial +1 when a snapshot was removed; nothing changes
     * (and the serial stays) when there was none.
     *
     * @param address resource address
     * @return true when a snapshot was removed
     * @throws StateStoreException when the database fails
     */
    public synchronized boolean deleteResource(String address) {
        Objects.requireNonNull(address, "address");
        return inTransaction("deleteResource(" + address + ")", c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM resource_snapshot WHERE address = ?")) {
                ps.setString(1, address);
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            bumpSerial(c);
            return true;
        });
    }

    /**
     * @return every resource snapshot, by address
     * @throws StateStoreException when the database fails
     */
    public synchronized List<ResourceSnapshot> resources() {
        return inTransaction("resources()", c -> selectResources(c, "ORDER BY address"));
    }

    /**
     * @param address resource address
     * @return its snapshot, or empty when none is saved
     * @throws StateStoreException when the database fails
     */
    public synchronized Optional<ResourceSnapshot> resource(String address) {
        Objects.requireNonNull(address, "address");
        return inTransaction("resource(" + address + ")",
                c -> selectResources(c, "WHERE address = ?", address).stream().findFirst());
    }

    // ------------------------------------------------------------------------------------------
    // Outputs (configuration language): written by apply after a successful run, read by "flowform output"

    /**
     * Replaces the stored outputs with {@code outputs}, as Terraform replaces a state's outputs on
     * apply: outputs no longer declared disappear. A sensitive output's value is not stored: only
     * {@link #hashSecret} of its JSON text. Serial +1 when anything changed; when the stored outputs
     * already equal {@code outputs}, nothing is written and the serial stays (so an apply with no
     * changes does not make saved plans stale).
     *
     * @param outputs the outputs, made with {@link OutputRecord#of}; names must be unique
     * @return true when the stored outputs changed
     * @throws IllegalArgumentException when two outputs share a name
     * @throws StateStoreException      when the database fails
     */
    public synchronized boolean replaceOutputs(List<OutputRecord> outputs) {
        Objects.requireNonNull(outputs, "outputs");
        java.util.TreeMap<String, OutputRecord> wanted = new java.util.TreeMap<>();
        for (OutputRecord o : outputs) {
            Objects.requireNonNull(o, "output");
            OutputRecord stored = o.sensitive()
                    ? new OutputRecord(o.name(), null, o.valueHash() != null ? o.valueHash()
                            : hashSecret(Objects.requireNonNull(o.valueJson(), "valueJson")), o.valueType(), true,
                            o.description(), 0, null)
                    : new OutputRecord(o.name(), Objects.requireNonNull(o.valueJson(), "valueJson"), null, o.valueType(), false,
                            o.description(), 0, null);
            if (wanted.put(o.name(), stored) != null) {
                throw new IllegalArgumentException("output \"" + o.name() + "\" is given twice");
            }
        }
        return inTransaction("replaceOutputs", c -> {
            List<OutputRecord> current = selectOutputs(c);
            if (sameOutputs(current, List.copyOf(wanted.values()))) {
                return false;
            }
            long serial = bumpSerial(c);
            Instant now = now();
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM output_value")) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO output_value (" + OUTPUT_COLUMNS
                    + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (OutputRecord o : wanted.values()) {
                    ps.setString(1, o.name());
                    ps.setString(2, o.valueJson());
                    ps.setString(3, o.valueHash());
                    ps.setString(4, o.valueType());
                    ps.setBoolean(5, o.sensitive());
                    ps.setString(6, o.description());
                    ps.setLong(7, serial);
                    ps.setObject(8, timestamp(now));
                    ps.executeUpdate();
                }
            }
            return true;
        });
    }

    /**
     * @return the stored outputs, by name; sensitive ones carry a hash instead of their value
     * @throws StateStoreException when the database fails
     */
    public synchronized List<OutputRecord> outputs() {
        return inTransaction("outputs()", StateStore::selectOutputs);
    }

    private static final String OUTPUT_COLUMNS =
            "name, value_json, value_hash, value_type, sensitive, description, updated_serial, updated_at";

    private static List<OutputRecord> selectOutputs(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + OUTPUT_COLUMNS + " FROM output_value ORDER BY name");
             ResultSet rs = ps.executeQuery()) {
            List<OutputRecord> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new OutputRecord(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getBoolean(5),
                        rs.getString(6), rs.getLong(7), instant(rs, 8)));
            }
            return out;
        }
    }

    private static boolean sameOutputs(List<OutputRecord> a, List<OutputRecord> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            OutputRecord x = a.get(i);
            OutputRecord y = b.get(i);
            if (!x.name().equals(y.name()) || !Objects.equals(x.valueJson(), y.valueJson())
                    || !Objects.equals(x.valueHash(), y.valueHash()) || !x.valueType().equals(y.valueType())
                    || x.sensitive() != y.sensitive() || !Objects.equals(x.description(), y.description())) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------------------------------
    // Locking

    /**
     * Takes the environment's state lock, or fails at once if it is held (Terraform's
     * {@code Locker.Lock}). Same as {@link #lock(String, String, String, String)} without info.
     *
     * @param operation what the caller will do, e.g. {@code apply}; not blank
     * @param who       {@code user@host}; not blank
     * @param version   flowform version; not blank
     * @return the lock taken; keep its {@link LockInfo#id()} to heartbeat and unlock
     * @throws LockHeldException        when another holder has the lock
     * @throws IllegalArgumentException when an argument is blank
     * @throws StateStoreException      when the database fails
     */
    public LockInfo lock(String operation, String who, String version) {
        return lock(operation, who, version, null);
    }

    /**
     * Takes the environment's state lock, or fails at once if it is held (Terraform's
     * {@code Locker.Lock}).
     *
     * <p>The lock is a row keyed by environment name: the INSERT either succeeds or hits the primary
     * key, so of several processes racing exactly one wins. The losers read the winner's row and
     * throw it in a {@link LockHeldException}. A stale lock is never taken over; see
     * {@link LockInfo#isProbablyStale}.
     *
     * @param operation what the caller will do, e.g. {@code apply}; not blank
     * @param who       {@code user@host}; not blank
     * @param version   flowform version; not blank
     * @param info      free text shown to others who find the lock held (e.g. the plan file), or null
     * @return the lock taken, with a new random id, created = heartbeat = now
     * @throws LockHeldException        when another holder has the lock
     * @throws IllegalArgumentException when an argument is blank
     * @throws StateStoreException      when the database fails
     */
    public synchronized LockInfo lock(String operation, String who, String version, String info) {
        requireText(operation, "operation");
        requireText(who, "who");
        requireText(version, "version");
        for (int attempt = 0; attempt < LOCK_INSERT_ATTEMPTS; attempt++) {
            Instant now = now();
            LockInfo mine = new LockInfo(UUID.randomUUID().toString(), environment, operation, who, version, now, now, info,
                    ProcessIdentity.current().encode());
            // the lock row after our INSERT: ours, the winner's, or null when it vanished in between
            LockInfo current = inTransaction("lock(" + operation + ")", c -> {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO state_lock (" + LOCK_COLUMNS
                        + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                    ps.setString(1, mine.id());
                    ps.setString(2, environment);
                    ps.setString(3, operation);
                    ps.setString(4, who);
                    ps.setString(5, version);
                    ps.setObject(6, timestamp(now));
                    ps.setObject(7, timestamp(now));
                    ps.setString(8, info);
                    ps.setString(9, mine.process());
                    ps.executeUpdate();
                    return mine;
                } catch (SQLException e) {
                    if (!isContention(e)) {
                        throw e;
                    }
                    c.rollback();
                    return selectLock(c).orElse(null);
                }
            });
            if (current == null) {
                continue; // the holder released it between our INSERT and our read: try again
            }
            if (current.id().equals(mine.id())) {
                return mine;
            }
            throw new LockHeldException(current, current.age(clock), current.sinceHeartbeat(clock), Duration.ZERO);
        }
        throw new StateStoreException("lock(" + operation + ") on " + location + ": the lock was taken and released by"
                + " others " + LOCK_INSERT_ATTEMPTS + " times while trying; try again", null);
    }

    /**
     * Takes the lock, retrying while it is held until {@code timeout} has passed: Terraform's
     * {@code LockWithContext} ({@code internal/states/statemgr/locker.go}). The pause between
     * attempts starts at {@link #LOCK_RETRY_FIRST_DELAY} and doubles up to
     * {@link #LOCK_RETRY_MAX_DELAY} (1, 2, 4, 8, 16, 16, ... seconds); the last pause is cut short
     * so a final attempt happens when the timeout ends. A zero timeout makes a single attempt.
     *
     * <p>Time waited is the larger of the clock's elapsed time and the total of requested pauses, so
     * the loop ends even with a fixed clock and a sleeper that does not sleep.
     *
     * @param operation what the caller will do, e.g. {@code apply}; not blank
     * @param who       {@code user@host}; not blank
     * @param version   flowform version; not blank
     * @param info      free text shown to others who find the lock held, or null
     * @param timeout   how long to keep trying; zero or positive (Terraform's {@code -lock-timeout})
     * @param sleeper   how to pause between attempts
     * @return the lock taken
     * @throws LockHeldException        when the lock is still held after {@code timeout}; its
     *                                  {@link LockHeldException#waited()} says how long was waited
     * @throws InterruptedException     when the sleeper is interrupted
     * @throws IllegalArgumentException when an argument is blank or {@code timeout} is negative
     * @throws StateStoreException      when the database fails
     */
    public LockInfo lockWithTimeout(String operation, String who, String version, String info, Duration timeout,
                                    Sleeper sleeper) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(sleeper, "sleeper");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("lock timeout must not be negative, got " + timeout);
        }
        Instant start = clock.instant();
        Duration slept = Duration.ZERO;
        Duration delay = LOCK_RETRY_FIRST_DELAY;
        while (true) {
            try {
                return lock(operation, who, version, info);
            } catch (LockHeldException held) {
                Duration elapsed = Duration.between(start, clock.instant());
                Duration waited = elapsed.compareTo(slept) > 0 ? elapsed : slept;
                Duration remaining = timeout.minus(waited);
                if (remaining.isNegative() || remaining.isZero()) {
                    throw waited.isZero() ? held : held.afterWaiting(waited);
                }
                Duration pause = delay.compareTo(remaining) < 0 ? delay : remaining;
                sleeper.sleep(pause);
                slept = slept.plus(pause);
                if (delay.compareTo(LOCK_RETRY_MAX_DELAY) < 0) {
                    Duration doubled = delay.multipliedBy(2);
                    delay = doubled.compareTo(LOCK_RETRY_MAX_DELAY) < 0 ? doubled : LOCK_RETRY_MAX_DELAY;
                }
            }
        }
    }

    /**
     * Shows the holder is alive: sets the lock's heartbeat to now. Call every
     * {@link LockInfo#HEARTBEAT_INTERVAL} while holding the lock. Does not change the serial.
     *
     * @param lockId the id {@link #lock} returned
     * @throws IllegalStateException when this environment is no longer locked with that id (it was
     *                               released or force-unlocked): the caller must stop writing
     * @throws StateStoreException   when the database fails
     */
    public synchronized void heartbeat(String lockId) {
        Objects.requireNonNull(lockId, "lockId");
        inTransaction("heartbeat", c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE state_lock SET heartbeat = ? WHERE environment = ? AND lock_id = ?")) {
                ps.setObject(1, timestamp(now()));
                ps.setString(2, environment);
                ps.setString(3, lockId);
                if (ps.executeUpdate() == 0) {
                    throw new IllegalStateException("the state lock " + lockId + " on environment \"" + environment
                            + "\" is no longer held (released or force-unlocked); stop writing to this state");
                }
            }
            return null;
        });
    }

    /**
     * Releases the lock if it is held with {@code lockId} (Terraform's {@code Locker.Unlock}); does
     * nothing when the lock is free or held under another id. Does not change the serial.
     *
     * @param lockId the id {@link #lock} returned
     * @return true when the lock was released, false when it was not held with that id
     * @throws StateStoreException when the database fails
     */
    public synchronized boolean unlock(String lockId) {
        Objects.requireNonNull(lockId, "lockId");
        return inTransaction("unlock", c -> deleteLock(c, lockId));
    }

    /**
     * Releases a lock left by another process, for the {@code force-unlock LOCK_ID} command. As in
     * Terraform, the id acts as a nonce: it must match the current lock, so a user cannot release a
     * lock they have not looked at. Does not change the serial.
     *
     * @param lockId the id of the lock to release, as printed by {@link LockHeldException}
     * @return true when that lock was released; false when the environment is not locked
     * @throws IllegalArgumentException when the environment is locked under a different id (nothing
     *                                  is released)
     * @throws StateStoreException      when the database fails
     */
    public synchronized boolean forceUnlock(String lockId) {
        Objects.requireNonNull(lockId, "lockId");
        return inTransaction("forceUnlock", c -> {
            Optional<LockInfo> current = selectLock(c);
            if (current.isEmpty()) {
                return false;
            }
            LockInfo h = current.get();
            if (!h.id().equals(lockId)) {
                throw new IllegalArgumentException("lock ID \"" + lockId + "\" does not match the lock on environment \""
                        + environment + "\" (" + h.operation() + " by " + h.who() + " since " + h.created()
                        + "); nothing was unlocked. Use the ID printed in the lock error.");
            }
            return deleteLock(c, lockId);
        });
    }

    /**
     * @return the lock as it is now in the database, or empty when the environment is not locked
     * @throws StateStoreException when the database fails
     */
    public synchronized Optional<LockInfo> currentLock() {
        return inTransaction("currentLock()", this::selectLock);
    }

    /**
     * @return the clock this store writes times with
     */
    public Clock clock() {
        return clock;
    }

    /**
     * Closes the database connection. H2 closes the file when its last connection goes; a lock
     * still held stays in the database (release it first with {@link #unlock}). Calling it again
     * does nothing.
     *
     * <p>Never throws: every call above commits before it returns, so there is nothing left to lose
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
        return "StateStore[" + environment + " at " + location + "]";
    }

    // ------------------------------------------------------------------------------------------
    // Internals

    @FunctionalInterface
    interface SqlWork<T> {
        T run(Connection c) throws SQLException;
    }

    /**
     * Runs {@code work} and commits; rolls back on any failure. Callers hold the monitor.
     *
     * <p>When the connection is lost (in H2 auto-server mode: the process serving the file exited
     * or was killed), the store reconnects, which makes this process open or serve the file. If
     * the loss happened before the commit was sent, nothing of {@code work} was saved and it runs
     * once more on the new connection. If it happened during the commit, the outcome is unknown;
     * that is reported as a {@link StateStoreException} rather than risking doing the change twice.
     */
    <T> T inTransaction(String what, SqlWork<T> work) {
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
                if (attempt > 0 || reconnectTo == null || !StateDatabase.isConnectionLost(e)) {
                    throw failure(what, e);
                }
                reconnect(e);
                if (committing) {
                    throw new StateStoreException(what + " on " + location + ": the connection to the database was lost"
                            + " while committing, so the change may or may not have been saved; the store has reconnected."
                            + " Re-read the state before going on.", e);
                }
            } catch (RuntimeException e) {
                rollbackQuietly(e);
                throw e;
            }
        }
    }

    /** Replaces a lost connection with a new one to the same file (retrying while it is busy). */
    private void reconnect(SQLException lost) {
        StateDatabase.closeQuietly(connection);
        try {
            connection = StateDatabase.retryWhileBusy(
                    () -> StateDatabase.openConnection(reconnectTo, location), sleeper, location);
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

    private StateStoreException failure(String what, SQLException e) {
        return new StateStoreException(what + " failed on " + location + ": " + (e == null ? "unknown error" : e.getMessage()), e);
    }

    private void rollbackQuietly(Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /** Adds 1 to the serial in the caller's transaction; the environment row lock orders concurrent writers. */
    private long bumpSerial(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE environment SET serial = serial + 1 WHERE name = ?")) {
            ps.setString(1, environment);
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException("the environment row of " + location + " is missing");
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT serial FROM environment WHERE name = ?")) {
            ps.setString(1, environment);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private RunOutcome runOutcome(Connection c, long runId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT outcome FROM run WHERE id = ?")) {
            ps.setLong(1, runId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("no run " + runId + " in " + location);
                }
                return RunOutcome.valueOf(rs.getString(1));
            }
        }
    }

    private void setRunOutcome(Connection c, long runId, RunOutcome outcome, String summary) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE run SET outcome = ?, finished_at = ?, summary = ? WHERE id = ? AND outcome = ?")) {
            ps.setString(1, outcome.name());
            ps.setObject(2, timestamp(now()));
            ps.setString(3, summary);
            ps.setLong(4, runId);
            ps.setString(5, RunOutcome.RUNNING.name());
            if (ps.executeUpdate() != 1) {
                throw new IllegalStateException("run " + runId + " changed while being marked " + outcome);
            }
        }
    }

    private boolean deleteLock(Connection c, String lockId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM state_lock WHERE environment = ? AND lock_id = ?")) {
            ps.setString(1, environment);
            ps.setString(2, lockId);
            return ps.executeUpdate() == 1;
        }
    }

    private Optional<LockInfo> selectLock(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + LOCK_COLUMNS + " FROM state_lock WHERE environment = ?")) {
            ps.setString(1, environment);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new LockInfo(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), instant(rs, 6), instant(rs, 7), rs.getString(8), rs.getString(9)));
            }
        }
    }

    private static List<RunRecord> selectRuns(Connection c, String where, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + RUN_COLUMNS + " FROM run " + where)) {
            bind(ps, params);
            List<RunRecord> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new RunRecord(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            instant(rs, 5), instant(rs, 6), RunOutcome.valueOf(rs.getString(7)), rs.getString(8)));
                }
            }
            return out;
        }
    }

    private static List<StepRecord> selectSteps(Connection c, String where, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + STEP_COLUMNS + " FROM run_step " + where)) {
            bind(ps, params);
            List<StepRecord> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long duration = rs.getLong(12);
                    Long durationMs = rs.wasNull() ? null : duration;
                    out.add(new StepRecord(rs.getLong(1), rs.getLong(2), rs.getInt(3), rs.getInt(4), rs.getString(5),
                            rs.getString(6), rs.getString(7), StepStatus.valueOf(rs.getString(8)), instant(rs, 9),
                            instant(rs, 10), rs.getString(11), durationMs));
                }
            }
            return out;
        }
    }

    private static List<ResourceSnapshot> selectResources(Connection c, String where, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + RESOURCE_COLUMNS + " FROM resource_snapshot " + where)) {
            bind(ps, params);
            List<ResourceSnapshot> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new ResourceSnapshot(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getString(5), rs.getLong(6), instant(rs, 7)));
                }
            }
            return out;
        }
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            Object p = params[i];
            if (p instanceof Long l) {
                ps.setLong(i + 1, l);
            } else if (p instanceof Integer n) {
                ps.setInt(i + 1, n);
            } else {
                ps.setString(i + 1, (String) p);
            }
        }
    }

    private static long generatedId(PreparedStatement ps) throws SQLException {
        try (ResultSet keys = ps.getGeneratedKeys()) {
            if (!keys.next()) {
                throw new SQLException("the database returned no generated id");
            }
            return keys.getLong(1);
        }
    }

    /**
     * True for errors that mean "someone else got there first": unique violation (23505, H2 and
     * PostgreSQL), H2 concurrent update (90131) or lock timeout (HYT00), serialization failure (40001).
     */
    static boolean isContention(SQLException e) {
        String state = e.getSQLState();
        return "23505".equals(state) || "90131".equals(state) || "HYT00".equals(state) || "40001".equals(state);
    }

    private Instant now() {
        return now(clock);
    }

    private static Instant now(Clock clock) {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static OffsetDateTime timestamp(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    private static void requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
