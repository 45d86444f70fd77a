package dev.flowform.run;

import dev.flowform.apply.ApplyResult;

/**
 * How an {@link ApplyOperation} ended; everything about it was reported to the {@link ApplyHooks} already.
 *
 * @param status how it ended
 * @param result what every step did, or null when no step ran
 */
public record ApplyOutcome(Status status, ApplyResult result) {

    /** How an apply ended. */
    public enum Status {
        /** Every step done, nothing to do, or the drift recorded; the outputs recorded. */
        COMPLETE,
        /** Refused, declined or failed before a step ran, or the outputs could not be recorded. */
        ERROR,
        /** A step failed; the state records what was done. */
        FAILED,
        /** Stopped (Ctrl-C, SIGTERM) before or while the steps ran; the state records what was done. */
        INTERRUPTED,
        /** Interrupted while waiting for a Connect cluster's lease; nothing was changed. */
        INTERRUPTED_WAITING,
        /** The state lock or a cluster lease was lost while the steps ran; the run's outcome was not recorded. */
        LOCK_LOST
    }

    /** @return an outcome without steps run */
    static ApplyOutcome of(Status status) {
        return new ApplyOutcome(status, null);
    }
}
