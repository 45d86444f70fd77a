package dev.flowform.plan;

/** The outcome of checking whether a roll or a connector change has settled. */
public sealed interface Readiness {

    /** @return one human line describing the state, used in progress output */
    String detail();

    /** @return true for {@link Complete} */
    default boolean isComplete() {
        return this instanceof Complete;
    }

    /** Everything the rule requires holds; {@code detail} says what was verified, e.g. {@code 3/3 workers on ...}. */
    record Complete(String detail) implements Readiness {
    }

    /**
     * Not there yet; keep waiting.
     *
     * @param detail what is still missing, e.g. {@code 1/3 workers on the new revision, observedGeneration 4/5}
     * @param done   units finished (workers rolled, tasks running), for progress
     * @param total  units expected
     */
    record InProgress(String detail, int done, int total) implements Readiness {
    }

    /** A failure reported at the awaited generation (the operator's message or a trace head); waiting will not help. */
    record Failed(String detail) implements Readiness {
    }

    /** Reconciliation is paused ({@code strimzi.io/pause-reconciliation}); the operator will not act. */
    record Paused(String detail) implements Readiness {
    }

    /** The wait's deadline passed first; {@code detail} says what was still missing. */
    record TimedOut(String detail) implements Readiness {
    }
}
