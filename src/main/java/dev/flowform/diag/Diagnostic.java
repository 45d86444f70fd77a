package dev.flowform.diag;

import java.util.Objects;

/**
 * One problem found while loading configuration, reading the cluster, planning or applying.
 *
 * @param severity error or warning
 * @param summary  one line, no trailing period needed, e.g. {@code Unsupported argument}
 * @param detail   what was expected and how to fix it; may be empty
 * @param range    where in a configuration file, or {@code null} for problems not tied to a file
 * @param address  the resource address concerned (e.g. {@code connect_cluster.west}), or {@code null}
 */
public record Diagnostic(Severity severity, String summary, String detail, SourceRange range, String address) {

    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(summary, "summary");
        detail = detail == null ? "" : detail;
    }

    /** @return an error located in a file */
    public static Diagnostic error(String summary, String detail, SourceRange range) {
        return new Diagnostic(Severity.ERROR, summary, detail, range, null);
    }

    /** @return an error not tied to a file */
    public static Diagnostic error(String summary, String detail) {
        return new Diagnostic(Severity.ERROR, summary, detail, null, null);
    }

    /** @return a warning located in a file */
    public static Diagnostic warning(String summary, String detail, SourceRange range) {
        return new Diagnostic(Severity.WARNING, summary, detail, range, null);
    }

    /** @return a warning not tied to a file */
    public static Diagnostic warning(String summary, String detail) {
        return new Diagnostic(Severity.WARNING, summary, detail, null, null);
    }

    /** @return a copy of this diagnostic about {@code address} */
    public Diagnostic withAddress(String address) {
        return new Diagnostic(severity, summary, detail, range, address);
    }

    /** @return true for {@link Severity#ERROR} */
    public boolean isError() {
        return severity == Severity.ERROR;
    }
}
