package dev.flowform.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.SourcePos;
import dev.flowform.diag.SourceRange;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/** Source snippets: marked spans, code point columns, long and multi-line ranges, unsafe characters. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class DiagnosticRendererTest {

    private static SourceRange range(int line, int col, int endLine, int endCol) {
        return new SourceRange("main.flow.json", new SourcePos(line, col), new SourcePos(endLine, endCol));
    }

    private static String render(String text, SourceRange range) {
        Diagnostic d = new Diagnostic(dev.flowform.diag.Severity.ERROR, "Summary", "Detail.", range, "connect_cluster.c");
        return DiagnosticRenderer.render(d, Map.of("main.flow.json", text), Style.PLAIN);
    }

    @Test
    void marks_the_span_under_the_line() {
        assertThat(render("{\n  \"replics\": 3\n}\n", range(2, 3, 2, 12))).isEqualTo("""

                Error: Summary

                  on main.flow.json:2:3, in connect_cluster.c:
                    2 |   "replics": 3
                      |   ^^^^^^^^^

                Detail.
                """);
    }

    @Test
    void counts_columns_in_code_points_and_hides_control_characters() {
        String line = "{\"😀é\": \"\u001b[31mred\", \"x\": 1}";
        int col = line.codePointCount(0, line.indexOf("\"x\"")) + 1;
        String out = render(line, range(1, col, 1, col + 3));
        assertThat(out).contains("    1 | {\"😀é\": \"\uFFFD[31mred\", \"x\": 1}\n")
                .contains("      |                    ^^^\n")
                .doesNotContain("\u001b");
    }

    @Test
    void a_point_at_the_end_of_a_line_is_marked_after_it() {
        assertThat(render("{\"a\": 1", range(1, 8, 1, 8))).contains("    1 | {\"a\": 1\n      |        ^\n");
    }

    @Test
    void a_multi_line_range_marks_each_line_and_folds_long_ones() {
        String text = "{\n  \"c\": {\n    \"a\": 1,\n    \"b\": 2\n  }\n}\n";
        assertThat(render(text, range(2, 3, 3, 11))).contains("""
                    2 |   "c": {
                      |   ^^^^^^
                    3 |     "a": 1,
                      |     ^^^^^^
                """);
        assertThat(render(text, range(2, 8, 5, 4))).contains("""
                    2 |   "c": {
                      |        ^
                    3 |     "a": 1,
                      |     ^^^^^^^
                  ...
                    5 |   }
                      |   ^
                """);
    }

    @Test
    void a_long_line_is_cut_around_the_span() {
        String line = "{\"k\": \"" + "x".repeat(300) + "\", \"bad\": 1}";
        int col = line.codePointCount(0, line.indexOf("\"bad\"")) + 1;
        String out = render(line, range(1, col, 1, col + 5));
        String shown = out.lines().filter(l -> l.startsWith("    1 | ")).findFirst().orElseThrow();
        assertThat(shown).startsWith("    1 | …").endsWith("\"bad\": 1}");
        assertThat(shown.length()).isLessThan(140);
        String marks = out.lines().filter(l -> l.contains("^")).findFirst().orElseThrow();
        assertThat(marks.indexOf('^')).isEqualTo(shown.indexOf("\"bad\""));
    }

    @Test
    void without_source_text_only_the_location_is_shown_and_json_snippets_follow_terraform() {
        Diagnostic d = Diagnostic.warning("W", "", range(1, 1, 1, 2));
        assertThat(DiagnosticRenderer.render(d, Map.of(), Style.PLAIN)).isEqualTo("\nWarning: W\n\n  on main.flow.json:1:1:\n");
        assertThat(DiagnosticRenderer.render(Diagnostic.error("E", "d").withAddress("module.m"), Map.of(), Style.PLAIN))
                .isEqualTo("\nError: E\n\n  with module.m:\n\nd\n");

        Diagnostic multi = Diagnostic.error("E", "d", range(1, 6, 2, 4)).withAddress("x");
        assertThat(DiagnosticRenderer.snippet(multi, Map.of("main.flow.json", "{\"a\": [\n 1]}")))
                .contains(new DiagnosticRenderer.Snippet("x", "{\"a\": [\n 1]}", 1, 5, 11));
        assertThat(DiagnosticRenderer.snippet(multi, Map.of())).isEmpty();
    }
}
