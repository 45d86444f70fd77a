package dev.flowform.run;

import dev.flowform.state.StateStore;
import java.nio.file.Path;

/**
 * How a {@link Workspace} reaches its environment's state database: supplied by the command, which decides
 * whether it only reads (a read-only database then opens read-only) or writes (it takes the environment's state
 * lock right after the database opens), and explains what goes wrong (a damaged database, a held lock) in its
 * own words.
 */
public interface StateOpener {

    /**
     * Opens the state and, for a command that writes, takes its lock.
     *
     * @param stateDir    the state folder, absolute
     * @param environment the environment's name
     * @return the open state
     * @throws RuntimeException after reporting why it cannot be opened or locked (nothing stays open)
     */
    StateStore open(Path stateDir, String environment);

    /** Releases what {@link #open} took beyond the database (the lock); called before the state closes. Never throws. */
    void release();
}
