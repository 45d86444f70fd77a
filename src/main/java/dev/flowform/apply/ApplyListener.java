package dev.flowform.apply;

import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import java.time.Duration;

/** Receives what the applier does, for the terminal (human lines or JSON events). */
public interface ApplyListener {

    /** A step is about to act. {@code index} is 1-based among {@code total} steps. */
    void stepStarted(Step step, int index, int total);

    /** A wait reports progress (when the state changes and at least every 10 seconds). */
    void stepProgress(Step step, int index, int total, Readiness state, Duration elapsed);

    /** A step finished. */
    void stepDone(Step step, int index, int total, String detail, Duration took);

    /** A step failed; its chain stops. */
    void stepFailed(Step step, int index, int total, String detail, Duration took);

    /** A step was not run because a step it depends on failed. */
    void stepSkipped(Step step, int index, int total, String reason);
}
