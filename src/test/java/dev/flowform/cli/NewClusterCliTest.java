package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Connect cluster and flow that do not exist yet (manage = own) on an empty embedded cluster: the
 * cluster is created with exactly.once.source.support=enabled directly, then its connectors; a sensitive
 * variable never shows in output or in the state database.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class NewClusterCliTest {

    private static final String SECRET = "Canary-Secret-99";

    @TempDir
    Path tmp;

    private Path writeConfig() throws IOException {
        Path dir = tmp.resolve("conf");
        Files.createDirectories(dir.resolve("seed"));
        Files.writeString(dir.resolve("main.flow.json"), """
                {
                  "variable": {
                    "sasl_password": { "type": "string", "sensitive": true }
                  },
                  "environment": {
                    "staging": {
                      "kubernetes": { "embedded": { "seed": "./seed" } },
                      "namespace": "replication",
                      "variables": { "sasl_password": "%s" }
                    }
                  },
                  "connect_cluster": {
                    "edge-connect": {
                      "replicas": 2,
                      "version": "3.9.0",
                      "bootstrap_servers": "core-kafka-bootstrap:9093",
                      "config": { "group.id": "edge-connect", "config.storage.replication.factor": 3 }
                    }
                  },
                  "replication_flow": {
                    "edge-to-core": {
                      "connect_cluster": "edge-connect",
                      "source": {
                        "alias": "edge",
                        "bootstrap_servers": "edge-kafka-bootstrap:9093",
                        "config": {
                          "security.protocol": "SASL_SSL",
                          "sasl.mechanism": "SCRAM-SHA-512",
                          "sasl.jaas.config": "org.apache.kafka.common.security.scram.ScramLoginModule required username=\\"mm2\\" password=\\"${var.sasl_password}\\";"
                        }
                      },
                      "target": { "alias": "core", "bootstrap_servers": "core-kafka-bootstrap:9093" },
                      "topics": ["orders\\\\..*"],
                      "tasks_max": 3
                    }
                  }
                }
                """.formatted(SECRET));
        return dir;
    }

    @Test
    void new_cluster_starts_at_enabled_and_secrets_stay_masked() throws IOException {
        Path dir = writeConfig();
        Path state = tmp.resolve("state");
        CliRunner cli = CliRunner.fast();
        String[] common = {"--dir", dir.toString(), "--state-dir", state.toString(), "--no-color"};

        CliRunner.Result plan = cli.run(concat(new String[] {"plan", "--detailed-exitcode"}, common));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(plan.out()).containsSubsequence("CREATE_CONNECT_CLUSTER", "exactly.once.source.support=enabled",
                "WAIT_FOR_ROLL", "CREATE_CONNECTOR", "edge-to-core-source", "WAIT_FOR_CONNECTOR_READY",
                "CREATE_CONNECTOR", "edge-to-core-checkpoint", "WAIT_FOR_CONNECTOR_READY");
        assertThat(plan.out()).contains("Plan: 3 to add, 0 to change, 0 to destroy, 0 rolling restarts.");
        assertThat(plan.out()).containsPattern("\"source\\.cluster\\.sasl\\.jaas\\.config\" += \\(sensitive value\\)");
        assertThat(plan.out() + plan.err()).doesNotContain(SECRET);

        CliRunner.Result apply = cli.run(concat(new String[] {"apply", "--auto-approve"}, common));
        assertThat(apply.exitCode()).as("%s", apply).isEqualTo(0);
        assertThat(apply.out() + apply.err()).doesNotContain(SECRET);

        CliRunner.Result again = cli.run(concat(new String[] {"plan", "--detailed-exitcode"}, common));
        assertThat(again.exitCode()).as("%s", again).isEqualTo(0);

        byte[] db = Files.readAllBytes(state.resolve("staging").resolve("flowform.mv.db"));
        assertThat(new String(db, StandardCharsets.ISO_8859_1)).doesNotContain(SECRET).contains("sha256:");
    }

    private static String[] concat(String[] a, String[] b) {
        List<String> all = new java.util.ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(String[]::new);
    }
}
