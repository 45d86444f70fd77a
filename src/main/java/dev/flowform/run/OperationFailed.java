package dev.flowform.run;

/**
 * Ends an operation after its error was reported to the {@link RunHooks}: the command exits 1 and prints
 * nothing more about it.
 */
public final class OperationFailed extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** An operation failed; the reason was reported. */
    public OperationFailed() {
        super(null, null, false, false);
    }
}
