package dev.flowform.cli;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.LoadResult;
import dev.flowform.diag.Diagnostics;
import dev.flowform.run.StateHome;
import dev.flowform.run.Workspace;
import dev.flowform.state.StateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens an environment's state database without the cluster, for commands that only look at or
 * repair state ({@code history}, {@code state list/show}, {@code force-unlock}).
 *
 * <p>The environment is {@code -e} when given (then the configuration is not read at all, so a broken
 * configuration never stands between the user and their state), else the configuration's only
 * environment. A state that does not exist yet is reported instead of being created.
 */
final class StateAccess {

    private StateAccess() {
    }

    /**
     * @param opts the common options (environment, configuration and state folders)
     * @param ctx  the process context
     * @param term where errors go
     * @return the open state; close it
     * @throws CommandFailed after printing why when the environment is unknown or has no state
     */
    static StateStore open(CommonOptions opts, CliContext ctx, Terminal term) {
        return open(opts, ctx, term, null);
    }

    /**
     * @param opts    the common options (environment, configuration and state folders)
     * @param ctx     the process context
     * @param term    where errors go
     * @param writing what writes the state (e.g. {@code force-unlock}), or null for a command that only reads (then a
     *                read-only state opens read-only)
     * @return the open state; close it
     * @throws CommandFailed after printing why when the environment is unknown, has no state, or cannot be opened
     */
    static StateStore open(CommonOptions opts, CliContext ctx, Terminal term, String writing) {
        String env = environment(opts, term);
        StateHome home = home(opts.stateDirOption(), opts.dir(), term);
        if (home.isPostgres()) {
            try {
                StateStore.validateEnvironmentName(env);
            } catch (IllegalArgumentException e) {
                term.error("Invalid environment name", e.getMessage());
                throw new CommandFailed(1);
            }
            return StateOpen.postgres(home, env, ctx, term, false);
        }
        Path stateDir = home.stateDir();
        Path db;
        try {
            db = StateStore.databaseFile(stateDir, env);
        } catch (IllegalArgumentException e) {
            term.error("Invalid environment name", e.getMessage());
            throw new CommandFailed(1);
        }
        if (!Files.exists(db)) {
            term.error("No state for environment \"" + env + "\"", "There is no state database at " + db
                    + ": nothing has been planned or applied in this environment under " + stateDir + ".");
            throw new CommandFailed(1);
        }
        List<String> select = CommandHint.selecting(opts, env);
        return writing == null ? StateOpen.forReading(stateDir, env, ctx, term, select)
                : StateOpen.forWriting(stateDir, env, ctx, term, select, writing);
    }

    /**
     * Finds where the state is, folder or PostgreSQL, reading only the configuration's {@code backend} blocks
     * ({@link Workspace#locateState}), and says why when they cannot be read.
     *
     * @param stateDirOption {@code --state-dir}, or null when not given
     * @param dir            the configuration folder ({@code --dir})
     * @param term           where problems go
     * @return the state's home
     * @throws CommandFailed after printing why, when the backend block is invalid or the files cannot be parsed
     */
    static StateHome home(Path stateDirOption, Path dir, Terminal term) {
        Workspace.StateLookup found = Workspace.locateState(stateDirOption, dir);
        if (found.blocks() != null) {
            term.addSources(found.blocks().sources());
            term.diagnostics(found.blocks().diagnostics());
        }
        if (found.home() == null) {
            String shown = dir.toString().isEmpty() ? "." : dir.toString();
            term.error("Cannot tell where the state is", "The configuration in " + shown + " says where its state lives "
                    + "(its backend block), but it cannot be read. Fix it, or give the state folder with --state-dir DIR.");
            throw new CommandFailed(1);
        }
        return found.home();
    }

    /** @return {@code -e}, or the one environment the configuration selects */
    static String environment(CommonOptions opts, Terminal term) {
        if (opts.environment != null) {
            return opts.environment;
        }
        LoadResult loaded = new ConfigLoader().load(opts.dir(), null, opts.vars);
        term.addSources(loaded.sources());
        if (loaded.configuration() == null || loaded.diagnostics().hasErrors()) {
            term.diagnostics(new Diagnostics().addAll(loaded.diagnostics()));
            term.error("Which environment?", "Give the environment with -e NAME, or run in a configuration folder "
                    + "(--dir) that selects one.");
            throw new CommandFailed(1);
        }
        return loaded.configuration().environment().name();
    }
}
