package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.ResourceSnapshot;
import dev.flowform.state.StateStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Done-means 4: known secret strings in the configuration (sensitive variables, one of them in a key
 * that does not look secret), in the live cluster (JAAS passwords of connectors, a worker password) and
 * in the kubeconfig (the bearer token) never appear in stdout, stderr, the saved plan file or any file of
 * the state folder (the raw H2 database included), after plan (text, --json, --out), show (of the plan file
 * and of the state), apply of the saved plan, history, state list/show, a failed apply --json and the
 * apply that completes it.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class CanarySecretTest {

    private static final String VAR_PASSWORD = "Canary-Var-3f9b27";
    private static final String VAR_PASSWORD_2 = "Canary-Var2-77aa10";
    private static final String VAR_TAG = "Canary-Tag-81d4e0";
    private static final String LIVE_PASSWORD = "Canary-Live-5be2c0";
    private static final String WORKER_PASSWORD = "Canary-Worker-91d2ab";
    private static final String TOKEN = "Canary-Token-c0ffee";
    private static final List<String> CANARIES = List.of(VAR_PASSWORD, VAR_PASSWORD_2, VAR_TAG, LIVE_PASSWORD,
            WORKER_PASSWORD, TOKEN);

    @TempDir
    Path tmp;

    private Path seed() throws IOException {
        Path seed = tmp.resolve("seed");
        Files.createDirectories(seed);
        String text = Files.readString(Path.of("examples", "quickstart", "seed", "mm2-connect.yaml"))
                .replace("Fixture-Secret-4417", LIVE_PASSWORD)
                .replace("    config.providers.secrets.class: io.strimzi.kafka.KubernetesSecretConfigProvider\nstatus:",
                        "    config.providers.secrets.class: io.strimzi.kafka.KubernetesSecretConfigProvider\n"
                                + "    ssl.truststore.password: " + WORKER_PASSWORD + "\nstatus:");
        assertThat(text).contains(LIVE_PASSWORD, WORKER_PASSWORD);
        Files.writeString(seed.resolve("seed.yaml"), text);
        return seed;
    }

    private Path config(EmbeddedCluster cluster, String extraConnectorConfig) throws IOException {
        Path dir = tmp.resolve("conf");
        Files.createDirectories(dir);
        CanaryKubeconfig.write(dir.resolve("kubeconfig.yaml"), cluster, TOKEN);
        Files.writeString(dir.resolve("main.flow.json"), """
                {
                  "variable": {
                    "dc1_password": { "type": "string", "sensitive": true },
                    "client_tag": { "type": "string", "sensitive": true }
                  },
                  "environment": {
                    "prod": { "kubernetes": { "kubeconfig": "%s", "context": "canary" }, "namespace": "replication" }
                  },
                  "connect_cluster": { "mm2-connect": { "manage": "adopt" } },
                  "replication_flow": {
                    "dc1-to-dc2": {
                      "manage": "adopt",
                      "connect_cluster": "mm2-connect",
                      "source": {
                        "alias": "dc1",
                        "config": {
                          "sasl.jaas.config": "org.apache.kafka.common.security.scram.ScramLoginModule required username=\\"mm2-dc1\\" password=\\"${var.dc1_password}\\";"
                        }
                      },
                      "target": { "alias": "dc2" },
                      "exactly_once": true,
                      "config": { "client.rack.tag": "${var.client_tag}"%s }
                    }
                  }
                }
                """.formatted(dir.resolve("kubeconfig.yaml").toString().replace("\\", "\\\\"), extraConnectorConfig));
        return dir;
    }

    @Test
    void no_secret_reaches_the_output_or_the_state_files() throws IOException {
        List<String> outputs = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        Map<String, Integer> exits = new LinkedHashMap<>();
        Path stateDir = tmp.resolve("state");
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed())
                .settings(SimSettings.fast()).build())) {
            Path dir = config(cluster, "");
            CliRunner cli = CliRunner.fast();
            String[] vars = {"--var", "dc1_password=" + VAR_PASSWORD, "--var", "client_tag=" + VAR_TAG};

            Path planFile = tmp.resolve("saved.plan.json");
            run(cli, outputs, exits, "plan", CliFiles.args("plan", dir, stateDir, vars));
            run(cli, outputs, exits, "plan --json", CliFiles.args("plan", dir, stateDir, concat(vars, "--json")));
            run(cli, outputs, exits, "plan --out", CliFiles.args("plan", dir, stateDir, concat(vars, "--out", planFile.toString())));
            run(cli, outputs, exits, "show FILE", CliFiles.args("show", dir, stateDir, concat(vars, planFile.toString())));
            run(cli, outputs, exits, "show FILE --json", CliFiles.args("show", dir, stateDir,
                    concat(vars, "--json", planFile.toString())));
            run(cli, outputs, exits, "show FILE --format markdown", CliFiles.args("show", dir, stateDir,
                    concat(vars, "--format", "markdown", planFile.toString())));
            run(cli, outputs, exits, "plan --format markdown", CliFiles.args("plan", dir, stateDir,
                    concat(vars, "--format", "markdown")));
            run(cli, outputs, exits, "graph", CliFiles.args("graph", dir, stateDir, vars));
            run(cli, outputs, exits, "graph FILE --format mermaid", CliFiles.args("graph", dir, stateDir,
                    concat(vars, "--format", "mermaid", planFile.toString())));
            run(cli, outputs, exits, "apply FILE", CliFiles.args("apply", dir, stateDir, concat(vars, planFile.toString())));
            run(cli, outputs, exits, "plan again", CliFiles.args("plan", dir, stateDir, concat(vars, "--detailed-exitcode")));
            run(cli, outputs, exits, "show", CliFiles.args("show", dir, stateDir, vars));
            run(cli, outputs, exits, "history", CliFiles.args("history", dir, stateDir, vars));
            run(cli, outputs, exits, "history --json", CliFiles.args("history", dir, stateDir, concat(vars, "--json")));
            run(cli, outputs, exits, "state list", CliFiles.args("state list", dir, stateDir, vars));
            try (StateStore state = StateStore.open(stateDir, "prod", Clock.systemUTC())) {
                for (ResourceSnapshot r : state.snapshots().all()) {
                    run(cli, outputs, exits, "state show " + r.address(), CliFiles.args("state show", dir, stateDir,
                            concat(vars, r.address())));
                }
            }

            // a failure: the password changes and the API server refuses the connector update
            String[] vars2 = {"--var", "dc1_password=" + VAR_PASSWORD_2, "--var", "client_tag=" + VAR_TAG};
            cluster.faults().failNextWrites(1, 422);
            run(cli, outputs, exits, "failing apply --json", CliFiles.args("apply", dir, stateDir,
                    concat(vars2, "--auto-approve", "--json")));
            run(cli, outputs, exits, "apply after the failure", CliFiles.args("apply", dir, stateDir,
                    concat(vars2, "--auto-approve")));
            run(cli, outputs, exits, "history after the failure", CliFiles.args("history", dir, stateDir, vars2));
            files.add(planFile);
        }

        assertThat(exits).as("%s", outputs).containsEntry("plan", 0).containsEntry("plan --out", 0).containsEntry("show FILE", 0)
                .containsEntry("apply FILE", 0).containsEntry("plan again", 0).containsEntry("show", 0)
                .containsEntry("history", 0).containsEntry("failing apply --json", 1).containsEntry("apply after the failure", 0)
                .containsEntry("history after the failure", 0).containsEntry("show FILE --format markdown", 0)
                .containsEntry("plan --format markdown", 0).containsEntry("graph", 0)
                .containsEntry("graph FILE --format mermaid", 0);
        String all = String.join("\n", outputs);
        assertThat(all).as("the runs did handle the secret-bearing keys").contains("source.cluster.sasl.jaas.config",
                "(sensitive value)", "apply_errored", "HTTP 422", "FAILED");
        for (String canary : CANARIES) {
            assertThat(all).as("stdout/stderr of every command").doesNotContain(canary);
        }
        try (Stream<Path> s = Files.walk(stateDir)) {
            files.addAll(s.filter(Files::isRegularFile).toList());
        }
        assertThat(files).anyMatch(f -> f.getFileName().toString().equals("flowform.mv.db"))
                .anyMatch(f -> f.getFileName().toString().equals("saved.plan.json"));
        for (Path f : files) {
            String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            for (String canary : CANARIES) {
                assertThat(bytes.contains(canary)).as("%s in %s", canary, f).isFalse();
            }
        }
    }

    private static void run(CliRunner cli, List<String> outputs, Map<String, Integer> exits, String name, String[] args) {
        CliRunner.Result r = cli.run(args);
        exits.put(name, r.exitCode());
        outputs.add("### " + name + " (exit " + r.exitCode() + ")\n" + r.out() + "\n" + r.err());
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
