package dev.flowform.state;

/**
 * Where one step of a run stands in the journal.
 */
public enum StepStatus {
    /** The intent is recorded; the step may or may not have acted on the cluster. */
    STARTED,
    /** The step finished successfully. */
    DONE,
    /** The step finished with an error. */
    FAILED
}
