package dev.flowform.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A pull-request comment longer than the host accepts is cut at a line boundary, still valid Markdown (code blocks
 * and details elements closed) and saying how much was left out; a comment that fits is untouched.
 */
class PlanMarkdownCutTest {

    private static final Pattern NOTICE = Pattern.compile("\\n\\*\\*Cut here:\\*\\* (\\d+) more lines would pass the ");

    private static Plan golden(String name) throws Exception {
        return PlanCodec.decode(Files.readString(Path.of("src", "test", "resources", "golden-plans", name, "plan.json")));
    }

    @Test
    void a_plan_that_fits_is_rendered_whole() throws Exception {
        Plan plan = golden("connectors-absent-created");
        String whole = PlanMarkdown.render(plan);
        assertThat(whole.length()).isLessThan(PlanMarkdown.MAX_COMMENT_CHARS);
        assertThat(PlanMarkdown.render(plan, whole.length())).isEqualTo(whole).doesNotContain("Cut here");
    }

    @Test
    void every_cut_fits_keeps_a_prefix_of_whole_lines_and_closes_what_it_opened() throws Exception {
        for (String name : new String[] {"connectors-absent-created", "eos-absent-rolled", "drift"}) {
            String whole = PlanMarkdown.render(golden(name));
            String[] lines = whole.split("\n", -1);
            for (int limit = 1_000; limit < whole.length(); limit += 97) {
                String cut = PlanMarkdown.render(golden(name), limit);
                assertThat(cut.length()).as("%s at %d", name, limit).isLessThanOrEqualTo(limit);
                Matcher m = NOTICE.matcher(cut);
                assertThat(m.find()).as("%s at %d", name, limit).isTrue();
                int left = Integer.parseInt(m.group(1));
                assertThat(left).isPositive();
                String kept = String.join("\n", Arrays.copyOf(lines, lines.length - left)) + "\n";
                assertThat(cut).startsWith(kept);
                long fences = cut.lines().filter(l -> l.startsWith("```")).count();
                assertThat(fences % 2).as("code blocks closed in %s at %d", name, limit).isZero();
                assertThat(count(cut, "<details>")).isEqualTo(count(cut, "</details>"));
            }
        }
    }

    private static long count(String s, String what) {
        return s.lines().filter(l -> l.startsWith(what)).count();
    }
}
