package dev.flowform.apply;

import java.util.List;

/**
 * The outcome of an apply.
 *
 * @param results     one entry per step, in plan order
 * @param interrupted true when the run stopped early because it was asked to (Ctrl-C, SIGTERM, a lost lock)
 * @param stopReason  why it stopped, or null when it was not stopped
 */
public record ApplyResult(List<StepResult> results, boolean interrupted, String stopReason) {

    public ApplyResult {
        results = List.copyOf(results);
    }

    /** @return true when every step is done */
    public boolean succeeded() {
        return !interrupted && results.stream().allMatch(r -> r.outcome() == StepResult.Outcome.DONE);
    }

    /** @return the number of steps with {@code outcome} */
    public long count(StepResult.Outcome outcome) {
        return results.stream().filter(r -> r.outcome() == outcome).count();
    }

    /** @return the results with {@code outcome}, in plan order */
    public List<StepResult> withOutcome(StepResult.Outcome outcome) {
        return results.stream().filter(r -> r.outcome() == outcome).toList();
    }
}
