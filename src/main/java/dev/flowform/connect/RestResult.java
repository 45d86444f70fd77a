package dev.flowform.connect;

/**
 * The answer of one Connect REST call.
 *
 * @param status  the HTTP status code; 0 when no worker could be reached
 * @param message Kafka Connect's {@code message} for an error (verbatim), or null on success
 */
public record RestResult(int status, String message) {
    /** @return true for a 2xx status */
    public boolean ok() {
        return status >= 200 && status < 300;
    }

    /**
     * @param status a 2xx status code
     * @return a success
     */
    public static RestResult success(int status) {
        return new RestResult(status, null);
    }
}
