package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code show FILE --format markdown}, {@code plan --format markdown} and {@code graph} through the CLI, on the
 * quickstart example and the embedded cluster; and the Mermaid graph of docs/quickstart.md, which must be what {@code graph} draws
 * for the quickstart against its seed.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PlanViewsCliTest {

    private static final String SECRET = "Views-Jaas-Secret-6120";

    @TempDir
    Path tmp;
    private Path dir;
    private Path stateDir;
    private final CliRunner cli = CliRunner.fast();

    @BeforeEach
    void copyExample() {
        dir = CliFiles.quickstart(tmp.resolve("quickstart"));
        stateDir = tmp.resolve("state");
    }

    private String[] args(String command, String... more) {
        return CliFiles.args(command, dir, stateDir, more);
    }

    @Test
    void the_markdown_of_a_saved_plan_masks_a_jaas_password_and_equals_what_plan_prints() throws IOException {
        Files.writeString(dir.resolve("dc3.flow.json"), """
                {
                  "variable": {"dc3_password": {"type": "string", "sensitive": true, "default": "%s"}},
                  "replication_flow": {
                    "dc3-to-dc2": {
                      "connect_cluster": "mm2-connect",
                      "source": {"alias": "dc3", "bootstrap_servers": "dc3-kafka-bootstrap:9093",
                                 "config": {"sasl.jaas.config": "org.apache.kafka.common.security.scram.ScramLoginModule required username=\\"mm2\\" password=\\"${var.dc3_password}\\";"}},
                      "target": {"alias": "dc2", "bootstrap_servers": "dc2-kafka-bootstrap:9093"},
                      "topics": ["audit\\\\..*"]
                    }
                  }
                }
                """.formatted(SECRET));
        Path file = tmp.resolve("pr.plan.json");
        CliRunner.Result plan = cli.run(args("plan", "--out", file.toString(), "--format", "markdown", "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);

        CliRunner.Result shown = cli.run(args("show", file.toString(), "--format", "markdown"));
        assertThat(shown.exitCode()).as("%s", shown).isZero();
        assertThat(shown.out()).as("plan --format markdown prints the document alone, as show does").isEqualTo(plan.out());
        assertThat(shown.out()).startsWith("### flowform plan for environment `demo`\n")
                .contains("**Plan:** 2 to add, 2 to change, 0 to destroy, 2 rolling restarts.",
                        "+      spec.config.\"source.cluster.sasl.jaas.config\"",
                        "= (sensitive value)", "| 2 | wait: `WAIT_FOR_ROLL` |", "#### Steps, in order")
                .doesNotContain(SECRET, "encrypted:v1:", "password=", "Saved the plan", tmp.toString());
        assertThat(shown.err()).doesNotContain(SECRET);
    }

    @Test
    void markdown_needs_a_plan_and_does_not_mix_with_json() {
        CliRunner.Result noFile = cli.run(args("show", "--format", "markdown"));
        assertThat(noFile.exitCode()).isEqualTo(1);
        assertThat(noFile.err()).contains("Markdown needs a saved plan");
        CliRunner.Result both = cli.run(args("plan", "--json", "--format", "markdown"));
        assertThat(both.exitCode()).isEqualTo(1);
        assertThat(both.err()).contains("--json and --format markdown select different outputs");
        CliRunner.Result unknown = cli.run(args("graph", "--format", "svg"));
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("--format", "svg");
    }

    @Test
    void graph_draws_the_same_steps_from_the_configuration_and_from_a_saved_plan() {
        CliRunner.Result dot = cli.run(args("graph"));
        assertThat(dot.exitCode()).as("%s", dot).isZero();
        assertThat(dot.out()).startsWith("digraph flowform_plan {").contains("subgraph cluster_1",
                "s2 [shape=hexagon, style=dashed", "s5 -> s6;").endsWith("}\n");

        Path file = tmp.resolve("p.json");
        assertThat(cli.run(args("plan", "--out", file.toString())).exitCode()).isZero();
        CliRunner.Result fromFile = cli.run(args("graph", file.toString(), "--format", "mermaid"));
        CliRunner.Result fromConfig = cli.run(args("graph", "--format", "mermaid"));
        assertThat(fromFile.exitCode()).as("%s", fromFile).isZero();
        assertThat(fromFile.out()).isEqualTo(fromConfig.out()).startsWith("flowchart TD\n");

        CliRunner.Result targeted = cli.run(args("graph", file.toString(), "--target", "connect_cluster.mm2-connect"));
        assertThat(targeted.exitCode()).isEqualTo(1);
        assertThat(targeted.err()).contains("Can't set planning options when drawing a saved plan");
    }

    @Test
    void the_quickstart_page_shows_the_mermaid_graph_of_the_quickstart() throws IOException {
        CliRunner.Result graph = cli.run(args("graph", "--format", "mermaid"));
        assertThat(graph.exitCode()).as("%s", graph).isZero();
        String readme = Files.readString(Path.of("docs", "quickstart.md"));
        Matcher m = Pattern.compile("```mermaid\n(.*?)```", Pattern.DOTALL).matcher(readme);
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertThat(blocks).as("docs/quickstart.md has the quickstart's graph: flowform graph --dir examples/quickstart "
                + "--format mermaid").contains(graph.out());
    }
}
