package dev.flowform.connect;

/** Raised by a {@link ConnectRuntime} when it cannot do what it was asked at all (a worker fails to launch). */
public final class ConnectRuntimeException extends RuntimeException {
    /**
     * @param message what failed
     * @param cause   the underlying error, or null
     */
    public ConnectRuntimeException(String message, Throwable cause) {
        super(message, cause);
    }
}
