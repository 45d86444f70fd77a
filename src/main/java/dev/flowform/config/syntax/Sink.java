package dev.flowform.config.syntax;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import dev.flowform.diag.SourceRange;

/** Where decoding reports problems: shared diagnostics plus the address of the block being decoded. */
public final class Sink {

    private final Diagnostics diagnostics;
    private final String address;

    /** @param diagnostics collects everything reported through this sink and its {@link #at} copies */
    public Sink(Diagnostics diagnostics) {
        this(diagnostics, null);
    }

    private Sink(Diagnostics diagnostics, String address) {
        this.diagnostics = diagnostics;
        this.address = address;
    }

    /** @return a sink writing to the same diagnostics that tags them with {@code address} */
    public Sink at(String address) {
        return new Sink(diagnostics, address);
    }

    /** Reports an error; {@code range} may be null for problems not tied to a file. */
    public void error(String summary, String detail, SourceRange range) {
        diagnostics.add(new Diagnostic(dev.flowform.diag.Severity.ERROR, summary, detail, range, address));
    }

    /** Reports a warning located at {@code range}. */
    public void warning(String summary, String detail, SourceRange range) {
        diagnostics.add(new Diagnostic(dev.flowform.diag.Severity.WARNING, summary, detail, range, address));
    }

    /** @return the number of errors reported so far (through any sink sharing these diagnostics) */
    public long errorCount() {
        return diagnostics.errorCount();
    }
}
