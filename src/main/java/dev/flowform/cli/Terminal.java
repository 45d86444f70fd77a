package dev.flowform.cli;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import dev.flowform.model.SecretKeys;
import dev.flowform.render.DiagnosticRenderer;
import dev.flowform.render.Style;
import dev.flowform.run.Secrets;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where commands print: picocli's out and err writers, a colour {@link Style}, and a last line of
 * defence that replaces every known secret value ({@link Secrets}) by {@code (sensitive value)}
 * before anything reaches the terminal. Errors go to stderr, everything else to stdout.
 */
public final class Terminal {

    /** Terraform's machine-readable lines, which diagnostics and notes switch to in JSON mode. */
    public interface JsonLines {
        /** Writes one {@code diagnostic} line. */
        void diagnostic(Diagnostic d);

        /** Writes one {@code log} line at {@code level} {@code info}, {@code warn} or {@code error}. */
        void log(String level, String message);
    }

    private final PrintWriter out;
    private final PrintWriter err;
    private final Style style;
    private final Secrets secrets = new Secrets();
    private final Map<String, String> sources = new HashMap<>();
    private JsonLines json;

    /** A terminal on standard output {@code out} and standard error {@code err}. */
    public Terminal(PrintWriter out, PrintWriter err, Style style) {
        this.out = out;
        this.err = err;
        this.style = style;
    }

    /**
     * Switches diagnostics to Terraform's machine-readable form: one {@code "type": "diagnostic"} JSON
     * object per line on stdout, errors included (what {@code apply --json} needs), written through {@code ui}.
     */
    public synchronized void json(JsonLines ui) {
        this.json = ui;
    }

    /** @return true when diagnostics are printed as JSON lines */
    public synchronized boolean isJson() {
        return json != null;
    }

    /** @return the colouring in use */
    public Style style() {
        return style;
    }

    /** @return the redactor every line printed here goes through; what is added to it is masked from then on */
    public Secrets secrets() {
        return secrets;
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

    /**
     * Prints one JSON document as a line on stdout, with secret values removed both as they are and as
     * JSON escapes them (a secret holding quotes appears escaped inside a JSON string).
     */
    public synchronized void printJsonLine(String json) {
        String t = redact(json);
        for (String s : secrets.values()) {
            String escaped = dev.flowform.plan.Json.render(s);
            escaped = escaped.substring(1, escaped.length() - 1);
            if (!escaped.equals(s) && t.contains(escaped)) {
                t = t.replace(escaped, SecretKeys.MASK);
            }
        }
        out.print(t + System.lineSeparator());
        out.flush();
    }

    /** Prints a note: a plain line on stdout, or a {@code log} JSON line at {@code level} ({@code info}, {@code warn}). */
    public void note(String level, String line) {
        JsonLines ui;
        synchronized (this) {
            ui = json;
        }
        if (ui != null) {
            ui.log(level, line);
        } else {
            println(line);
        }
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

    /** Prints diagnostics in the given order: errors to stderr, warnings to stdout (or all as JSON lines). */
    public synchronized void diagnostics(List<Diagnostic> diags) {
        for (Diagnostic d : diags) {
            if (json != null) {
                json.diagnostic(d);
                continue;
            }
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

    /**
     * Replaces every registered secret value in {@code text} by {@code (sensitive value)}: what every
     * line printed here goes through, and what the state journal's details go through before they are
     * stored. Null stays null.
     */
    public String redact(String text) {
        return secrets.redact(text);
    }
}
