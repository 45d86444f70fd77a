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

/**
 * Strings as templates: typed whole-string references, concatenation, the {@code $${} escape, Kafka
 * config provider placeholders passed through verbatim, and how scalars render as config strings.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class InterpolationTest {

    @TempDir
    Path dir;

    private static final String VARIABLES = """
              "variable": {
                "s": {"type": "string", "default": "3"},
                "n": {"type": "number", "default": 3},
                "b": {"type": "bool", "default": true},
                "l": {"type": "list(string)", "default": ["a", "b"]},
                "m": {"type": "map(string)", "default": {"x": "y"}},
                "untyped": {"default": "7"},
                "nothing": {"type": "string", "default": null}
              },
              "environment": {"demo": {"namespace": "kafka"}},
            """;

    private Configuration load(String blocks) {
        Fixtures.writeMain(dir, "{\n" + VARIABLES + blocks + "\n}");
        LoadResult result = new ConfigLoader().load(dir, "demo", Map.of());
        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        return result.configuration();
    }

    private String configValue(String json) {
        Configuration config = load("\"connect_cluster\": {\"c\": {\"bootstrap_servers\": \"k:9092\", \"config\": {\"k\": "
                + json + "}}}");
        return config.clusters().get(0).config().get("k");
    }

    static Stream<Arguments> configValues() {
        return Stream.of(
                Arguments.of("\"${var.s}\"", "3"),
                Arguments.of("\"${var.n}\"", "3"),
                Arguments.of("\"${var.b}\"", "true"),
                Arguments.of("\"${var.untyped}\"", "7"),
                Arguments.of("\"pre-${var.s}-post\"", "pre-3-post"),
                Arguments.of("\"${var.s}${var.n}${var.b}\"", "33true"),
                Arguments.of("\"${ var.s }\"", "3"),
                Arguments.of("\"$${var.s}\"", "${var.s}"),
                Arguments.of("\"$$${var.s}\"", "$${var.s}"),
                Arguments.of("\"$${secrets:kafka/creds:password}\"", "${secrets:kafka/creds:password}"),
                Arguments.of("\"${secrets:kafka/creds:password}\"", "${secrets:kafka/creds:password}"),
                Arguments.of("\"${cfmap:kafka/connect-cm:bootstrap}\"", "${cfmap:kafka/connect-cm:bootstrap}"),
                Arguments.of("\"${file:/opt/kafka/custom.properties:sasl.password}\"", "${file:/opt/kafka/custom.properties:sasl.password}"),
                Arguments.of("\"${strimzidir:/opt/kafka/external-configuration/creds:password}\"",
                        "${strimzidir:/opt/kafka/external-configuration/creds:password}"),
                Arguments.of("\"${env:KAFKA_PASSWORD}\"", "${env:KAFKA_PASSWORD}"),
                Arguments.of("\"user=${var.s} password=${secrets:ns/s:pw}\"", "user=3 password=${secrets:ns/s:pw}"),
                Arguments.of("\"${secrets:unterminated\"", "${secrets:unterminated"),
                Arguments.of("\"${}\"", "${}"),
                Arguments.of("\"%{if x}\"", "%{if x}"),
                Arguments.of("\"héllo wörld 😀\"", "héllo wörld 😀"),
                Arguments.of("1.50", "1.5"),
                Arguments.of("3.0", "3"),
                Arguments.of("1e3", "1000"),
                Arguments.of("-0.0", "0"),
                Arguments.of("12345678901234567890123", "12345678901234567890123"),
                Arguments.of("0.000001", "0.000001"),
                Arguments.of("true", "true"),
                Arguments.of("false", "false"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("configValues")
    void should_render_config_values_as_strings(String json, String expected) {
        assertThat(configValue(json)).isEqualTo(expected);
    }

    @Test
    void should_yield_the_typed_value_for_a_whole_string_reference() {
        Configuration config = load("""
                "connect_cluster": {
                  "c": {
                    "bootstrap_servers": "k:9092",
                    "replicas": "${var.n}",
                    "spec": {"template": "${var.m}", "list": "${var.l}", "count": "${var.n}", "flag": "${var.b}"}
                  },
                  "d": {"bootstrap_servers": "${var.nothing}", "manage": "adopt", "replicas": "${var.s}"}
                },
                "replication_flow": {
                  "f": {
                    "manage": "adopt",
                    "connect_cluster": "c",
                    "topics": "${var.l}",
                    "groups": "${var.s}",
                    "topics_exclude": ["x", "${var.n}"],
                    "exactly_once": "${var.b}",
                    "tasks_max": "${var.s}"
                  }
                }""");

        DesiredConnectCluster c = config.clusters().get(0);
        assertThat(c.replicas()).isEqualTo(3);
        assertThat(c.spec()).containsExactly(
                Map.entry("template", Map.of("x", "y")),
                Map.entry("list", List.of("a", "b")),
                Map.entry("count", 3L),
                Map.entry("flag", true));
        DesiredConnectCluster d = config.clusters().get(1);
        assertThat(d.bootstrapServers()).as("null leaves the argument unset").isNull();
        assertThat(d.replicas()).as("a string that spells a number converts").isEqualTo(3);
        ReplicationFlowBlock f = config.flows().get(0);
        assertThat(f.topics()).containsExactly("a", "b");
        assertThat(f.groups()).as("a single string is a one-element list").containsExactly("3");
        assertThat(f.topicsExclude()).containsExactly("x", "3");
        assertThat(f.exactlyOnce()).isTrue();
        assertThat(f.tasksMax()).isEqualTo(3);
    }

    @Test
    void should_keep_raw_spec_values_with_nesting_and_big_numbers() {
        Configuration config = load("""
                "connect_cluster": {
                  "c": {
                    "bootstrap_servers": "k:9092",
                    "spec": {
                      "template": {"pod": {"metadata": {"labels": {"team": "${var.s}"}}}},
                      "big": 123456789012345678901234567890,
                      "fraction": 0.25,
                      "nothing": null,
                      "items": [1, "two", false, null]
                    }
                  }
                }""");

        Map<String, Object> spec = config.clusters().get(0).spec();
        assertThat(spec.get("template")).isEqualTo(Map.of("pod", Map.of("metadata", Map.of("labels", Map.of("team", "3")))));
        assertThat(spec.get("big")).isEqualTo(new java.math.BigInteger("123456789012345678901234567890"));
        assertThat(spec.get("fraction")).isEqualTo(new java.math.BigDecimal("0.25"));
        assertThat(spec).containsEntry("nothing", null);
        assertThat(spec.get("items")).isEqualTo(java.util.Arrays.asList(1L, "two", false, null));
    }
}
