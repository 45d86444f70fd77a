package dev.flowform.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class UnifiedDiffTest {

    private static String lines(int from, int to) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> "line " + i + "\n").collect(Collectors.joining());
    }

    @Test
    void separate_changes_get_separate_hunks_with_three_lines_of_context() {
        String before = lines(1, 20);
        String after = before.replace("line 3\n", "line three\n").replace("line 17\n", "").replace("line 20\n", "line 20\nline 21\n");

        assertThat(UnifiedDiff.diff("a.flow.json", before, after)).isEqualTo("""
                --- old/a.flow.json
                +++ new/a.flow.json
                @@ -1,6 +1,6 @@
                 line 1
                 line 2
                -line 3
                +line three
                 line 4
                 line 5
                 line 6
                @@ -14,7 +14,7 @@
                 line 14
                 line 15
                 line 16
                -line 17
                 line 18
                 line 19
                 line 20
                +line 21
                """);
    }

    @Test
    void equal_texts_give_nothing_and_line_ending_changes_are_named() {
        assertThat(UnifiedDiff.diff("x", "a\n", "a\n")).isEmpty();
        assertThat(UnifiedDiff.diff("/abs/x", "a\r\n", "a\n"))
                .isEqualTo("--- old/abs/x\n+++ new/abs/x\n(only line endings or the final newline differ)\n");
        assertThat(UnifiedDiff.diff("x", "", "a\n")).isEqualTo("--- old/x\n+++ new/x\n@@ -0,0 +1,1 @@\n+a\n");
    }
}
