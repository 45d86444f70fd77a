package dev.flowform.cli;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import dev.flowform.model.SecretKeys;
import dev.flowform.render.DiagnosticRenderer;
import dev.flowform.render.Style;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where commands print: picocli's out and err writers, a colour {@link Style}, and a last line of
 * defence that replaces every known secret value (sensitive variables) by {@code (sensitive value)}
 * before anything reaches the terminal. Errors go to stderr, everything else to stdout.
 */
public final class Terminal {

    private final PrintWriter out;
    private final PrintWriter err;
    private final Style style;
    private final Set<String> secrets = new TreeSet<>(Comparator.comparingInt(String::length).reversed()
            .thenComparing(Comparator.naturalOrder()));
    private final Map<String, String> sources = new HashMap<>();

    /**
     * @param out   standard output
     * @param err   standard error
     * @param style colouring
     */
    public Terminal(PrintWriter out, PrintWriter err, Style style) {
        this.out = out;
        this.err = err;
        this.style = style;
    }

    /** @return the colouring in use */
    public Style style() {
        return style;
    }

    /** Registers secret values to mask in all later output (values shorter than 4 characters are ignored). */
    public synchronized void addSecrets(Set<String> values) {
        for (String v : values) {
            if (v != null && v.length() >= 4) {
                secrets.add(v);
            }
        }
    }

    /** Registers configuration file texts, so diagnostics can show source snippets. */
    public synchronized void addSources(Map<String, String> filenameToText) {
        sources.putAll(filenameToText);
    }

    /** Prints {@code text} to stdout as is (add the newline yourself). */
    public synchronized void print(String text) {
        out.print(redact(text));
        out.flush();
    }

    /** Prints one line to stdout. */
    public synchronized void println(String line) {
        print(line + System.lineSeparator());
    }

    /** Prints one line to stderr. */
    public synchronized void errorLine(String line) {
        err.print(redact(line) + System.lineSeparator());
        err.flush();
    }

    /** Prints an error diagnostic built from a summary and detail to stderr. */
    public void error(String summary, String detail) {
        diagnostics(List.of(Diagnostic.error(summary, detail)));
    }

    /** Prints diagnostics sorted by file and position: errors to stderr, warnings to stdout. */
    public void diagnostics(Diagnostics diags) {
        diagnostics(diags.sorted());
    }

    /** Prints diagnostics in the given order: errors to stderr, warnings to stdout. */
    public synchronized void diagnostics(List<Diagnostic> diags) {
        for (Diagnostic d : diags) {
            String text = DiagnosticRenderer.render(d, sources, style);
            if (d.isError()) {
                err.print(redact(text));
                err.flush();
            } else {
                out.print(redact(text));
                out.flush();
            }
        }
    }

    private String redact(String text) {
        String t = text;
        for (String s : secrets) {
            if (t.contains(s)) {
                t = t.replace(s, SecretKeys.MASK);
            }
        }
        return t;
    }
}
