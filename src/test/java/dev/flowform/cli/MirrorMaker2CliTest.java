package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import tools.jackson.databind.json.JsonMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code examples/mirrormaker2} folder end to end through the CLI on the embedded cluster: a KafkaMirrorMaker2
 * (v1beta2 layout) gets exactly-once in the safe order, the exactly-once keys land in the source connector only, the
 * plan afterwards is "No changes.", and turning exactly-once off plans the reverse order; the same with a seed in the
 * v1 layout ({@code spec.target}, {@code spec.mirrors[].source}).
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class MirrorMaker2CliTest {

    @TempDir
    Path tmp;
    private Path dir;
    private Path stateDir;

    @BeforeEach
    void copyExample() {
        dir = CliFiles.copy(Path.of("examples", "mirrormaker2"), tmp.resolve("mirrormaker2"));
        stateDir = tmp.resolve("state");
    }

    private String[] args(String command, String... more) {
        List<String> all = new java.util.ArrayList<>(List.of(command, "--dir", dir.toString(), "--state-dir",
                stateDir.toString(), "--no-color"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void plan_apply_replan_rolls_out_exactly_once_on_a_kafka_mirror_maker_2() throws Exception {
        CliRunner cli = CliRunner.fast();

        CliRunner.Result plan = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(plan.out()).containsSubsequence(
                "spec.clusters[alias=dc2].config.\"exactly.once.source.support\"",
                "SET_WORKER_EOS", "exactly.once.source.support = preparing",
                "WAIT_FOR_ROLL", "mm2-mirrormaker2",
                "SET_WORKER_EOS", "exactly.once.source.support = enabled",
                "WAIT_FOR_ROLL",
                "UPDATE_CONNECTOR", "source.consumer.isolation.level=read_committed", "exactly.once.support=required",
                "WAIT_FOR_CONNECTOR_READY");
        assertThat(plan.out()).contains("Plan: 0 to add, 1 to change, 0 to destroy, 2 rolling restarts.")
                .doesNotContain("checkpointConnector.config.\"exactly.once.support\"");

        CliRunner.Result apply = cli.run(args("apply", "--auto-approve"));
        assertThat(apply.exitCode()).as("%s", apply).isEqualTo(0);
        assertThat(apply.out()).contains("2/2 workers on the new revision with exactly.once.source.support=enabled",
                "2/2 connectors and their tasks RUNNING", "Apply complete!");

        Map<String, Object> mirror = liveMirror();
        assertThat(config(mirror, "sourceConnector")).containsEntry("exactly.once.support", "required")
                .containsEntry("source.consumer.isolation.level", "read_committed");
        assertThat(config(mirror, "checkpointConnector")).doesNotContainKeys("exactly.once.support",
                "source.consumer.isolation.level");

        CliRunner.Result again = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(again.exitCode()).as("%s", again).isEqualTo(0);
        assertThat(again.out()).contains("No changes.");

        CliRunner.Result off = cli.run(args("plan", "--detailed-exitcode", "-var", "exactly_once=false"));
        assertThat(off.exitCode()).as("%s", off).isEqualTo(2);
        assertThat(off.out()).containsSubsequence("UPDATE_CONNECTOR", "remove exactly.once.support",
                "WAIT_FOR_CONNECTOR_READY", "SET_WORKER_EOS", "exactly.once.source.support = disabled", "WAIT_FOR_ROLL");
    }

    @Test
    void the_v1_layout_gets_the_same_rollout_on_its_own_paths_and_replans_no_changes() throws Exception {
        Files.delete(dir.resolve("seed").resolve("mm2.yaml"));
        CliFiles.copy(Path.of("src", "test", "resources", "mirrormaker2-v1", "seed"), dir.resolve("seed"));
        CliRunner cli = CliRunner.fast();

        CliRunner.Result plan = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(plan.out()).containsSubsequence(
                "spec.target.config.\"exactly.once.source.support\"",
                "spec.mirrors[source.alias=dc1].sourceConnector.config.\"exactly.once.support\"",
                "SET_WORKER_EOS", "exactly.once.source.support = preparing", "WAIT_FOR_ROLL", "mm2-mirrormaker2",
                "SET_WORKER_EOS", "exactly.once.source.support = enabled", "WAIT_FOR_ROLL",
                "UPDATE_CONNECTOR", "source.consumer.isolation.level=read_committed", "exactly.once.support=required",
                "WAIT_FOR_CONNECTOR_READY");
        assertThat(plan.out()).doesNotContain("spec.clusters", "sourceCluster");

        CliRunner.Result apply = cli.run(args("apply", "--auto-approve"));
        assertThat(apply.exitCode()).as("%s", apply).isEqualTo(0);
        assertThat(apply.out()).contains("2/2 workers on the new revision with exactly.once.source.support=enabled",
                "2/2 connectors and their tasks RUNNING", "Apply complete!");

        Map<String, Object> mirror = liveMirror();
        assertThat(mirror).containsKey("source").doesNotContainKey("sourceCluster");
        assertThat(config(mirror, "sourceConnector")).containsEntry("exactly.once.support", "required")
                .containsEntry("source.consumer.isolation.level", "read_committed");
        assertThat(config(mirror, "checkpointConnector")).doesNotContainKeys("exactly.once.support",
                "source.consumer.isolation.level");

        CliRunner.Result again = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(again.exitCode()).as("%s", again).isEqualTo(0);
        assertThat(again.out()).contains("No changes.");
    }

    @Test
    void an_owned_kafka_mirror_maker_2_is_created_in_the_v1_layout_on_a_v1_cluster_and_replans_no_changes() throws Exception {
        dir = tmp.resolve("owned-v1");
        CliFiles.copy(Path.of("src", "test", "resources", "sim", "v1"), dir.resolve("seed"));
        Files.writeString(dir.resolve("main.flow.json"), """
                {"environment": {"v1": {"kubernetes": {"embedded": {"seed": "./seed"}}, "namespace": "mirror-v1"}},
                 "mirrormaker2": {"mm2": {"replicas": 2, "version": "4.1.1",
                   "target": {"alias": "dc2", "bootstrap_servers": "dc2:9092", "config": {"group.id": "mm2-v1",
                     "config.storage.topic": "mm2-v1-configs", "offset.storage.topic": "mm2-v1-offsets",
                     "status.storage.topic": "mm2-v1-status"}},
                   "mirror": [{"source": {"alias": "dc1", "bootstrap_servers": "dc1:9092"}, "topics": "orders.*",
                               "exactly_once": true}]}}}
                """);
        CliRunner cli = CliRunner.fast();

        CliRunner.Result plan = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(plan.out()).contains("spec.target.groupId", "CREATE_CONNECT_CLUSTER").doesNotContain("spec.clusters");

        CliRunner.Result apply = cli.run(args("apply", "--auto-approve"));
        assertThat(apply.exitCode()).as("%s", apply).isEqualTo(0);
        assertThat(apply.out()).contains("Apply complete!");
        Map<String, Object> mirror = liveMirror();
        assertThat(mirror).containsKey("source").doesNotContainKey("sourceCluster");
        assertThat(config(mirror, "sourceConnector")).containsEntry("exactly.once.support", "required");

        CliRunner.Result again = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(again.exitCode()).as("%s", again).isEqualTo(0);
        assertThat(again.out()).contains("No changes.");
    }

    @Test
    void on_strimzi_0_48_every_worker_step_is_followed_by_a_forced_roll_and_the_rollout_completes() throws Exception {
        Path seed = dir.resolve("seed").resolve("mm2.yaml");
        Files.writeString(seed, Files.readString(seed).lines().filter(l -> !l.contains("strimzi.io/configuration-hash"))
                .collect(java.util.stream.Collectors.joining("\n", "", "\n")).replace("kafka:0.49.0-kafka", "kafka:0.48.0-kafka"));
        Path main = dir.resolve("main.flow.json");
        Files.writeString(main, Files.readString(main).replace("\"seed\": \"./seed\"",
                "\"seed\": \"./seed\", \"strimzi_version\": \"0.48.0\""));
        CliRunner cli = CliRunner.fast();

        CliRunner.Result plan = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(plan.out() + plan.err()).contains("rule mm2-forced-roll", "PR 11926", "Strimzi 0.48.0");
        assertThat(plan.out()).containsSubsequence(
                "SET_WORKER_EOS", "exactly.once.source.support = preparing", "WAIT_FOR_ROLL",
                "FORCE_ROLL", "strimzi.io/manual-rolling-update = \"true\" on StrimziPodSet mm2-mirrormaker2",
                "WAIT_FOR_FORCED_ROLL", "SET_WORKER_EOS", "exactly.once.source.support = enabled", "WAIT_FOR_ROLL",
                "FORCE_ROLL", "WAIT_FOR_FORCED_ROLL", "UPDATE_CONNECTOR", "exactly.once.support=required",
                "WAIT_FOR_CONNECTOR_READY");

        CliRunner.Result apply = cli.run(args("apply", "--auto-approve"));
        assertThat(apply.exitCode()).as("%s", apply).isEqualTo(0);
        assertThat(apply.out()).contains("2/2 pods restarted by the forced roll with exactly.once.source.support=preparing",
                "2/2 pods restarted by the forced roll with exactly.once.source.support=enabled",
                "2/2 connectors and their tasks RUNNING", "Apply complete!");
        assertThat(config(liveMirror(), "sourceConnector")).containsEntry("exactly.once.support", "required");

        CliRunner.Result again = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(again.exitCode()).as("%s", again).isEqualTo(0);
        assertThat(again.out()).contains("No changes.");
    }

    /** @return the mirror entry of the KafkaMirrorMaker2 as the embedded cluster persisted it */
    @SuppressWarnings("unchecked")
    private Map<String, Object> liveMirror() throws Exception {
        Map<String, Object> state = JsonMapper.builder().build().readValue(
                Files.readString(embeddedState()), Map.class);
        for (Object o : (List<Object>) state.get("objects")) {
            Map<String, Object> obj = (Map<String, Object>) o;
            if ("KafkaMirrorMaker2".equals(obj.get("kind"))) {
                Map<String, Object> spec = (Map<String, Object>) obj.get("spec");
                return (Map<String, Object>) ((List<Object>) spec.get("mirrors")).get(0);
            }
        }
        throw new AssertionError("no KafkaMirrorMaker2 in the persisted embedded cluster");
    }

    /** @return the persisted embedded cluster of the only environment planned */
    private Path embeddedState() throws java.io.IOException {
        try (var envs = Files.list(stateDir)) {
            return envs.map(e -> e.resolve("embedded-cluster.json")).filter(Files::exists).findFirst().orElseThrow();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> config(Map<String, Object> mirror, String connector) {
        return (Map<String, Object>) ((Map<String, Object>) mirror.get(connector)).get("config");
    }
}
