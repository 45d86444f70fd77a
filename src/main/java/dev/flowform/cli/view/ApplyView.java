package dev.flowform.cli.view;

import dev.flowform.apply.ApplyResult;
import dev.flowform.cli.Prompter;
import dev.flowform.cli.Terminal;
import dev.flowform.run.ApplyHooks;
import dev.flowform.run.ApplyReport;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the human and JSON views of {@code apply} share: the approval prompt and the report of an apply that did
 * not complete, both printed the same way in either mode (errors become JSON diagnostics through the
 * {@link Terminal}).
 */
public abstract class ApplyView extends TerminalView implements ApplyHooks {

    /** How a completed apply is announced (Terraform's words). */
    protected static final String COMPLETE = "Apply complete!";

    private final Prompter prompter;
    private final AtomicBoolean asking = new AtomicBoolean();

    /** A view printing to {@code term}, asking for approval with {@code prompter}. */
    protected ApplyView(Terminal term, Prompter prompter) {
        super(term);
        this.prompter = prompter;
    }

    /** @return true while the approval prompt waits for an answer (Ctrl-C then cancels at once) */
    public boolean awaitingApproval() {
        return asking.get();
    }

    /** Separates the step lines from the report that follows them: a blank line for people, nothing in JSON. */
    protected abstract void gap();

    @Override
    public boolean approve(String environment) {
        asking.set(true);
        try {
            return approved(environment);
        } finally {
            asking.set(false);
        }
    }

    private boolean approved(String environment) {
        if (!prompter.interactive()) {
            term.error("No approval",
                    "apply shows the plan and asks for \"yes\" before acting, but there is no terminal to ask on. "
                            + "Re-run with --auto-approve to apply without asking.");
            return false;
        }
        term.println("");
        term.println(term.style().bold("Do you want to perform these actions in environment \"" + environment + "\"?"));
        term.println("  flowform will perform the actions described above, in the order shown.");
        term.println("  Only 'yes' will be accepted to approve.");
        term.println("");
        String answer = prompter.ask("  Enter a value: ");
        if (!"yes".equals(answer == null ? null : answer.trim())) {
            term.errorLine("");
            term.errorLine("Apply cancelled.");
            return false;
        }
        return true;
    }

    @Override
    public void incomplete(ApplyResult result, String summary, Optional<String> lockLost) {
        gap();
        String details = ApplyReport.details(result);
        if (lockLost.isPresent()) {
            term.error("Apply stopped: " + lockLost.get(), summary + "\n\n" + details + "\nAnother process may hold the lock "
                    + "now; this run did not write its outcome. The next apply re-reads the cluster and continues.");
        } else if (result.interrupted()) {
            term.error("Apply interrupted", summary + "\n\n" + details + "\nThe state records every step; the lock is "
                    + "released. Run \"flowform apply\" again to continue: it re-reads the live cluster and does only "
                    + "what is still needed.");
        } else {
            term.error("Apply failed", summary + "\n\n" + details + "\nThe state records what was done. Fix the cause, then "
                    + "run \"flowform apply\" again: it re-reads the live cluster and does only what is still needed.");
        }
    }

    /** A first Ctrl-C or SIGTERM arrived: the apply stops once the API call in flight is recorded. */
    public void interruptReceived() {
        term.note("warn", "Interrupt received. Please wait: flowform finishes the API call in flight, records it and "
                + "releases the state lock. Interrupt again to exit at once.");
    }

    /** The interrupt came while the approval prompt waited: the apply ends at once, nothing was changed. */
    public void cancelledAtApproval() {
        term.errorLine("Apply cancelled; nothing was changed.");
    }

    /** A second interrupt arrived: the process ends at once, after releasing the leases and the lock. */
    public void exitingAtOnce() {
        term.errorLine("Second interrupt: exiting at once. Run \"flowform apply\" again to continue from the live cluster.");
    }

    @Override
    public void stoppedBeforeStart(String reason) {
        term.error("Apply interrupted", "Stopped (" + reason + ") before any step ran; nothing was changed.");
    }
}
