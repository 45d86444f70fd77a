package dev.flowform.state;

/**
 * The state database failed: it could not be opened or migrated, or a statement failed. Carries
 * the operation and the database location in its message and the {@link java.sql.SQLException}
 * (or I/O error) as cause. Not thrown for usage errors, which are {@link IllegalArgumentException}
 * and {@link IllegalStateException}.
 */
public final class StateStoreException extends RuntimeException {

    /**
     * @param message what failed and where, e.g. {@code journalDone(42) failed on /state/prod/flowform.mv.db: ...}
     * @param cause   the underlying error
     */
    public StateStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
