package dev.flowform.cli;

import dev.flowform.state.LockInfo;
import dev.flowform.state.StateStore;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code flowform force-unlock LOCK_ID} (Terraform's): releases a state lock left by a run that cannot release it; the
 * ID printed in the lock error acts as a nonce. Asks unless {@code --force}. Exit 0 released, 1 otherwise.
 */
@Command(name = "force-unlock", mixinStandardHelpOptions = true,
        description = "Release a state lock left by a run that can no longer release it. Needs the lock's ID.")
public final class ForceUnlockCommand extends FlowformSubcommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "LOCK_ID", description = "The ID printed in the lock error.")
    String lockId;

    @Option(names = {"--force", "-force"}, description = "Do not ask for confirmation.")
    boolean force;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        CliContext ctx = parent.context();
        try (StateStore state = CommandState.open(common, ctx, term, "force-unlock")) {
            Optional<LockInfo> current = state.lockTable().current();
            if (current.isEmpty()) {
                term.error("Failed to unlock state", "Environment \"" + state.environmentName() + "\" is not locked.");
                return 1;
            }
            LockInfo h = current.get();
            if (!h.id().equals(lockId)) {
                term.error("Failed to unlock state", "Lock ID \"" + lockId + "\" does not match the lock on environment \""
                        + state.environmentName() + "\"; nothing was unlocked. Use the ID printed in the lock error.");
                return 1;
            }
            if (!force) {
                if (!ctx.prompter().interactive()) {
                    term.error("No confirmation", "force-unlock asks for \"yes\" before it releases a lock, but there is no "
                            + "terminal to ask on. Re-run with --force.");
                    return 1;
                }
                term.println("Do you really want to force-unlock?");
                term.println("  flowform will remove the lock on the state of environment \"" + state.environmentName() + "\", held by "
                        + h.operation() + " of " + h.who() + " since " + h.created() + " (last heartbeat "
                        + h.heartbeat() + ").");
                term.println("  Other flowform commands can then change this state, even though it may still be in use.");
                if (h.session() != null) {
                    term.println("  The state is in PostgreSQL: the holder's database session " + h.session()
                            + " is ended too (pg_terminate_backend), so a holder still running stops at its next write.");
                }
                term.println("  Only 'yes' will be accepted to confirm.");
                term.println("");
                String answer = ctx.prompter().ask("  Enter a value: ");
                if (!"yes".equals(answer == null ? null : answer.trim())) {
                    term.errorLine("force-unlock cancelled.");
                    return 1;
                }
            }
            try {
                if (!state.lockTable().forceUnlock(lockId)) {
                    term.error("Failed to unlock state", "Environment \"" + state.environmentName()
                            + "\" is no longer locked; nothing to do.");
                    return 1;
                }
            } catch (IllegalArgumentException e) {
                term.error("Failed to unlock state", e.getMessage());
                return 1;
            }
            term.println(term.style().green(term.style().bold("flowform state has been successfully unlocked!")));
            term.println("");
            term.println("The state of environment \"" + state.environmentName() + "\" has been unlocked; flowform commands "
                    + "can take the lock again. If the run that held it was interrupted, the next apply continues it."
                    + (h.session() == null ? "" : " The holder's PostgreSQL session " + h.session() + " no longer holds it."));
            return 0;
        } catch (CommandFailed e) {
            return e.exitCode();
        }
    }
}
