package dev.flowform.cli;

import dev.flowform.config.StateBackend;
import java.nio.file.Path;

/**
 * Where a command finds an environment's state: a folder of H2 files ({@code --state-dir}, a {@code local} backend or
 * the default) or a PostgreSQL schema (a {@code pg} backend, whose connection is resolved when the state opens).
 *
 * @param stateDir the state folder, absolute; for PostgreSQL the configuration's default folder, which holds only
 *                 local helper files (an embedded cluster's data), never state
 * @param pg       the {@code pg} backend block, or null for a folder
 */
record StateHome(Path stateDir, StateBackend.Pg pg) {

    /**
     * @param stateDirOption {@code --state-dir}, or null
     * @param backend        the configuration's backend
     * @param configDir      the configuration folder
     * @return the home: {@code --state-dir} wins over the backend block, as it always did
     */
    static StateHome of(Path stateDirOption, StateBackend backend, Path configDir) {
        if (stateDirOption != null) {
            return new StateHome(stateDirOption.toAbsolutePath().normalize(), null);
        }
        if (backend instanceof StateBackend.Pg pg) {
            return new StateHome(StateBackend.defaultFor(configDir.toAbsolutePath().normalize()).stateDir(), pg);
        }
        return new StateHome(backend.stateDir(), null);
    }

    /** @return true when the state is in PostgreSQL */
    boolean isPostgres() {
        return pg != null;
    }

    /** @return for messages: {@code under <folder>} or {@code in PostgreSQL schema <name>} (never a password) */
    String shown() {
        return (pg == null ? "under " : "in ") + named();
    }

    /**
     * @return for messages after a verb that takes an object ("to", "is in"): {@code the folder <folder>} or
     *         {@code PostgreSQL schema <name>} (never a password)
     */
    String named() {
        return pg == null ? "the folder " + stateDir : "PostgreSQL schema " + pg.schemaName();
    }
}
