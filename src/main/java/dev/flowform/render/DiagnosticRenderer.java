package dev.flowform.render;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.SourceRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Renders diagnostics as Terraform does: {@code Error:} or {@code Warning:} and the summary, the location, the source
 * lines with the range marked by {@code ^}, then the detail wrapped at {@value #WRAP} columns. Long ranges and lines
 * are cut (at most {@value #MAX_LINES} lines, {@value #MAX_WIDTH} code points around the range); tabs and control or
 * bidirectional characters are replaced so a snippet cannot move the cursor or reorder text. Pure.
 */
public final class DiagnosticRenderer {

    /** Width the detail is wrapped at, in characters. */
    public static final int WRAP = 100;

    /** Most source lines a snippet shows in full. */
    public static final int MAX_LINES = 3;

    /** Longest source line shown whole, in code points. */
    public static final int MAX_WIDTH = 120;

    private static final int WINDOW_BEFORE = 40;

    private DiagnosticRenderer() {
    }

    /**
     * The source lines a diagnostic points at, in the shape of Terraform's {@code validate -json}
     * {@code snippet} object.
     *
     * @param context              the address the diagnostic is about, or null
     * @param code                 the source lines the range covers (at most {@value #MAX_LINES} + 1 of them), joined
     *                             with {@code \n}, unsanitised
     * @param startLine            the 1-based line number of the first line of {@code code}
     * @param highlightStartOffset where the range starts in {@code code}, in code points
     * @param highlightEndOffset   where the range ends in {@code code}, in code points (exclusive)
     */
    public record Snippet(String context, String code, int startLine, int highlightStartOffset, int highlightEndOffset) {
    }

    /** @return the snippet of {@code d}, or empty when it has no range or its file is not among {@code sources} */
    public static Optional<Snippet> snippet(Diagnostic d, Map<String, String> sources) {
        List<int[]> lines = lines(d, sources);
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        SourceRange r = d.range();
        int last = Math.min(r.end().line(), r.start().line() + MAX_LINES);
        StringBuilder code = new StringBuilder();
        int offset = 0;
        int start = 0;
        int end = 0;
        for (int n = r.start().line(); n <= last && n <= lines.size(); n++) {
            int[] line = lines.get(n - 1);
            if (n > r.start().line()) {
                code.append('\n');
                offset++;
            }
            if (n == r.start().line()) {
                start = offset + Math.min(line.length, Math.max(0, r.start().column() - 1));
            }
            if (n == r.end().line()) {
                end = offset + Math.min(line.length, Math.max(0, r.end().column() - 1));
            } else {
                end = offset + line.length;
            }
            code.append(new String(line, 0, line.length));
            offset += line.length;
        }
        return Optional.of(new Snippet(d.address(), code.toString(), r.start().line(), start, Math.max(start, end)));
    }

    /** @return {@code d} rendered, snippet from {@code sources} (file name to text), starting with an empty line */
    public static String render(Diagnostic d, Map<String, String> sources, Style style) {
        StringBuilder sb = new StringBuilder();
        String head = d.isError() ? style.red(style.bold("Error: ")) : style.yellow(style.bold("Warning: "));
        sb.append('\n').append(head).append(style.bold(d.summary())).append('\n');
        if (d.range() != null) {
            sb.append("\n  on ").append(d.range()).append(d.address() == null ? "" : ", in " + d.address()).append(":\n");
            appendSnippet(sb, d, lines(d, sources), style);
        } else if (d.address() != null) {
            sb.append("\n  with ").append(d.address()).append(":\n");
        }
        if (!d.detail().isEmpty()) {
            sb.append('\n');
            for (String para : d.detail().split("\n", -1)) {
                // an indented line is a command or a table row to copy as it is: never wrapped
                for (String l : para.startsWith("  ") ? List.of(para) : Text.wrap(para, WRAP)) {
                    sb.append(l).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** @return the file's lines as code points, or empty when there is nothing to show for {@code d} */
    private static List<int[]> lines(Diagnostic d, Map<String, String> sources) {
        if (d.range() == null) {
            return List.of();
        }
        String text = sources.get(d.range().filename());
        if (text == null) {
            return List.of();
        }
        List<int[]> lines = new ArrayList<>();
        text.lines().forEach(l -> lines.add(l.codePoints().toArray()));
        if (lines.isEmpty() || text.endsWith("\n") || text.endsWith("\r")) {
            lines.add(new int[0]);
        }
        int line = d.range().start().line();
        if (line < 1 || line > lines.size()) {
            return List.of();
        }
        return lines;
    }

    private static void appendSnippet(StringBuilder sb, Diagnostic d, List<int[]> lines, Style style) {
        if (lines.isEmpty()) {
            return;
        }
        SourceRange r = d.range();
        int first = r.start().line();
        int endLine = r.end().line() > first && r.end().column() <= 1 ? r.end().line() - 1 : r.end().line();
        int last = Math.max(first, Math.min(endLine, lines.size()));
        List<Integer> shown = new ArrayList<>();
        if (last - first + 1 <= MAX_LINES) {
            for (int n = first; n <= last; n++) {
                shown.add(n);
            }
        } else {
            shown.add(first);
            shown.add(first + 1);
            shown.add(-1);
            shown.add(last);
        }
        int width = Math.max(3, Integer.toString(last).length());
        for (int n : shown) {
            if (n < 0) {
                sb.append("  ").append(" ".repeat(width - 3)).append("...\n");
                continue;
            }
            int[] line = lines.get(n - 1);
            int from = n == first ? clamp(r.start().column() - 1, line.length) : firstNonBlank(line);
            int to = n == r.end().line() ? clamp(r.end().column() - 1, line.length) : line.length;
            if (n == first && r.end().line() > first && last == first) {
                to = line.length;
            }
            if (n == first && n == r.end().line() && to <= from) {
                to = from + 1;
            }
            if (n != first && to <= from) {
                from = Math.min(from, to);
            }
            appendLine(sb, n, width, line, from, Math.max(from, to), d.isError(), style);
        }
    }

    private static void appendLine(StringBuilder sb, int number, int width, int[] line, int from, int to, boolean error,
                                   Style style) {
        int windowStart = 0;
        int windowEnd = line.length;
        if (line.length > MAX_WIDTH) {
            windowStart = Math.max(0, Math.min(from - WINDOW_BEFORE, line.length - MAX_WIDTH));
            windowEnd = Math.min(line.length, windowStart + MAX_WIDTH);
        }
        StringBuilder code = new StringBuilder();
        StringBuilder marks = new StringBuilder();
        if (windowStart > 0) {
            code.append('…');
            marks.append(' ');
        }
        for (int i = windowStart; i < windowEnd; i++) {
            code.appendCodePoint(printable(line[i]));
            marks.append(i >= from && i < to ? '^' : ' ');
        }
        if (to > windowEnd || from >= windowEnd) {
            marks.append('^');
        }
        if (windowEnd < line.length) {
            code.append('…');
        }
        sb.append("  ").append(String.format("%" + width + "d", number)).append(" | ").append(code).append('\n');
        String markText = marks.toString().stripTrailing();
        if (!markText.isBlank()) {
            String spaces = markText.substring(0, markText.indexOf('^'));
            String carets = markText.substring(markText.indexOf('^'));
            sb.append("  ").append(" ".repeat(width)).append(" | ").append(spaces).append(error ? style.red(carets) : style.yellow(carets)).append('\n');
        }
    }

    private static int clamp(int column, int length) {
        return Math.max(0, Math.min(column, length));
    }

    private static int firstNonBlank(int[] line) {
        for (int i = 0; i < line.length; i++) {
            if (!Character.isWhitespace(line[i])) {
                return i;
            }
        }
        return 0;
    }

    /** @return the code point as shown: tabs as a space, control and bidi formatting characters as U+FFFD */
    static int printable(int cp) {
        if (cp == '\t') {
            return ' ';
        }
        int type = Character.getType(cp);
        if (type == Character.CONTROL || type == Character.FORMAT || type == Character.SURROGATE
                || type == Character.UNASSIGNED || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
            return 0xFFFD;
        }
        return cp;
    }
}
