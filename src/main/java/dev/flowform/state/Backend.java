package dev.flowform.state;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * What differs between the databases a {@link StateStore} can live in: where the database is, how a connection is
 * opened (and opened again after it was lost), which errors mean the connection is gone, and how a copy is taken.
 * Everything else is shared: the Flyway migrations, every query of {@link RunJournal}, {@link SnapshotTable},
 * {@link OutputTable} and {@link StateLocker}, lineage and serial. {@link H2Backend} is the file (and in-memory)
 * database; a server database adds another implementation.
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
}
