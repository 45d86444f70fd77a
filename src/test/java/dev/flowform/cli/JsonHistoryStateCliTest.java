package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.plan.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code apply --json} speaks Terraform's machine-readable UI; {@code history} and {@code state
 * list/show} read back what the apply recorded, secrets masked.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class JsonHistoryStateCliTest {

    @TempDir
    static Path tmp;

    private static Path dir;
    private static Path stateDir;
    private static CliRunner.Result apply;
    private static List<JsonNode> lines;

    @BeforeAll
    static void applyWithJson() {
        dir = CliFiles.quickstart(tmp.resolve("qs"));
        stateDir = tmp.resolve("state");
        apply = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, "--auto-approve", "--json"));
        lines = new ArrayList<>();
        for (String l : apply.out().split("\\R")) {
            if (!l.isBlank()) {
                lines.add(Json.MAPPER.readTree(l));
            }
        }
    }

    private static List<JsonNode> ofType(String type) {
        return lines.stream().filter(n -> n.path("type").asString().equals(type)).toList();
    }

    @Test
    void apply_json_prints_one_terraform_ui_object_per_line() {
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(apply.err()).isEmpty();
        assertThat(lines).isNotEmpty().allSatisfy(n -> {
            assertThat(n.has("@level") && n.has("@message") && n.has("@timestamp") && n.has("type")).as("%s", n).isTrue();
            assertThat(n.path("@module").asString()).isEqualTo("flowform.ui");
        });
        assertThat(lines.get(0).path("type").asString()).isEqualTo("version");
        assertThat(lines).extracting(n -> n.path("type").asString()).containsSubsequence("version", "planned_change",
                "change_summary", "apply_start", "apply_progress", "apply_complete", "change_summary", "outputs");
        assertThat(ofType("planned_change")).extracting(n -> n.at("/change/resource/addr").asString())
                .containsExactly("connect_cluster.mm2-connect", "kafka_connector.dc1-to-dc2-source");
        assertThat(ofType("apply_start")).hasSize(8).first().satisfies(n -> {
            assertThat(n.at("/hook/resource/resource_type").asString()).isEqualTo("connect_cluster");
            assertThat(n.at("/hook/action").asString()).isEqualTo("update");
            assertThat(n.at("/hook/step/kind").asString()).isEqualTo("SET_WORKER_EOS");
            assertThat(n.at("/hook/step/total").asInt()).isEqualTo(8);
        });
        assertThat(ofType("apply_progress")).isNotEmpty().allSatisfy(n -> {
            assertThat(n.at("/hook/elapsed_seconds").isIntegralNumber()).isTrue();
            assertThat(n.at("/hook/progress/detail").asString()).isNotEmpty();
        });
        assertThat(ofType("apply_progress")).anySatisfy(n -> assertThat(n.at("/hook/progress/done").asInt()).isEqualTo(2));
        assertThat(ofType("apply_complete")).hasSize(8);
        assertThat(lines.get(lines.size() - 1).path("type").asString()).as("Terraform ends with the outputs").isEqualTo("outputs");
        JsonNode last = lines.get(lines.size() - 2);
        assertThat(last.path("type").asString()).isEqualTo("change_summary");
        assertThat(last.at("/changes/operation").asString()).isEqualTo("apply");
        assertThat(last.at("/changes/change").asInt()).isEqualTo(2);
        assertThat(last.path("@message").asString()).startsWith("Apply complete!");
    }

    @Test
    void apply_json_without_auto_approve_is_an_error_in_json() {
        CliRunner.Result r = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, "--json"));

        assertThat(r.exitCode()).isEqualTo(1);
        JsonNode diag = Json.MAPPER.readTree(r.out().lines().filter(l -> l.contains("\"diagnostic\"")).findFirst().orElseThrow());
        assertThat(diag.at("/diagnostic/severity").asString()).isEqualTo("error");
        assertThat(diag.at("/diagnostic/summary").asString()).contains("--auto-approve");
    }

    @Test
    void history_lists_runs_with_outcome_duration_who_and_steps() {
        CliRunner.Result human = CliRunner.fast().run(CliFiles.args("history", dir, stateDir));
        CliRunner.Result json = CliRunner.fast().run(CliFiles.args("history", dir, stateDir, "--json"));

        assertThat(human.exitCode()).as("%s", human).isZero();
        assertThat(human.out()).contains("History of environment \"demo\"", "Run 1", "SUCCEEDED", "8 done, 0 failed",
                "SET_WORKER_EOS", "WAIT_FOR_CONNECTOR_READY", "by ");
        JsonNode doc = Json.MAPPER.readTree(json.out());
        assertThat(doc.path("environment").asString()).isEqualTo("demo");
        JsonNode run = doc.path("runs").get(0);
        assertThat(run.path("outcome").asString()).isEqualTo("SUCCEEDED");
        assertThat(run.path("who").asString()).contains("@");
        assertThat(run.path("duration_ms").asLong()).isPositive();
        assertThat(run.path("steps")).hasSize(8);
        assertThat(run.path("steps").get(1).path("kind").asString()).isEqualTo("WAIT_FOR_ROLL");
        assertThat(run.path("steps").get(1).path("status").asString()).isEqualTo("DONE");
        assertThat(run.path("steps").get(1).path("duration_ms").isNumber()).isTrue();
    }

    @Test
    void state_list_and_show_read_the_last_applied_objects_with_secrets_masked() {
        CliRunner.Result list = CliRunner.fast().run(CliFiles.args("state list", dir, stateDir));
        CliRunner.Result show = CliRunner.fast().run(CliFiles.args("state show", dir, stateDir, "kafka_connector.dc1-to-dc2-source"));
        CliRunner.Result missing = CliRunner.fast().run(CliFiles.args("state show", dir, stateDir, "kafka_connector.nope"));

        assertThat(list.out().lines()).containsExactly("connect_cluster.mm2-connect", "kafka_connector.dc1-to-dc2-checkpoint",
                "kafka_connector.dc1-to-dc2-heartbeat", "kafka_connector.dc1-to-dc2-source");
        assertThat(show.exitCode()).isZero();
        assertThat(show.out()).contains("# kafka_connector.dc1-to-dc2-source:", "\"exactly.once.support\" : \"required\"",
                "\"source.cluster.sasl.jaas.config\" : \"(sensitive value)\"").doesNotContain("Fixture-Secret-4417", "sha256:");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("not in the state", "kafka_connector.dc1-to-dc2-source");
    }

    @Test
    void state_commands_say_so_when_an_environment_has_no_state() {
        CliRunner.Result r = CliRunner.fast().run(CliFiles.args("history", dir, stateDir, "-e", "elsewhere"));

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("No state for environment \"elsewhere\"");
    }
}
