package dev.flowform.apply;

import dev.flowform.plan.Step;

/**
 * Port: the write-ahead journal of an apply run. Each call is durable when it returns, so a crash
 * at any point leaves a record of what was being done.
 */
public interface Journal {

    /**
     * Records the intent of a step before it acts.
     *
     * @param step  the step
     * @param index 1-based position among the steps being executed
     * @return a handle for {@link #done} / {@link #failed}
     */
    long started(Step step, int index);

    /** Records that the step finished; {@code detail} says what was observed (e.g. the new generation). */
    void done(long handle, String detail);

    /** Records that the step failed and why. */
    void failed(long handle, String detail);

    /**
     * Records that a stop request ended the step while it waited (the detail starts with {@link Applier#STOPPED});
     * what it wrote may have reached the cluster. A journal that does not tell the two apart records it as
     * {@link #failed}.
     */
    default void stopped(long handle, String detail) {
        failed(handle, detail);
    }

    /** A journal that records nothing (for tests of the applier alone). */
    Journal NONE = new Journal() {
        @Override
        public long started(Step step, int index) {
            return index;
        }

        @Override
        public void done(long handle, String detail) {
        }

        @Override
        public void failed(long handle, String detail) {
        }
    };
}
