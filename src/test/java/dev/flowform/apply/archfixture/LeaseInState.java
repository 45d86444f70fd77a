package dev.flowform.apply.archfixture;

import dev.flowform.state.StateStore;

/** Breaks {@code ArchitectureRules.APPLY_KNOWS_NO_STATE}; never used by the product. */
public final class LeaseInState {

    private LeaseInState() {
    }

    /**
     * @param store a state
     * @return its environment, read by the applier's package
     */
    public static String readsTheState(StateStore store) {
        return store.environmentName();
    }
}
