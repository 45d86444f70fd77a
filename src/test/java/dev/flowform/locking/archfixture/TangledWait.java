package dev.flowform.locking.archfixture;

import dev.flowform.state.LockInfo;

/** Breaks {@code ArchitectureRules.LOCKING_STANDS_ALONE}; never used by the product. */
public final class TangledWait {

    private TangledWait() {
    }

    /**
     * @param holder a state lock
     * @return its ID, read by the shared locking package
     */
    public static String knowsTheStateLock(LockInfo holder) {
        return holder.id();
    }
}
