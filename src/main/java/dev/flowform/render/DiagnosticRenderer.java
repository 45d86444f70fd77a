package dev.flowform.render;

import dev.flowform.diag.Diagnostic;
import java.util.List;
import java.util.Map;

/**
 * Renders diagnostics the way Terraform does: {@code Error: summary}, the location, an optional
 * source snippet with the offending span marked, then the detail.
 */
public final class DiagnosticRenderer {

    private DiagnosticRenderer() {
    }

    /**
     * @param d       the diagnostic
     * @param sources file name to file text, for snippets (may be empty)
     * @param style   colouring
     * @return the rendered block, ending with a newline
     */
    public static String render(Diagnostic d, Map<String, String> sources, Style style) {
        StringBuilder sb = new StringBuilder();
        String head = d.isError() ? style.red(style.bold("Error: ")) : style.yellow(style.bold("Warning: "));
        sb.append('\n').append(head).append(style.bold(d.summary())).append('\n');
        if (d.range() != null) {
            sb.append("\n  on ").append(d.range()).append(d.address() == null ? "" : ", in " + d.address()).append(":\n");
            String text = sources.get(d.range().filename());
            if (text != null) {
                List<String> lines = text.lines().toList();
                int line = d.range().start().line();
                if (line >= 1 && line <= lines.size()) {
                    String src = lines.get(line - 1);
                    sb.append(String.format("  %4d: %s%n", line, src));
                    int col = Math.max(1, d.range().start().column());
                    int endCol = d.range().end().line() == line ? Math.max(col + 1, d.range().end().column()) : src.length() + 1;
                    sb.append("        ").append(" ".repeat(Math.min(col - 1, src.length())))
                            .append("^".repeat(Math.max(1, Math.min(endCol, src.length() + 1) - col))).append('\n');
                }
            }
        } else if (d.address() != null) {
            sb.append("\n  with ").append(d.address()).append(":\n");
        }
        if (!d.detail().isEmpty()) {
            sb.append('\n');
            for (String l : Text.wrap(d.detail(), 100)) {
                sb.append(l.isEmpty() ? "" : l).append('\n');
            }
        }
        return sb.toString();
    }
}
