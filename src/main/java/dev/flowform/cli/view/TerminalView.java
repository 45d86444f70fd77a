package dev.flowform.cli.view;

import dev.flowform.cli.Terminal;
import dev.flowform.diag.Diagnostic;
import dev.flowform.run.RunHooks;
import java.util.List;
import java.util.Map;

/**
 * Shows what an operation reports on the {@link Terminal}, as people read it: diagnostics rendered with
 * source snippets (errors on stderr, warnings on stdout), the connection line on stderr (so stdout keeps only
 * the plan), notes on stdout. The base of the apply views, and the whole view of {@code plan}.
 */
public class TerminalView implements RunHooks {

    /** Where everything is printed. */
    protected final Terminal term;

    /** @param term where to print */
    public TerminalView(Terminal term) {
        this.term = term;
    }

    @Override
    public void configurationRead(Map<String, String> sources) {
        term.addSources(sources);
    }

    @Override
    public void diagnostics(List<Diagnostic> diagnostics) {
        term.diagnostics(diagnostics);
    }

    @Override
    public void connecting(String line) {
        term.errorLine(line);
    }

    @Override
    public void note(String level, String message) {
        term.note(level, message);
    }
}
