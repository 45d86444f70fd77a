package dev.flowform.run;

import dev.flowform.apply.ApplyResult;
import dev.flowform.apply.StepResult;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanSummary;
import dev.flowform.plan.StepKind;
import dev.flowform.render.Text;
import java.time.Duration;
import java.util.List;

/**
 * The end-of-run text of an apply: one summary line, and for a run that did not succeed, what was
 * done, what failed and why (the operator's NotReady message, the connector's FAILED trace head, the
 * timeout with what was still missing), and what is left.
 */
public final class ApplyReport {

    private ApplyReport() {
    }

    /**
     * @param plan   the plan applied
     * @param result what happened
     * @param took   how long the run took
     * @return e.g. {@code Resources: 0 added, 2 changed, 0 destroyed; 2 rolling restarts in 5.6s.} or
     *         {@code 3 of 6 steps done, 1 failed, 2 not run, after 12.3s.}
     */
    public static String summaryLine(Plan plan, ApplyResult result, Duration took) {
        PlanSummary s = plan.summary();
        if (result.succeeded()) {
            return "Resources: " + s.add() + " added, " + s.change() + " changed, " + s.destroy() + " destroyed; " + s.rolls()
                    + (s.rolls() == 1 ? " rolling restart" : " rolling restarts") + " in " + Text.duration(took) + "."
                    + transfers(result);
        }
        return result.count(StepResult.Outcome.DONE) + " of " + result.results().size() + " steps done, "
                + result.count(StepResult.Outcome.FAILED) + " failed, " + result.count(StepResult.Outcome.SKIPPED)
                + " not run" + (result.interrupted() ? " (stopped: " + result.stopReason() + ")" : "") + ", after "
                + Text.duration(took) + "." + transfers(result);
    }

    /**
     * @return the ownership transfers the run completed, as a sentence for the run's record (empty when none):
     *         {@code  Ownership transferred: connect_cluster.x (take over from environment "a" (lineage …)).}
     */
    private static String transfers(ApplyResult result) {
        List<String> done = result.withOutcome(StepResult.Outcome.DONE).stream()
                .filter(r -> r.step().kind() == StepKind.TRANSFER_OWNERSHIP)
                .map(r -> r.step().address() + " (" + r.step().summary() + ")").toList();
        return done.isEmpty() ? "" : " Ownership transferred: " + String.join("; ", done) + ".";
    }

    /**
     * @param result what happened
     * @return the Done / Failed / Not run blocks, one step per line with its detail
     */
    public static String details(ApplyResult result) {
        StringBuilder sb = new StringBuilder();
        block(sb, "Done", result.withOutcome(StepResult.Outcome.DONE));
        block(sb, "Failed", result.withOutcome(StepResult.Outcome.FAILED));
        block(sb, "Not run", result.withOutcome(StepResult.Outcome.SKIPPED));
        return sb.toString();
    }

    private static void block(StringBuilder sb, String title, List<StepResult> steps) {
        if (steps.isEmpty()) {
            return;
        }
        if (sb.length() > 0) {
            sb.append('\n');
        }
        sb.append(title).append(":\n");
        for (StepResult r : steps) {
            sb.append(String.format("  %2d. %s %s: %s%n", r.step().id(), r.step().kind(), r.step().address(), r.detail()));
        }
    }
}
