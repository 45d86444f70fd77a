package dev.flowform.cli;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.LoadResult;
import dev.flowform.diag.Diagnostics;
import dev.flowform.locking.Sleeper;
import dev.flowform.run.StateHome;
import dev.flowform.run.Workspace;
import dev.flowform.state.HolderNotAnsweringException;
import dev.flowform.state.LocalProcess;
import dev.flowform.state.NoStateException;
import dev.flowform.state.StateBackups;
import dev.flowform.state.StateFiles;
import dev.flowform.state.StateStore;
import dev.flowform.state.pg.InvalidPgSettingsException;
import dev.flowform.state.pg.PgConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;

/**
 * The state database as a command opens it, with what a user must be told in plain words: a read-only state (opened
 * read-only with a note, or refused for a command that writes), a damaged database (how to restore the newest backup),
 * a holder that does not answer, PostgreSQL settings. {@link #open} serves commands that only look at or repair state,
 * without the cluster and, with {@code -e}, without reading the configuration. Where the state lives is
 * {@link Workspace}'s decision; what its files allow is {@link StateFiles}'.
 */
final class CommandState {

    private CommandState() {
    }

    /** {@link #open(CommonOptions, CliContext, Terminal, String)} for a command that only reads. */
    static StateStore open(CommonOptions opts, CliContext ctx, Terminal term) {
        return open(opts, ctx, term, null);
    }

    /**
     * @param writing what writes the state (e.g. {@code force-unlock}), or null for a command that only reads
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
            return postgres(home, env, ctx, term, false, Sleeper.SYSTEM);
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
        return writing == null ? forReading(home, env, ctx, term, select) : forWriting(home, env, ctx, term, select, writing);
    }

    /**
     * Finds where the state is from {@code --state-dir} or the configuration's {@code backend} blocks only
     * ({@link Workspace#locateState}).
     *
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

    /**
     * Opens the state of a command that only reads, from a folder or PostgreSQL (created there when missing, as a
     * folder's first open does); {@code select} is what selects this state again, for hints.
     *
     * @throws CommandFailed after printing why it cannot be opened
     */
    static StateStore forReading(StateHome home, String env, CliContext ctx, Terminal term, List<String> select) {
        return home.isPostgres() ? postgres(home, env, ctx, term, true, Sleeper.SYSTEM)
                : forReading(home.stateDir(), env, ctx, term, select);
    }

    /**
     * Opens the state of a command that writes it ({@code command}, for messages), from a folder or PostgreSQL.
     *
     * @throws CommandFailed after printing why it cannot be opened
     */
    static StateStore forWriting(StateHome home, String env, CliContext ctx, Terminal term, List<String> select,
                                 String command) {
        try {
            return forWriting(home, env, ctx, term, select, command, Sleeper.SYSTEM);
        } catch (HolderNotAnsweringException e) {
            throw failed(e, home.stateDir(), env, ctx.clock(), term, select);
        }
    }

    /**
     * {@link #forWriting(StateHome, String, CliContext, Terminal, List, String)} for a state lock's wait: pauses with
     * {@code sleeper} (whose pauses a stop request interrupts: {@link CommandLock#sleeper()}), and leaves a holder that
     * does not answer to the wait.
     *
     * @throws HolderNotAnsweringException when the process holding the state open does not answer
     */
    static StateStore forWriting(StateHome home, String env, CliContext ctx, Terminal term, List<String> select,
                                 String command, Sleeper sleeper) {
        return home.isPostgres() ? postgres(home, env, ctx, term, true, sleeper)
                : forWriting(home.stateDir(), env, ctx, term, select, command, sleeper);
    }

    /** {@link #existingPostgres} that reports "No state for environment" (exit 1) where that answers null. */
    private static StateStore postgres(StateHome home, String env, CliContext ctx, Terminal term, boolean create,
                                       Sleeper sleeper) {
        StateStore store = existingPostgres(home, env, ctx, term, create, sleeper);
        if (store == null) {
            term.error("No state for environment \"" + env + "\"", "There is no state for environment \"" + env + "\" "
                    + home.shown() + ": nothing has been planned or applied in this environment.");
            throw new CommandFailed(1);
        }
        return store;
    }

    /**
     * Opens an environment's state in PostgreSQL ({@link PgConnection}). No message repeats the connection string.
     *
     * @param create true to create the state when the environment has none
     * @return the open store, or null when the environment has no state and {@code create} is false
     * @throws CommandFailed after printing why it cannot be opened (exit 1)
     */
    static StateStore existingPostgres(StateHome home, String env, CliContext ctx, Terminal term, boolean create) {
        return existingPostgres(home, env, ctx, term, create, Sleeper.SYSTEM);
    }

    private static StateStore existingPostgres(StateHome home, String env, CliContext ctx, Terminal term, boolean create,
                                               Sleeper sleeper) {
        try {
            PgConnection settings = PgConnection.resolve(home.pg().connStr(), ctx.env());
            return StateStore.openPostgres(settings, home.pg().schemaName(), env, ctx.clock(), sleeper, create);
        } catch (NoStateException e) {
            return null;
        } catch (InvalidPgSettingsException e) {
            term.error("Invalid PostgreSQL connection settings", e.getMessage() + "\nSet the connection in the backend "
                    + "block's conn_str, in " + PgConnection.CONN_STR_VARIABLE + ", or in libpq's PG* variables.");
        } catch (RuntimeException e) {
            term.error("Cannot open the state of environment \"" + env + "\"", String.valueOf(e.getMessage()));
        }
        throw new CommandFailed(1);
    }

