package dev.flowform.state;

import dev.flowform.locking.Sleeper;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * What differs between the databases a {@link StateStore} can live in: where the database is, how a connection is
 * opened (and opened again after it was lost), which errors mean the connection is gone, and how a copy is taken.
 * Everything else is shared: the Flyway migrations, every query of {@link RunJournal}, {@link SnapshotTable},
 * {@link OutputTable} and {@link StateLockTable}, lineage and serial. {@link H2Backend} is the file (and in-memory)
 * database; {@link PgBackend} is a schema of a PostgreSQL database holding every environment, whose lock row is
 * guarded by a session lock (docs/state-backends.md, "Locking").
 */
interface Backend {

    /** @return where the database is, for messages: a file path or a URL without credentials */
    String location();

    /**
     * @return true when one database holds the state of many environments (a PostgreSQL schema), every row keyed by
     *         its environment; false when the database belongs to exactly one (an H2 file)
     */
    default boolean sharesEnvironments() {
        return false;
    }

    /** @return how this backend pauses (between attempts at opening, and while a lock's row is being written) */
    Sleeper sleeper();

    /** @return the data source Flyway migrates through; its connections are separate from the store's */
    DataSource dataSource();

    /**
     * Opens a new connection with auto-commit off: every store call commits once.
     *
     * @return the connection
     * @throws StateStoreException when it cannot be opened
     */
    Connection connect();

    /**
     * Runs an attempt at opening the database, retrying it while the backend reports a passing condition (for H2,
     * another process that is opening the same file at this moment). The default makes one attempt.
     *
     * @param attempt opens and returns something; throws {@link StateStoreException} on failure
     * @param <T>     what it opens
     * @return what the successful attempt returned
     */
    default <T> T opening(Supplier<T> attempt) {
        return attempt.get();
    }

    /**
     * Runs {@code attempt}, retrying while its failure is {@code passing}: pauses from {@code first} doubling to
     * {@code max}, for at most {@code budget} of pauses in total; other failures are not retried.
     *
     * @param location the database, for the message when interrupted
     * @throws StateStoreException the last failure, or when interrupted while pausing
     */
    static <T> T retrying(Supplier<T> attempt, Predicate<StateStoreException> passing, Duration first, Duration max,
                          Duration budget, Sleeper sleeper, String location) {
        Duration delay = first;
        Duration slept = Duration.ZERO;
        while (true) {
            try {
                return attempt.get();
            } catch (StateStoreException e) {
                if (!passing.test(e) || slept.compareTo(budget) >= 0) {
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
                delay = doubled.compareTo(max) < 0 ? doubled : max;
            }
        }
    }

    /**
     * @return true when a lost connection can be replaced by {@link #connect()} to reach the same data (a file or
     *         server database); false when the data died with the connection (in memory) or may not be written
     */
    boolean reconnects();

    /**
     * @param e a failure of a statement or commit
     * @return true when the connection itself is gone (rather than the statement failing)
     */
    boolean isConnectionLost(SQLException e);

    /**
     * Writes a consistent copy of the whole database into {@code zip} while it stays open.
     *
     * @param c   the store's connection, in a transaction
     * @param zip the file to write; its folder exists
     * @throws SQLException                  when the database cannot write it
     * @throws UnsupportedOperationException when this backend takes its copies by other means
     */
    void backup(Connection c, Path zip) throws SQLException;

    /**
     * Adds what this database needs to Flyway's settings (PostgreSQL: the schema to create and migrate).
     *
     * @param flyway the shared settings (data source, locations)
     * @return the settings to load
     */
    default FluentConfiguration flyway(FluentConfiguration flyway) {
        return flyway;
    }

    /** @return true when the lock row is guarded by a database session lock ({@link #trySessionLock}) */
    default boolean locksSessions() {
        return false;
    }

    /**
     * Tries once, without waiting, to take the environment's session lock on a connection of its own.
     *
     * @param environment the environment
     * @return the lock, or empty when another session holds it
     * @throws SQLException                  when the database fails
     * @throws UnsupportedOperationException when {@link #locksSessions()} is false
     */
    default Optional<SessionLock> trySessionLock(String environment) throws SQLException {
        throw new UnsupportedOperationException("no session locks on " + location());
    }

    /**
     * @param c           a connection of the store
     * @param environment the environment
     * @return the session that holds the environment's session lock, or empty when none does
     * @throws SQLException when the database fails
     */
    default OptionalInt sessionLockHolder(Connection c, String environment) throws SQLException {
        return OptionalInt.empty();
    }

    /**
     * Ends another session, which releases every session lock it holds.
     *
     * @param c       a connection of the store
     * @param session the session's server process id
     * @return true when the session was ended
     * @throws SQLException when the database refuses (e.g. the role may not signal that session)
     */
    default boolean terminateSession(Connection c, int session) throws SQLException {
        return false;
    }

    /** A lock held by a database session of its own, released when the session ends. */
    interface SessionLock extends AutoCloseable {

        /** @return the holding session's server process id */
        int session();

        /** @return true while the session still holds the lock */
        boolean stillHeld();

        /** Releases the lock and ends its session; never throws. */
        @Override
        void close();
    }
}
