package dev.flowform.apply;

import dev.flowform.plan.Step;
import java.time.Duration;

/**
 * What happened to one step.
 *
 * @param step    the step
 * @param outcome done, failed or skipped
 * @param detail  what was observed, or why it failed / was skipped
 * @param took    how long it ran (zero when skipped)
 */
public record StepResult(Step step, Outcome outcome, String detail, Duration took) {

    /** Outcome of one step. */
    public enum Outcome {
        /** The step finished. */
        DONE,
        /** The step failed; later steps of its chain were skipped. */
        FAILED,
        /** Not run because a step it depends on failed or the run was interrupted. */
        SKIPPED
    }
}