    /**
     * Opens the state of a command that only reads: read-only when its files are.
     *
     * @throws CommandFailed after printing why it cannot be opened
     */
    static StateStore forReading(Path stateDir, String env, CliContext ctx, Terminal term, List<String> select) {
        Path db = StateStore.databaseFile(stateDir, env);
        try {
            if (StateFiles.isReadOnly(db)) {
                StateStore store = StateStore.openReadOnly(stateDir, env, ctx.clock());
                String note = "Note: the state of environment \"" + env + "\" (" + db + ") is read-only: it was opened for "
                        + "reading only, and no lock was taken.";
                if (term.isJson()) {
                    term.note("info", note);
                } else {
                    term.errorLine(note);
                }
                return store;
            }
            return StateStore.open(stateDir, env, ctx.clock());
        } catch (RuntimeException e) {
            throw failed(e, stateDir, env, ctx.clock(), term, select);
        }
    }

    /** Opens the state of a command that writes it ({@code command}, for the message): refused when it is read-only. */
    private static StateStore forWriting(Path stateDir, String env, CliContext ctx, Terminal term, List<String> select,
                                         String command, Sleeper sleeper) {
        Path db = StateStore.databaseFile(stateDir, env);
        if (StateFiles.isReadOnly(db)) {
            term.error("The state of environment \"" + env + "\" is read-only", db + " (or its folder) may not be written, "
                    + "and " + command + " writes the state (its runs, step journal, snapshots and lock). Nothing was changed. "
                    + "Make the folder and its files writable, or run " + command + " on a writable copy with --state-dir.");
            throw new CommandFailed(1);
        }
        try {
            return StateStore.open(stateDir, env, ctx.clock(), sleeper);
        } catch (HolderNotAnsweringException e) {
            throw e; // the state lock's wait decides what to say
        } catch (RuntimeException e) {
            throw failed(e, stateDir, env, ctx.clock(), term, select);
        }
    }

    /**
     * Prints why the state could not be opened: a damaged database with how to restore it, else the error itself.
     *
     * @return the exception to throw
     */
    static CommandFailed failed(RuntimeException e, Path stateDir, String env, Clock clock, Terminal term,
                                List<String> select) {
        if (e instanceof CommandFailed f) {
            return f;
        }
        Path db = StateStore.databaseFile(stateDir, env);
        if (e instanceof HolderNotAnsweringException silent) {
            term.error("Cannot open the state of environment \"" + env + "\"", notAnswering(silent, clock));
        } else if (Files.exists(db) && StateFiles.damage(e).isPresent()) {
            term.error("The state database of environment \"" + env + "\" is damaged", damagedDetail(db, stateDir, env,
                    StateFiles.damage(e).get(), select));
        } else {
            term.error("Cannot open the state of environment \"" + env + "\"", String.valueOf(e.getMessage()));
        }
        return new CommandFailed(1);
    }

    /**
     * @param clock the clock to age the holder's lock with
     * @return who holds the state open, the lock it holds when known, and how to get it going again or end it
     */
    static String notAnswering(HolderNotAnsweringException e, Clock clock) {
        String message = e.getMessage();
        StringBuilder d = new StringBuilder(message.substring(0, 1).toUpperCase(Locale.ROOT)).append(message.substring(1))
                .append(".\n");
        e.lockDetails(clock).ifPresent(d::append);
        d.append('\n');
        if (e.process().isPresent()) {
            LocalProcess p = e.process().get();
            d.append(p.isStopped() ? "Resume it with \"kill -CONT " + p.pid() + "\", or end it with \"kill -9 " + p.pid()
                    + "\" (a stopped process acts on no other signal until it is resumed)"
                    : "Wait for it, or end it with \"kill " + p.pid() + "\" (\"kill -9 " + p.pid() + "\" if it does not end)");
        } else {
            d.append("Find the process that has ").append(e.database()).append(" open (e.g. \"fuser -v ")
                    .append(CommandHint.quote(e.database().toString())).append("\"), and resume or end it");
        }
        return d.append("; once it has ended, the next command releases its lock.").toString();
    }

    private static String damagedDetail(Path db, Path stateDir, String env, String problem, List<String> select) {
        StringBuilder d = new StringBuilder();
        d.append(db).append(" cannot be read: ").append(problem).append('.');
        List<StateBackups.Backup> backups = StateBackups.list(stateDir, env);
        if (backups.isEmpty()) {
            d.append("\nThere is no backup of this environment in ").append(StateBackups.folder(stateDir, env))
                    .append(" (one is taken before every apply). Restore the file from your own copy, or move it aside to "
                            + "start this environment from a new, empty state.");
            return d.toString();
        }
        StateBackups.Backup last = backups.get(0);
        d.append("\nThe newest backup (serial ").append(last.serial()).append(", taken before an apply) is:\n  ")
                .append(last.file())
                .append("\nRestore it with:\n  ").append(CommandHint.command("state restore", select))
                .append("\nwhich keeps the damaged file as ").append(db.getFileName()).append(".replaced-<time>. Or by hand, "
                        + "with no flowform running:\n  ")
                .append("unzip -p ").append(CommandHint.quote(last.file().toString())).append(' ')
                .append(db.getFileName()).append(" > ").append(CommandHint.quote(db.toString())).append('\n');
        return d.toString();
    }
}
