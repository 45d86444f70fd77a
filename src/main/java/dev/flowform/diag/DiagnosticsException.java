package dev.flowform.diag;

/**
 * Carries diagnostics out of a deep call when the only sensible thing is to stop the command.
 *
 * <p>The CLI catches it, prints the diagnostics and exits 1. Used sparingly: stages normally return
 * their {@link Diagnostics}.
 */
public final class DiagnosticsException extends RuntimeException {

    private final transient Diagnostics diagnostics;

    /** @param diagnostics what went wrong; must contain at least one error */
    public DiagnosticsException(Diagnostics diagnostics) {
        super(diagnostics.list().isEmpty() ? "error" : diagnostics.list().get(0).summary(), null, false, false);
        this.diagnostics = diagnostics;
    }

    /** @param d a single error */
    public DiagnosticsException(Diagnostic d) {
        this(new Diagnostics().add(d));
    }

    /** @return the diagnostics to print */
    public Diagnostics diagnostics() {
        return diagnostics;
    }
}
