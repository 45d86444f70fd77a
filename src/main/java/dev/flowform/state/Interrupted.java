package dev.flowform.state;

import java.util.Objects;
import java.util.Optional;

/**
 * A run left {@link RunOutcome#RUNNING} by a process that is gone ({@link RunJournal#interruptedRun()}); its open step
 * may or may not have reached the cluster, so a resume re-reads live state.
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
