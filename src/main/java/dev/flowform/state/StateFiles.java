package dev.flowform.state;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What a state's files allow, asked by a command before or after opening it, so that it can say so in its own words:
 * whether they may be written ({@link #isReadOnly}) and whether a failure means a damaged database ({@link #damage}).
 * The database specifics (file modes, H2's error codes) stay in the backend.
 */
public final class StateFiles {

    private StateFiles() {
    }

    /**
     * Tells whether a state's files may be written: a state whose files may not be written is opened with
     * {@link StateStore#openReadOnly} by a command that only reads, and refused by one that writes.
     *
     * @param db the database file ({@link StateStore#databaseFile})
     * @return true when it exists and it or its folder may not be written (a read-only mount, another user's file, or
     *         its owner-write permission bit off, which is honoured even for root)
     */
    public static boolean isReadOnly(Path db) {
        return H2Backend.isReadOnly(db);
    }

    /**
     * Tells a damaged state database from other failures to open it (busy, newer, someone else's), so that a command
     * can say how to restore a backup instead of showing the database's error.
     *
     * @param e what opening or reading the state threw
     * @return the problem in one short line when the database is damaged, else empty
     */
    public static Optional<String> damage(Throwable e) {
        return H2Backend.damage(e);
    }
}
