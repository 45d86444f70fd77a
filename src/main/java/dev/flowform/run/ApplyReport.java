package dev.flowform.run;

import dev.flowform.apply.ApplyResult;
import dev.flowform.apply.StepResult;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Step;
import dev.flowform.plan.PlanSummary;
import dev.flowform.plan.StepKind;
import dev.flowform.render.Text;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

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
            SeenThrough earlier = SeenThrough.of(plan, result);
            int changed = s.change() + earlier.changed();
            int rolls = s.rolls() + earlier.rolls();
            return "Resources: " + s.add() + " added, " + changed + " changed, " + s.destroy() + " destroyed; " + rolls
                    + (rolls == 1 ? " rolling restart" : " rolling restarts") + " in " + Text.duration(took)
                    + earlier.shown() + "." + transfers(result);
        }
        return result.count(StepResult.Outcome.DONE) + " of " + result.results().size() + " steps done, "
                + result.count(StepResult.Outcome.FAILED) + " failed, " + result.count(StepResult.Outcome.SKIPPED)
                + " not run" + (result.interrupted() ? " (stopped: " + result.stopReason() + ")" : "") + ", after "
                + Text.duration(took) + "." + transfers(result);
    }

    /**
     * The changes a run saw through that were made before it (a wait with no change of its object before it: a resumed
     * run's carried waits, a roll in progress), so a resumed run counts what it finished rather than "0 changed".
     *
     * @param changed objects counted as changed that the plan's own changes do not already count
     * @param rolls   rolling restarts seen through
     */
    record SeenThrough(int changed, int rolls) {

        static SeenThrough of(Plan plan, ApplyResult result) {
            Set<ObjectRef> counted = new HashSet<>();
            plan.changes().forEach(c -> counted.add(c.object()));
            int changed = 0;
            int rolls = 0;
            for (StepResult r : result.withOutcome(StepResult.Outcome.DONE)) {
                Step w = r.step();
                if (w.kind().isMutation() || changedEarlierInPlan(plan, w)) {
                    continue;
                }
                if (w.kind() != StepKind.WAIT_FOR_FORCED_ROLL && counted.add(w.object())) {
                    changed++;
                }
                if (w.kind() != StepKind.WAIT_FOR_CONNECTOR_READY) {
                    rolls++;
                }
            }
            return new SeenThrough(changed, rolls);
        }

        /** @return true when a mutation of the wait's object (or resource, for a forced roll) comes before it */
        private static boolean changedEarlierInPlan(Plan plan, Step wait) {
            return plan.steps().stream().anyMatch(s -> s.id() < wait.id() && s.kind().isMutation()
                    && (s.object().equals(wait.object()) || s.address().equals(wait.address())
                    && wait.kind() == StepKind.WAIT_FOR_FORCED_ROLL));
        }

        /** @return what the counts include, for the summary line; empty when nothing was seen through */
        String shown() {
            if (changed == 0 && rolls == 0) {
                return "";
            }
            List<String> parts = new java.util.ArrayList<>();
            if (changed > 0) {
                parts.add(changed + (changed == 1 ? " change" : " changes"));
            }
            if (rolls > 0) {
                parts.add(rolls + (rolls == 1 ? " rolling restart" : " rolling restarts"));
            }
            return ", counting " + String.join(" and ", parts) + " started before this run and seen through by it";
        }
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
