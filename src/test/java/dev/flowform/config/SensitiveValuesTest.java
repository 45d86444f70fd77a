package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.DesiredConnectCluster;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Sensitive variables: their values are collected, and every configuration key they reach is marked. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class SensitiveValuesTest {

    @TempDir
    Path dir;

    @Test
    void should_mark_every_key_a_sensitive_value_flows_into() {
        Fixtures.writeMain(dir, """
                {
                  "variable": {
                    "password": {"type": "string", "sensitive": true},
                    "hosts": {"type": "list(string)", "sensitive": true, "default": ["east-1:9093", ""]},
                    "user": {"type": "string", "default": "mm2"}
                  },
                  "environment": {"demo": {"namespace": "kafka", "variables": {"password": "hunter2"}}},
                  "connect_cluster": {
                    "c": {
                      "bootstrap_servers": "k:9092",
                      "config": {
                        "producer.sasl.jaas.config": "ScramLoginModule required username=\\"${var.user}\\" password=\\"${var.password}\\";",
                        "producer.sasl.mechanism": "SCRAM-SHA-512"
                      }
                    }
                  },
                  "replication_flow": {
                    "f": {
                      "connect_cluster": "c",
                      "source": {
                        "alias": "east",
                        "bootstrap_servers": "east:${var.password}",
                        "config": {"sasl.jaas.config": "password=${var.password}", "sasl.mechanism": "SCRAM-SHA-512"}
                      },
                      "target": {"alias": "west", "bootstrap_servers": "west:9093", "config": {"ssl.key.password": "${var.password}"}},
                      "topics": "${var.hosts}",
                      "config": {"x.secret": "${var.password}", "plain": "${var.user}"},
                      "connector_config": {"heartbeat": {"h.token": "${var.password}", "h.plain": "1"}}
                    }
                  }
                }""");

        LoadResult result = new ConfigLoader().load(dir, "demo", Map.of());

        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        Configuration config = result.configuration();
        assertThat(config.sensitiveValues()).containsExactlyInAnyOrder("hunter2", "east-1:9093");
        DesiredConnectCluster c = config.clusters().get(0);
        assertThat(c.config().get("producer.sasl.jaas.config")).isEqualTo("ScramLoginModule required username=\"mm2\" password=\"hunter2\";");
        assertThat(c.sensitiveKeys()).containsExactly("producer.sasl.jaas.config");
        ReplicationFlowBlock f = config.flows().get(0);
        assertThat(f.source().sensitiveKeys()).containsExactly("sasl.jaas.config");
        assertThat(f.target().sensitiveKeys()).containsExactly("ssl.key.password");
        assertThat(f.sensitiveKeys()).containsExactly("h.token", "source.cluster.bootstrap.servers", "source.cluster.sasl.jaas.config",
                "target.cluster.ssl.key.password", "topics", "x.secret");
    }

    @Test
    void should_mark_values_given_on_the_command_line() {
        Fixtures.writeMain(dir, """
                {
                  "variable": {"token": {"sensitive": true}},
                  "environment": {"demo": {"namespace": "kafka"}},
                  "connect_cluster": {"c": {"bootstrap_servers": "k:9092", "config": {"auth": "Bearer ${var.token}"}}}
                }""");

        LoadResult result = new ConfigLoader().load(dir, "demo", Map.of("token", "t0k3n"));

        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        assertThat(result.configuration().sensitiveValues()).containsExactly("t0k3n");
        assertThat(result.configuration().clusters().get(0).sensitiveKeys()).containsExactly("auth");
    }

    @Test
    void should_not_echo_sensitive_values_in_errors() {
        Fixtures.writeMain(dir, """
                {
                  "variable": {"mode": {"sensitive": true, "default": "0wn3d"}},
                  "environment": {"demo": {"namespace": "kafka"}},
                  "connect_cluster": {"c": {"bootstrap_servers": "k:9092", "manage": "${var.mode}"}}
                }""");

        LoadResult result = new ConfigLoader().load(dir, "demo", Map.of());

        assertThat(Fixtures.errors(result)).hasSize(1);
        assertThat(Fixtures.errors(result).get(0)).doesNotContain("0wn3d").contains("A sensitive value is not a valid value for \"manage\"");
    }
}
