package dev.flowform.run;

import dev.flowform.config.StateBackend;
import java.nio.file.Path;

/**
 * Where a command finds an environment's state, as {@link Workspace#stateHome} decides it: a folder of H2 files
 * ({@code --state-dir}, a {@code local} backend or the default) or a PostgreSQL schema (a {@code pg} backend, whose
 * connection is resolved when the state opens).
 *
 * @param stateDir the state folder, absolute; for PostgreSQL the configuration's default folder, which holds only
 *                 local helper files (an embedded cluster's data), never state
 * @param pg       the {@code pg} backend block, or null for a folder
 */
public record StateHome(Path stateDir, StateBackend.Pg pg) {

    /** @return true when the state is in PostgreSQL */
    public boolean isPostgres() {
        return pg != null;
    }

    /** @return for messages: {@code under <folder>} or {@code in PostgreSQL schema <name>} (never a password) */
    public String shown() {
        return (pg == null ? "under " : "in ") + named();
    }

    /**
     * @return for messages after a verb that takes an object ("to", "is in"): {@code the folder <folder>} or
     *         {@code PostgreSQL schema <name>} (never a password)
     */
    public String named() {
        return pg == null ? "the folder " + stateDir : "PostgreSQL schema " + pg.schemaName();
    }
}
