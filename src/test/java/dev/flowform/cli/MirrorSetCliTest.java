package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import tools.jackson.databind.json.JsonMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code examples/mirrormaker2} KafkaMirrorMaker2 on the embedded cluster gains a mirror during the exactly-once
 * rollout (created with {@code required} only after the workers run enabled), then that mirror's source alias is
 * renamed: the plan shows the old connectors destroyed and the new ones created, the simulated operator deletes and
 * creates them, and each replan is "No changes.".
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class MirrorSetCliTest {

    private static final String DC3 = "{\"source\": {\"alias\": \"dc3\", \"bootstrap_servers\": \"dc3-kafka:9092\"}, "
            + "\"topics\": \"audit.*\", \"exactly_once\": \"${var.exactly_once}\"},";

    @TempDir
    Path tmp;
    private Path dir;
    private Path stateDir;
    private final CliRunner cli = CliRunner.fast();

    @BeforeEach
    void copyExample() throws Exception {
        dir = CliFiles.copy(Path.of("examples", "mirrormaker2"), tmp.resolve("mirrormaker2"));
        stateDir = tmp.resolve("state");
        Path main = dir.resolve("main.flow.json");
        Files.writeString(main, Files.readString(main).replace("\"mirror\": [", "\"mirror\": [" + DC3));
    }

    private CliRunner.Result run(String command, String... more) {
        List<String> all = new ArrayList<>(List.of(command, "--dir", dir.toString(), "--state-dir", stateDir.toString(),
                "--no-color"));
        all.addAll(List.of(more));
        return cli.run(all.toArray(String[]::new));
    }

    @Test
    void a_mirror_added_during_the_rollout_then_renamed_applies_and_replans_no_changes() throws Exception {
        CliRunner.Result plan = run("plan", "--detailed-exitcode");
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(plan.out()).containsSubsequence("SET_WORKER_EOS", "exactly.once.source.support = preparing",
                "WAIT_FOR_ROLL", "SET_WORKER_EOS", "exactly.once.source.support = enabled", "WAIT_FOR_ROLL",
                "UPDATE_CONNECT_CLUSTER", "add dc3", "WAIT_FOR_ROLL", "KAFKA_MIRRORMAKER_2_CLUSTERS",
                "WAIT_FOR_CONNECTOR_READY");
        assertThat(plan.out()).contains("mirrormaker2.mm2.connector[\"dc3->dc2.MirrorSourceConnector\"] will be created",
                "Plan: 2 to add, 1 to change, 0 to destroy, 3 rolling restarts.");

        CliRunner.Result apply = run("apply", "--auto-approve");
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(apply.out()).contains("Apply complete!");
        Map<String, Object> mm2 = liveMirrorMaker2();
        assertThat(connectorNames(mm2)).contains("dc3->dc2.MirrorSourceConnector", "dc1->dc2.MirrorSourceConnector");
        assertThat(sourceConfig(mm2, "dc3")).containsEntry("exactly.once.support", "required");
        assertThat(run("plan", "--detailed-exitcode").out()).contains("No changes.");

        Path main = dir.resolve("main.flow.json");
        Files.writeString(main, Files.readString(main).replace("\"alias\": \"dc3\"", "\"alias\": \"dc4\""));
        CliRunner.Result rename = run("plan", "--detailed-exitcode");
        assertThat(rename.exitCode()).as("%s", rename).isEqualTo(2);
        assertThat(rename.out()).contains(
                "mirrormaker2.mm2.connector[\"dc3->dc2.MirrorSourceConnector\"] will be destroyed",
                "mirrormaker2.mm2.connector[\"dc4->dc2.MirrorSourceConnector\"] will be created",
                "source alias dc3 renamed to dc4", "Source alias renamed: its connectors are replaced", "earliest",
                "Plan: 2 to add, 1 to change, 2 to destroy, 1 rolling restart.");

        CliRunner.Result renamed = run("apply", "--auto-approve");
        assertThat(renamed.exitCode()).as("%s", renamed).isZero();
        mm2 = liveMirrorMaker2();
        assertThat(connectorNames(mm2)).contains("dc4->dc2.MirrorSourceConnector")
                .doesNotContain("dc3->dc2.MirrorSourceConnector", "dc3->dc2.MirrorCheckpointConnector");
        assertThat(sourceConfig(mm2, "dc4")).containsEntry("exactly.once.support", "required");
        CliRunner.Result again = run("plan", "--detailed-exitcode");
        assertThat(again.exitCode()).as("%s", again).isZero();
        assertThat(again.out()).contains("No changes.");
    }

    /** @return the KafkaMirrorMaker2 as the embedded cluster persisted it */
    @SuppressWarnings("unchecked")
    private Map<String, Object> liveMirrorMaker2() throws Exception {
        Path state;
        try (var envs = Files.list(stateDir)) {
            state = envs.map(e -> e.resolve("embedded-cluster.json")).filter(Files::exists).findFirst().orElseThrow();
        }
        Map<String, Object> all = JsonMapper.builder().build().readValue(Files.readString(state), Map.class);
        for (Object o : (List<Object>) all.get("objects")) {
            Map<String, Object> obj = (Map<String, Object>) o;
            if ("KafkaMirrorMaker2".equals(obj.get("kind"))) {
                return obj;
            }
        }
        throw new AssertionError("no KafkaMirrorMaker2 in the persisted embedded cluster");
    }

    @SuppressWarnings("unchecked")
    private static List<String> connectorNames(Map<String, Object> mm2) {
        List<Object> connectors = (List<Object>) ((Map<String, Object>) mm2.get("status")).get("connectors");
        return connectors.stream().map(c -> String.valueOf(((Map<String, Object>) c).get("name"))).toList();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> sourceConfig(Map<String, Object> mm2, String alias) {
        for (Object o : (List<Object>) ((Map<String, Object>) mm2.get("spec")).get("mirrors")) {
            Map<String, Object> m = (Map<String, Object>) o;
            if (alias.equals(m.get("sourceCluster"))) {
                return (Map<String, Object>) ((Map<String, Object>) m.get("sourceConnector")).get("config");
            }
        }
        throw new AssertionError("no mirror from " + alias);
    }
}
