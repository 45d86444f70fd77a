package dev.flowform.state;

/** Where one step of a run stands in the journal. */
public enum StepStatus {
    /** The intent is recorded; the step may or may not have acted on the cluster. */
    STARTED,
    /** The step finished successfully. */
    DONE,
    /** The step finished with an error. */
    FAILED,
    /**
     * A stop request (Ctrl-C, SIGTERM, a lost state lock) ended the step while it waited: what it wrote may have
     * reached the cluster, so the next apply checks it against the live cluster (schema version 4; before, such a
     * step was FAILED with a detail starting "stopped while waiting").
     */
    STOPPED;

    /**
     * @return the status as {@code flowform history} and {@code state pull} show it: a stopped step as
     *         {@link #FAILED}, as they showed it before {@link #STOPPED} was recorded on its own (its detail says it
     *         was stopped), so their text and JSON documents keep their meaning for scripts that read them
     */
    public StepStatus shown() {
        return this == STOPPED ? FAILED : this;
    }
}
