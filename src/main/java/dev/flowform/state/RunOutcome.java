package dev.flowform.state;

/** How a run ended, as recorded in the {@code run} table. */
public enum RunOutcome {
    /** Started and not finished yet, or the process died before finishing it. */
    RUNNING,
    /** Every step finished. */
    SUCCEEDED,
    /** A step failed, or the run stopped on an error. */
    FAILED,
    /** Found still {@code RUNNING} by a later flowform process after its owner was gone. */
    INTERRUPTED;

    /** @return true for every outcome except {@link #RUNNING} */
    public boolean isFinal() {
        return this != RUNNING;
    }
}
