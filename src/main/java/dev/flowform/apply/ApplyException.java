package dev.flowform.apply;

/**
 * A step could not be carried out (the API server refused, the object is missing, the connection failed).
 * The message is written for the user; it names the object and the cause.
 */
public class ApplyException extends RuntimeException {

    private final boolean retryable;

    /**
     * @param message   what failed, for the user
     * @param retryable true when retrying the same request later may succeed (HTTP 409, 429, 5xx, connection reset)
     * @param cause     the underlying error, or null
     */
    public ApplyException(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    /** @return true when retrying may help */
    public boolean retryable() {
        return retryable;
    }
}
