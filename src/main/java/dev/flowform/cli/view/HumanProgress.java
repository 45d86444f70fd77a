package dev.flowform.cli.view;

import dev.flowform.apply.ApplyListener;
import dev.flowform.cli.Terminal;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.render.Text;
import java.time.Duration;

/**
 * Prints apply progress as plain lines, one event per line, prefixed with the resource address (as
 * Terraform's "addr: Still modifying... [00m10s elapsed]"). Suitable for terminals and CI logs alike.
 */
public final class HumanProgress implements ApplyListener {

    private final Terminal term;

    /** @param term where to print */
    public HumanProgress(Terminal term) {
        this.term = term;
    }

    @Override
    public void stepStarted(Step step, int index, int total) {
        term.println(term.style().bold(step.address() + ": [" + index + "/" + total + "] " + step.kind()) + " " + step.summary());
    }

    @Override
    public void stepProgress(Step step, int index, int total, Readiness state, Duration elapsed) {
        term.println(step.address() + ": still waiting [" + Text.elapsed(elapsed) + " elapsed]: " + state.detail());
    }

    @Override
    public void stepDone(Step step, int index, int total, String detail, Duration took) {
        term.println(step.address() + ": [" + index + "/" + total + "] " + term.style().green("done") + " after "
                + Text.duration(took) + ": " + detail);
    }

    @Override
    public void stepFailed(Step step, int index, int total, String detail, Duration took) {
        term.println(step.address() + ": [" + index + "/" + total + "] " + term.style().red("FAILED") + " after "
                + Text.duration(took) + ": " + detail);
    }

    @Override
    public void stepSkipped(Step step, int index, int total, String reason) {
        term.println(step.address() + ": [" + index + "/" + total + "] skipped " + step.kind() + " (" + reason + ")");
    }
}
