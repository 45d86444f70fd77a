package dev.flowform.state;

import java.time.Instant;
import java.util.Objects;

/**
 * One journal row: a step of a run, {@link StepStatus#STARTED} before it acts, then DONE, FAILED or STOPPED.
 *
 * @param id         generated row id (what {@link RunJournal#done} and {@link RunJournal#failed} take)
 * @param runId      the run it belongs to
 * @param stepIndex  0-based position of the step in the run's execution order
 * @param stepId     the plan's step id ({@code Step.id()}, 1-based)
 * @param kind       the step kind, e.g. {@code SET_WORKER_EOS} (a string: rows of other versions stay readable)
 * @param address    the resource address it acts on, or null
 * @param intentJson what the step is about to do, as JSON (free of secrets), or null
 * @param status     where it stands
 * @param startedAt  when the intent was written
 * @param finishedAt when it finished; null while {@link StepStatus#STARTED}
 * @param detail     outcome detail (error message, what was observed), or null
 * @param durationMs milliseconds from {@code startedAt} to {@code finishedAt}; null while STARTED
 */
public record StepRecord(long id, long runId, int stepIndex, int stepId, String kind, String address,
                         String intentJson, StepStatus status, Instant startedAt, Instant finishedAt,
                         String detail, Long durationMs) {

    /** @throws NullPointerException when a required component is null */
    public StepRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(startedAt, "startedAt");
    }
}
