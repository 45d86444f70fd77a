package dev.flowform.plan;

/** The outcome of checking whether a roll or a connector change has settled. */
public sealed interface Readiness {

    /** @return one human line describing the state, used in progress output */
    String detail();

    /** @return true for {@link Complete} */
    default boolean isComplete() {
        return this instanceof Complete;
    }

    /**
     * Everything the rule requires holds.
     *
     * @param detail what was verified, e.g. {@code 3/3 workers on revision 1a2b3c4d, observedGeneration 5}
     */
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

    /**
     * The operator or Kafka Connect reported a failure at the awaited generation; waiting longer will not help.
     *
     * @param detail  the operator's message or the head of the failure trace
     */
    record Failed(String detail) implements Readiness {
    }

    /**
     * Reconciliation is paused ({@code strimzi.io/pause-reconciliation}); the operator will not act.
     *
     * @param detail explanation
     */
    record Paused(String detail) implements Readiness {
    }

    /**
     * The wait's deadline passed first.
     *
     * @param detail what was still missing when time ran out
     */
    record TimedOut(String detail) implements Readiness {
    }
}
