package dev.flowform.model;

/**
 * One entry of a Strimzi resource's {@code status.conditions}.
 *
 * @param type    {@code Ready}, {@code NotReady}, {@code Warning} or {@code ReconciliationPaused}
 * @param status  {@code "True"}, {@code "False"} or {@code "Unknown"}
 * @param reason  machine-readable reason (Strimzi uses the exception class name for NotReady), may be null
 * @param message human-readable message, may be null
 */
public record Condition(String type, String status, String reason, String message) {
    /** @return true when {@code status} is {@code "True"} */
    public boolean isTrue() {
        return "True".equalsIgnoreCase(status);
    }
}
