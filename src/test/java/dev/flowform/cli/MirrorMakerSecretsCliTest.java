package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Credentials of KafkaMirrorMaker2 resources never reach stdout, stderr, the saved plan file or any file of the state
 * folder (the raw H2 database included): JAAS configurations and passwords in a mirror's source cluster config (from
 * a sensitive variable, and live), in the source connector's config, in the target's worker config and in a custom
 * authentication block, of an adopted resource (v1beta2 layout, examples/mirrormaker2's seed) and of one flowform
 * creates; through plan (text, --json, --out), show, apply of the saved plan (whose state snapshots record both
 * resources), plan again, state list/show and history; then the drift of a mirror's topics and its source's
 * password changed outside flowform: {@code plan --refresh-only} shows it by entry, the plan sets back what the
 * configuration declares, and {@code apply --refresh-only} records it.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class MirrorMakerSecretsCliTest {

    private static final String VAR_SOURCE = "Mm2-Var-Source-6a1f";
    private static final String VAR_CONNECTOR = "Mm2-Var-Connector-2b8e";
    private static final String VAR_NEW = "Mm2-Var-New-91c3";
    private static final String LIVE_SOURCE = "Mm2-Live-Source-4c1d";
    private static final String LIVE_CONNECTOR = "Mm2-Live-Connector-0e5a";
    private static final String LIVE_AUTH = "Mm2-Live-Auth-3b7f";
    private static final String LIVE_DRIFT = "Mm2-Live-Drift-7d2a";
    private static final String TOKEN = "Mm2-Token-c0ffee";
    private static final List<String> CANARIES = List.of(VAR_SOURCE, VAR_CONNECTOR, VAR_NEW, LIVE_SOURCE, LIVE_CONNECTOR,
            LIVE_AUTH, LIVE_DRIFT, TOKEN);

    @TempDir
    Path tmp;

    private Path seed() throws IOException {
        Path seed = tmp.resolve("seed");
        Files.createDirectories(seed);
        String text = Files.readString(Path.of("examples", "mirrormaker2", "seed", "mm2.yaml"))
                .replace("    bootstrapServers: dc1-kafka-bootstrap.kafka-dc1.svc:9092\n    config: {}\n",
                        "    bootstrapServers: dc1-kafka-bootstrap.kafka-dc1.svc:9092\n    config:\n"
                                + "      sasl.jaas.config: 'org.apache.kafka.common.security.scram.ScramLoginModule required"
                                + " username=\"mm2\" password=\"" + LIVE_SOURCE + "\";'\n")
                .replace("    bootstrapServers: dc2-kafka-bootstrap.kafka-dc2.svc:9092\n",
                        "    bootstrapServers: dc2-kafka-bootstrap.kafka-dc2.svc:9092\n    authentication:\n"
                                + "      type: custom\n      sasl: true\n      config:\n"
                                + "        sasl.jaas.config: 'org.apache.kafka.common.security.plain.PlainLoginModule required"
                                + " username=\"mm2\" password=\"" + LIVE_AUTH + "\";'\n")
                .replace("        sync.topic.acls.enabled: 'false'\n",
                        "        sync.topic.acls.enabled: 'false'\n        ssl.keystore.password: " + LIVE_CONNECTOR + "\n");
        assertThat(text).contains(LIVE_SOURCE, LIVE_AUTH, LIVE_CONNECTOR);
        Files.writeString(seed.resolve("mm2.yaml"), text);
        return seed;
    }

    private Path config(EmbeddedCluster cluster) throws IOException {
        Path dir = tmp.resolve("conf");
        Files.createDirectories(dir);
        CanaryKubeconfig.write(dir.resolve("kubeconfig.yaml"), cluster, TOKEN);
        String jaas = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\\\"mm2\\\" "
                + "password=\\\"${var.%s}\\\";";
        Files.writeString(dir.resolve("main.flow.json"), """
                {
                  "variable": {
                    "source_password": { "type": "string", "sensitive": true },
                    "connector_password": { "type": "string", "sensitive": true },
                    "new_password": { "type": "string", "sensitive": true }
                  },
                  "environment": {
                    "prod": { "kubernetes": { "kubeconfig": "%s", "context": "canary" }, "namespace": "mirror" }
                  },
                  "mirrormaker2": {
                    "mm2": {
                      "manage": "adopt",
                      "target": { "alias": "dc2" },
                      "mirror": [{
                        "source": { "alias": "dc1", "config": { "sasl.jaas.config": "%s" } },
                        "source_connector": { "ssl.truststore.password": "${var.connector_password}" },
                        "exactly_once": true
                      }]
                    },
                    "mm2-new": {
                      "replicas": 1,
                      "version": "3.9.0",
                      "target": { "alias": "dc2", "bootstrap_servers": "dc2:9092", "config": { "group.id": "mm2-new",
                        "config.storage.topic": "mm2-new-configs", "offset.storage.topic": "mm2-new-offsets",
                        "status.storage.topic": "mm2-new-status", "ssl.truststore.password": "${var.new_password}" } },
                      "mirror": [{ "source": { "alias": "dc1", "bootstrap_servers": "dc1:9092",
                                               "config": { "sasl.jaas.config": "%s" } },
                                   "topics": "orders.*" }]
                    }
                  }
                }
                """.formatted(dir.resolve("kubeconfig.yaml").toString().replace("\\", "\\\\"),
                jaas.formatted("source_password"), jaas.formatted("new_password")));
        return dir;
    }

    @Test
    void no_mirror_maker_credential_reaches_the_output_or_the_state_files() throws IOException {
        List<String> outputs = new ArrayList<>();
        Map<String, Integer> exits = new LinkedHashMap<>();
        Path stateDir = tmp.resolve("state");
        Path planFile = tmp.resolve("saved.plan.json");
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed())
                .settings(SimSettings.fast()).build())) {
            Path dir = config(cluster);
            CliRunner cli = CliRunner.fast();
            String[] vars = {"--var", "source_password=" + VAR_SOURCE, "--var", "connector_password=" + VAR_CONNECTOR,
                "--var", "new_password=" + VAR_NEW};
            run(cli, outputs, exits, "plan", CliFiles.args("plan", dir, stateDir, vars));
            run(cli, outputs, exits, "plan --json", CliFiles.args("plan", dir, stateDir, concat(vars, "--json")));
            run(cli, outputs, exits, "plan --out", CliFiles.args("plan", dir, stateDir,
                    concat(vars, "--out", planFile.toString())));
            run(cli, outputs, exits, "show FILE --json", CliFiles.args("show", dir, stateDir,
                    concat(vars, "--json", planFile.toString())));
            run(cli, outputs, exits, "apply FILE", CliFiles.args("apply", dir, stateDir, concat(vars, planFile.toString())));
            run(cli, outputs, exits, "plan again", CliFiles.args("plan", dir, stateDir, concat(vars, "--detailed-exitcode")));
            run(cli, outputs, exits, "history", CliFiles.args("history", dir, stateDir, vars));
            run(cli, outputs, exits, "state list", CliFiles.args("state list", dir, stateDir, vars));
            run(cli, outputs, exits, "state show", CliFiles.args("state show", dir, stateDir,
                    concat(vars, "mirrormaker2.mm2")));
            run(cli, outputs, exits, "state show new", CliFiles.args("state show", dir, stateDir,
                    concat(vars, "mirrormaker2.mm2-new")));

            driftOutside(cluster);
            run(cli, outputs, exits, "plan --refresh-only", CliFiles.args("plan", dir, stateDir,
                    concat(vars, "--refresh-only", "--detailed-exitcode")));
            run(cli, outputs, exits, "plan with drift", CliFiles.args("plan", dir, stateDir, vars));
            run(cli, outputs, exits, "apply --refresh-only", CliFiles.args("apply", dir, stateDir,
                    concat(vars, "--refresh-only", "--auto-approve")));
            run(cli, outputs, exits, "plan --refresh-only after", CliFiles.args("plan", dir, stateDir,
                    concat(vars, "--refresh-only", "--detailed-exitcode")));
        }
        assertThat(exits).as("%s", outputs).containsEntry("plan", 0).containsEntry("plan --out", 0)
                .containsEntry("apply FILE", 0).containsEntry("plan again", 0).containsEntry("state show", 0)
                .containsEntry("state show new", 0).containsEntry("plan --refresh-only", 2)
                .containsEntry("apply --refresh-only", 0).containsEntry("plan --refresh-only after", 0);
        assertThat(section(outputs, "state list")).contains("mirrormaker2.mm2", "mirrormaker2.mm2-new");
        assertThat(section(outputs, "plan --refresh-only")).contains("mirrormaker2.mm2",
                "spec.mirrors[sourceCluster=dc1].topicsPattern", "\"payments.*\"",
                "spec.clusters[alias=dc1].config.\"sasl.jaas.config\"");
        assertThat(section(outputs, "plan with drift")).contains(
                "flowform will set back spec.clusters[alias=dc1].config.\"sasl.jaas.config\"");
        String all = String.join("\n", outputs);
        assertThat(all).as("the runs did handle the secret-bearing keys").contains(
                "spec.clusters[alias=dc1].config.\"sasl.jaas.config\"", "(sensitive value)", "mirrormaker2.mm2-new",
                "\"ssl.truststore.password\"");
        for (String canary : CANARIES) {
            assertThat(all).as("stdout/stderr of every command").doesNotContain(canary);
        }
        List<Path> files = new ArrayList<>(List.of(planFile));
        try (Stream<Path> s = Files.walk(stateDir)) {
            files.addAll(s.filter(Files::isRegularFile).toList());
        }
        assertThat(files).anyMatch(f -> f.getFileName().toString().equals("flowform.mv.db"));
        for (Path f : files) {
            String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            for (String canary : CANARIES) {
                assertThat(bytes.contains(canary)).as("%s in %s", canary, f).isFalse();
            }
        }
    }

    /** Changes the adopted KafkaMirrorMaker2 as someone else would: a mirror's topics and its source's password. */
    @SuppressWarnings("unchecked")
    private static void driftOutside(EmbeddedCluster cluster) {
        cluster.client().genericKubernetesResources("kafka.strimzi.io/v1beta2", "KafkaMirrorMaker2").inNamespace("mirror")
                .withName("mm2").edit(r -> {
                    Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
                    ((Map<String, Object>) ((List<Object>) spec.get("mirrors")).get(0)).put("topicsPattern", "payments.*");
                    Map<String, Object> dc1 = (Map<String, Object>) ((List<Object>) spec.get("clusters")).get(0);
                    ((Map<String, Object>) dc1.get("config")).put("sasl.jaas.config",
                            "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"mm2\" password=\""
                                    + LIVE_DRIFT + "\";");
                    return r;
                });
    }

    private static String section(List<String> outputs, String name) {
        return outputs.stream().filter(o -> o.startsWith("### " + name + " (")).findFirst().orElseThrow();
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
