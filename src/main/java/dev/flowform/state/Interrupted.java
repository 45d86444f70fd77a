package dev.flowform.state;

import java.util.Objects;
import java.util.Optional;

/**
 * A run left {@link RunOutcome#RUNNING} by a process that is gone, found by
 * {@link RunJournal#interruptedRun()}.
 *
 * <p>{@code openStep} is the step whose intent was written but whose outcome never was: it may or
 * may not have reached the cluster, so a resume must re-read live state before deciding (the plan is
 * re-derived, never trusted from memory).
 *
 * @param run      the run
 * @param openStep its newest step still {@link StepStatus#STARTED}, if any
 */
public record Interrupted(RunRecord run, Optional<StepRecord> openStep) {

    /** @throws NullPointerException when a required component is null */
    public Interrupted {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(openStep, "openStep");
    }
}
