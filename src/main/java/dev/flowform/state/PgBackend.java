package dev.flowform.state;

import dev.flowform.locking.Sleeper;
import dev.flowform.state.pg.PgAdvisoryLock;
import dev.flowform.state.pg.PgConnection;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL backend of {@link StateStore}, after Terraform's {@code pg} backend: every environment in one schema,
 * each row keyed by its environment; connections from {@link PgConnection} with the schema as search path; the lock row
 * guarded by a session advisory lock ({@link PgAdvisoryLock}). Connection-loss SQL states (class {@code 08},
 * {@code 57P01}-{@code 57P03}) reconnect within {@link #RECONNECT_BUDGET}; there are no backups (use {@code pg_dump}).
 * No message holds a password (docs/state-backends.md, "PostgreSQL restarts mid-apply").
 */
final class PgBackend implements Backend {

    /** First pause while the server cannot be reached: 100 ms, doubling. */
    static final Duration RECONNECT_FIRST_DELAY = Duration.ofMillis(100);

    /** Longest pause between connection attempts: 1 second. */
    static final Duration RECONNECT_MAX_DELAY = Duration.ofSeconds(1);

    /** Total pausing after which an unreachable server is reported: 5 seconds. */
    static final Duration RECONNECT_BUDGET = Duration.ofSeconds(5);

    private final PgConnection settings;
    private final String schema;
    private final PGSimpleDataSource dataSource;
    private final Sleeper sleeper;

    PgBackend(PgConnection settings, String schema, Sleeper sleeper) {
        this.settings = settings;
        this.schema = schema;
        this.sleeper = sleeper;
        this.dataSource = new PGSimpleDataSource();
        dataSource.setURL(settings.jdbcUrl());
        try {
            for (Map.Entry<Object, Object> p : settings.properties().entrySet()) {
                dataSource.setProperty(String.valueOf(p.getKey()), String.valueOf(p.getValue()));
            }
            dataSource.setProperty("currentSchema", schema);
        } catch (SQLException e) {
            throw new StateStoreException("invalid PostgreSQL connection settings for " + settings.display(), null);
        }
    }

    /** @return the schema holding the state tables */
    String schema() {
        return schema;
    }

    @Override
    public String location() {
        return settings.display() + " (schema " + schema + ")";
    }

    @Override
    public Sleeper sleeper() {
        return sleeper;
    }

    @Override
    public DataSource dataSource() {
        return dataSource;
    }

    @Override
    public Connection connect() {
        return StateDatabase.openConnection(dataSource, location());
    }

    /** Retries an open while the server is unreachable or starting up, for at most {@link #RECONNECT_BUDGET}. */
    @Override
    public <T> T opening(Supplier<T> attempt) {
        return Backend.retrying(attempt, e -> e.getCause() instanceof SQLException sql && isConnectionLost(sql),
                RECONNECT_FIRST_DELAY, RECONNECT_MAX_DELAY, RECONNECT_BUDGET, sleeper, location());
    }

    @Override
    public boolean reconnects() {
        return true;
    }

    @Override
    public boolean sharesEnvironments() {
        return true;
    }

    /** Connection exception (class 08) or the server shutting down, crashed or starting up (57P01-57P03). */
    @Override
    public boolean isConnectionLost(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                String state = sql.getSQLState();
                if (state.startsWith("08") || state.equals("57P01") || state.equals("57P02") || state.equals("57P03")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** @throws UnsupportedOperationException always: back a PostgreSQL database up with its own tools */
    @Override
    public void backup(Connection c, Path zip) {
        throw new UnsupportedOperationException("backups are taken of H2 state files only; back up the PostgreSQL "
                + "database with its own tools (pg_dump), or save an environment with \"flowform state pull\"");
    }

    /** Creates and migrates the schema {@code schema_name}; its Flyway history serves every environment in it. */
    @Override
    public FluentConfiguration flyway(FluentConfiguration flyway) {
        return flyway.schemas(schema).defaultSchema(schema).createSchemas(true);
    }

    @Override
    public boolean locksSessions() {
        return true;
    }

    @Override
    public Optional<SessionLock> trySessionLock(String environment) throws SQLException {
        Connection dedicated;
        try {
            dedicated = dataSource.getConnection();
        } catch (SQLException e) {
            throw new SQLException("cannot open the lock connection to " + location() + ": " + e.getMessage(),
                    e.getSQLState(), e);
        }
        return PgAdvisoryLock.tryAcquire(dedicated, PgAdvisoryLock.key(schema, environment)).map(Advisory::new);
    }

    @Override
    public OptionalInt sessionLockHolder(Connection c, String environment) throws SQLException {
        return PgAdvisoryLock.holder(c, PgAdvisoryLock.key(schema, environment));
    }

    /** {@code pg_terminate_backend}: needs the holder's role or membership in {@code pg_signal_backend}. */
    @Override
    public boolean terminateSession(Connection c, int session) throws SQLException {
        return Sql.query(c, "SELECT pg_terminate_backend(?)", rs -> rs.getBoolean(1), session).stream().findFirst()
                .orElse(false);
    }

    /** The advisory lock as a {@link SessionLock}. */
    private record Advisory(PgAdvisoryLock lock) implements SessionLock {
        @Override
        public int session() {
            return lock.backendPid();
        }

        @Override
        public boolean stillHeld() {
            return lock.stillHeld();
        }

        @Override
        public void close() {
            lock.close();
        }
    }
}
