package dev.flowform.state;

/**
 * The state database failed: it could not be opened or migrated, or a statement failed. Carries
 * the operation and the database location in its message and the {@link java.sql.SQLException}
 * (or I/O error) as cause. Not thrown for usage errors, which are {@link IllegalArgumentException}
 * and {@link IllegalStateException}.
 */
public final class StateStoreException extends RuntimeException {
    private final boolean outcomeUnknown;

    /**
     * @param message what failed and where, e.g. {@code journalDone(42) failed on /state/prod/flowform.mv.db: ...}
     * @param cause   the underlying error
     */
    public StateStoreException(String message, Throwable cause) {
        this(message, cause, false);
    }

    /**
     * @param outcomeUnknown true when the connection was lost during the commit, so the change may have been saved
     */
    StateStoreException(String message, Throwable cause, boolean outcomeUnknown) {
        super(message, cause);
        this.outcomeUnknown = outcomeUnknown;
    }

    /** @return true when the change may or may not have been saved (the connection was lost while committing) */
    public boolean outcomeUnknown() {
        return outcomeUnknown;
    }
}
