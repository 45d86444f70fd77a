package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.DesiredConnectCluster;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Variable values: default, then the environment's {@code variables}, then {@code --var}; conversions per type. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class VariablePrecedenceTest {

    @TempDir
    Path dir;

    /**
     * @param defaultJson  the default as JSON, or null for none
     * @param envJson      the environment's value as JSON, or null for none
     * @param cli          the {@code --var} text, or null for none
     * @param expected     the replicas the connect_cluster ends up with
     */
    static Stream<Arguments> replicas() {
        return Stream.of(
                Arguments.of("default only", "1", null, null, 1),
                Arguments.of("environment over default", "1", "2", null, 2),
                Arguments.of("--var over environment and default", "1", "2", "3", 3),
                Arguments.of("--var over default", "1", null, "3", 3),
                Arguments.of("environment without default", null, "2", null, 2),
                Arguments.of("--var without default", null, null, "3", 3),
                Arguments.of("--var over environment without default", null, "2", "3", 3),
                Arguments.of("environment string converted to number", null, "\"4\"", null, 4),
                Arguments.of("--var with a decimal point that is whole", null, null, "5.0", 5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("replicas")
    void should_take_the_highest_precedence_value(String name, String defaultJson, String envJson, String cli, int expected) {
        String variable = defaultJson == null ? "{\"type\": \"number\"}" : "{\"type\": \"number\", \"default\": " + defaultJson + "}";
        String variables = envJson == null ? "" : ", \"variables\": {\"replicas\": " + envJson + "}";
        Fixtures.writeMain(dir, "{\"variable\": {\"replicas\": " + variable + "},\n"
                + " \"environment\": {\"demo\": {\"namespace\": \"kafka\"" + variables + "}},\n"
                + " \"connect_cluster\": {\"c\": {\"bootstrap_servers\": \"k:9092\", \"replicas\": \"${var.replicas}\"}}}");

        LoadResult result = new ConfigLoader().load(dir, "demo", cli == null ? Map.of() : Map.of("replicas", cli));

        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        assertThat(result.configuration().clusters().get(0).replicas()).isEqualTo(expected);
    }

    @Test
    void should_convert_command_line_text_to_each_type() {
        Fixtures.writeMain(dir, """
                {
                  "variable": {
                    "flag": {"type": "bool", "default": false},
                    "topics": {"type": "list(string)", "default": []},
                    "labels": {"type": "map(string)", "default": {}},
                    "code": {"type": "string", "default": ""},
                    "loose": {"default": "x"}
                  },
                  "environment": {"demo": {"namespace": "kafka"}},
                  "connect_cluster": {
                    "c": {
                      "bootstrap_servers": "k:9092",
                      "config": {"code": "${var.code}", "loose": "${var.loose}"},
                      "spec": {"labels": "${var.labels}"}
                    }
                  },
                  "replication_flow": {
                    "f": {"manage": "adopt", "connect_cluster": "c", "exactly_once": "${var.flag}", "topics": "${var.topics}"}
                  }
                }""");

        LoadResult result = new ConfigLoader().load(dir, "demo", Map.of(
                "flag", "true", "topics", "[\"orders\", \"payments\"]", "labels", "{\"team\": \"replication\"}",
                "code", "007", "loose", "42"));

        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        DesiredConnectCluster c = result.configuration().clusters().get(0);
        assertThat(c.config()).containsExactly(Map.entry("code", "007"), Map.entry("loose", "42"));
        assertThat(c.spec()).containsExactly(Map.entry("labels", Map.of("team", "replication")));
        ReplicationFlowBlock f = result.configuration().flows().get(0);
        assertThat(f.exactlyOnce()).isTrue();
        assertThat(f.topics()).isEqualTo(List.of("orders", "payments"));
    }

    @Test
    void should_choose_the_only_environment_when_none_is_named() {
        Fixtures.writeMain(dir, "{\"environment\": {\"solo\": {\"namespace\": \"kafka\"}}}");

        LoadResult result = new ConfigLoader().load(dir, null, null);

        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        assertThat(result.configuration().environment().name()).isEqualTo("solo");
        assertThat(result.configuration().environment().kubernetes()).isEqualTo(new KubernetesTarget.Kubeconfig(null, null));
    }

    @Test
    void should_check_the_variables_of_environments_that_are_not_selected() {
        Fixtures.writeMain(dir, """
                {
                  "variable": {"replicas": {"type": "number", "default": 1}},
                  "environment": {
                    "demo": {"namespace": "kafka"},
                    "prod": {"namespace": "kafka", "variables": {"replicas": "many"}}
                  }
                }""");

        LoadResult result = new ConfigLoader().load(dir, "demo", Map.of());

        assertThat(Fixtures.errors(result)).containsExactly("main.flow.json:5:62: Invalid value for input variable: "
                + "Environment \"prod\" sets \"replicas\" to a value that does not fit its type number: expected number, got "
                + "string (a string converts only when it spells a number).");
    }
}
