package dev.flowform.diag;

/** How bad a {@link Diagnostic} is. Errors stop a command (exit 1); warnings are printed and allowed. */
public enum Severity {
    /** Stops the command; nothing is written to the cluster or the state. */
    ERROR,
    /** Printed to the user; the command goes on. */
    WARNING;

    /** @return the lower-case name used in JSON output ({@code "error"} or {@code "warning"}) */
    public String jsonName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
