package dev.flowform.cli;

import dev.flowform.run.Environment;
import dev.flowform.run.RunHooks;
import dev.flowform.run.StateHome;
import dev.flowform.run.StateOpener;
import dev.flowform.run.Workspace;
import dev.flowform.state.StateStore;
import java.nio.file.Path;
import java.util.List;

/**
 * Opens the selected environment for {@code plan} and {@code apply}: the run layer's {@link Environment}, its
 * state opened the CLI's way ({@link CommandState}: a read-only or damaged database explained; for {@code apply}
 * writable, and locked with the command's {@link CommandLock} before the cluster is touched).
 */
final class CommandEnvironment {

    private CommandEnvironment() {
    }

    /**
     * @param lock  the state lock to take right after the state opens, or null for a command that only reads
     * @return the open environment; closing it releases the lock
     * @throws CommandFailed after printing why the state cannot be opened or locked
     * @throws dev.flowform.run.OperationFailed after the view reported errors in the configuration or the cluster
     */
    static Environment open(CommonOptions opts, CliContext ctx, Terminal term, RunHooks hooks, CommandLock lock) {
        Workspace workspace = Workspace.load(opts.dir(), opts.environment, opts.variableInputs(ctx.env()),
                opts.stateDirOption(), term.secrets(), hooks);
        StateHome home = workspace.home();
        return Environment.open(workspace, opener(opts, ctx, term, lock, home), lock != null, ctx.run(), term.secrets(),
                hooks);
    }

    private static StateOpener opener(CommonOptions opts, CliContext ctx, Terminal term, CommandLock lock, StateHome home) {
        return new StateOpener() {
            @Override
            public StateStore open(Path stateDir, String environment) {
                List<String> select = CommandHint.selecting(opts, environment);
                try {
                    return lock == null ? CommandState.forReading(home, environment, ctx, term, select)
                            : lock.open(() -> CommandState.forWriting(home, environment, ctx, term, select, "apply",
                            lock.sleeper()));
                } catch (CommandFailed e) {
                    throw e;
                } catch (RuntimeException e) {
                    term.error("Cannot open the state of environment \"" + environment + "\"", String.valueOf(e.getMessage()));
                    throw new CommandFailed(1);
                }
            }

            @Override
            public void release() {
                if (lock != null) {
                    lock.release();
                }
            }
        };
    }
}
