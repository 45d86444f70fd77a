package dev.flowform.state;

/**
 * Thrown when a state was opened without creating it ({@link StateStore#openPostgres} with {@code create} false) and
 * the environment has none yet: nothing has been planned or applied in it. Commands that only look at state report it
 * as "No state for environment" rather than creating an empty one.
 */
public final class NoStateException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** @param message where the state was looked for; never holds a password */
    public NoStateException(String message) {
        super(message);
    }
}
