package dev.flowform.state.archfixture;

import dev.flowform.apply.Journal;
import dev.flowform.plan.Step;

/**
 * Breaks {@code ArchitectureRules.STATE_KNOWS_NO_APPLY} (the state implementing the applier's journal port, as it
 * once did) and {@code PAUSES_GO_THROUGH_THE_SLEEPER}; never used by the product.
 */
public final class JournalInState implements Journal {

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

    /**
     * Pauses without the injected sleeper.
     *
     * @throws InterruptedException never in the fixture's use: it is only read, not run
     */
    public void dozes() throws InterruptedException {
        Thread.sleep(1);
    }
}
