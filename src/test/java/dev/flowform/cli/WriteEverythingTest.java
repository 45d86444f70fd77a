package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.plan.StepKind;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Sim;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every object flowform writes, written for real through its planner and writer (the {@code apply} command) to the
 * embedded cluster, which holds each write to Strimzi's own CRD schema of the layout it serves and refuses a field the
 * schema does not know: KafkaConnect with its connectors and KafkaMirrorMaker2, each in {@code v1beta2} and {@code v1},
 * adopted and owned, created, changed, stopped, paused, deleted, annotated, forced to roll and taken over. Each apply
 * must complete; the plans before them must together hold every step kind that writes, so a new kind fails here until
 * a scenario below writes it.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WriteEverythingTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<StepKind> PLANNED = EnumSet.noneOf(StepKind.class);
    private static final Set<String> LAYOUTS = new TreeSet<>();
    private static final int SCENARIOS = 6;
    private static int scenariosRun;

    @TempDir
    Path tmp;

    private final CliRunner cli = CliRunner.fast();

    private static final String CONNECT_ADOPTED = """
            "connect_cluster": { "mm2-connect": { "manage": "adopt" } },
            "replication_flow": { "dc1-to-dc2": { "manage": "adopt", "connect_cluster": "mm2-connect",
                                                  "exactly_once": %s } }
            """;

    private static String embedded(String namespace, String blocks) {
        return "{ \"environment\": { \"e\": { \"kubernetes\": { \"embedded\": { \"seed\": \"./seed\" } }, \"namespace\": \""
                + namespace + "\" } },\n" + blocks + "}";
    }

    /** A configuration folder with {@code main.flow.json} and a seed copied from {@code seeds}. */
    private Path folder(String name, String config, Path... seeds) throws IOException {
        Path dir = tmp.resolve(name);
        Files.createDirectories(dir.resolve("seed"));
        for (Path s : seeds) {
            if (Files.isDirectory(s)) {
                CliFiles.copy(s, dir.resolve("seed"));
            } else {
                Files.copy(s, dir.resolve("seed").resolve(s.getFileName()));
            }
        }
        Files.writeString(dir.resolve("main.flow.json"), config);
        return dir;
    }

    private static Path fixture(String name) {
        return Path.of("src", "test", "resources", "fixtures", name + ".yaml");
    }

    /** Plans (recording its step kinds and the layout), then applies; both must succeed. */
    private void planAndApply(Path dir, String layout, String... flags) {
        String[] plan = CliFiles.args("plan", dir, dir.resolve("state"), join(flags, "--json"));
        CliRunner.Result planned = cli.run(plan);
        assertThat(planned.exitCode()).as("plan %s: %s", dir.getFileName(), planned).isZero();
        JsonNode doc = JSON.readTree(planned.out());
        assertThat(doc.path("steps").size()).as("%s plans writes", dir.getFileName()).isPositive();
        doc.path("steps").forEach(s -> PLANNED.add(StepKind.valueOf(s.path("kind").asString())));
        LAYOUTS.add(layout);
        CliRunner.Result applied = cli.run(CliFiles.args("apply", dir, dir.resolve("state"), join(flags, "--auto-approve")));
        assertThat(applied.exitCode()).as("apply %s: %s", dir.getFileName(), applied).isZero();
        assertThat(applied.out()).contains("Apply complete!");
        CliRunner.Result again = cli.run(CliFiles.args("plan", dir, dir.resolve("state"), join(flags, "--detailed-exitcode")));
        assertThat(again.exitCode()).as("replan %s: %s", dir.getFileName(), again).isZero();
    }

    private static String[] join(String[] flags, String more) {
        List<String> all = new ArrayList<>(Arrays.asList(flags));
        all.add(more);
        return all.toArray(String[]::new);
    }

    private static void rewrite(Path dir, Map<String, String> replacements) throws IOException {
        Path main = dir.resolve("main.flow.json");
        String text = Files.readString(main);
        for (Map.Entry<String, String> r : replacements.entrySet()) {
            assertThat(text).contains(r.getKey());
            text = text.replace(r.getKey(), r.getValue());
        }
        Files.writeString(main, text);
    }

    @Test
    @Order(1)
    void adopted_connect_clusters_and_flows_get_exactly_once_and_lose_it_again_in_both_layouts() throws IOException {
        for (String layout : List.of("v1beta2", "v1")) {
            Path dir = folder("adopt-" + layout, embedded("replication", CONNECT_ADOPTED.formatted("true")),
                    fixture("existing-" + layout));
            planAndApply(dir, "KafkaConnect adopted " + layout);
            rewrite(dir, Map.of("\"exactly_once\": true", "\"exactly_once\": false"));
            planAndApply(dir, "KafkaConnect adopted " + layout);
        }
        scenariosRun++;
    }

    @Test
    @Order(2)
    void owned_connect_clusters_and_flows_are_created_changed_paused_stopped_and_deleted_in_both_layouts()
            throws IOException {
        // the group id and the storage topics: spec.config keys in v1beta2, spec fields in v1 (which the v1 schema requires)
        Map<String, String> identity = Map.of("v1beta2", """
                "config": { "group.id": "edge-connect", "config.storage.topic": "edge-configs",
                            "offset.storage.topic": "edge-offsets", "status.storage.topic": "edge-status" }""", "v1", """
                "spec": { "groupId": "edge-connect", "configStorageTopic": "edge-configs",
                          "offsetStorageTopic": "edge-offsets", "statusStorageTopic": "edge-status" }""");
        String owned = """
                "connect_cluster": { "edge-connect": { "replicas": 2, "version": "4.1.1",
                    "bootstrap_servers": "core-kafka-bootstrap:9093", "exactly_once_source_support": "enabled",
                    %s } },
                "replication_flow": {
                  "edge-to-core": { "connect_cluster": "edge-connect", "heartbeats": true, "checkpoints": true,
                    "exactly_once": true, "topics": ["orders.*"], "state": "running",
                    "source": { "alias": "edge", "bootstrap_servers": "edge-kafka-bootstrap:9093" },
                    "target": { "alias": "core", "bootstrap_servers": "core-kafka-bootstrap:9093" } },
                  "audit-to-core": { "connect_cluster": "edge-connect", "topics": ["audit.*"], "state": "running",
                    "source": { "alias": "audit", "bootstrap_servers": "audit-kafka-bootstrap:9093" },
                    "target": { "alias": "core", "bootstrap_servers": "core-kafka-bootstrap:9093" } } }
                """;
        Map<String, Path> seeds = Map.of("v1beta2", Path.of("examples", "multi-env", "seeds", "prod"),
                "v1", fixture("existing-v1"));
        for (String layout : List.of("v1beta2", "v1")) {
            Path dir = folder("own-" + layout, embedded("replication", owned.formatted(identity.get(layout))),
                    seeds.get(layout));
            planAndApply(dir, "KafkaConnect owned " + layout);
            rewrite(dir, Map.of("\"replicas\": 2", "\"replicas\": 3", "\"heartbeats\": true", "\"heartbeats\": false",
                    "\"topics\": [\"orders.*\"], \"state\": \"running\"", "\"topics\": [\"orders.*\"], \"state\": \"paused\"",
                    "\"topics\": [\"audit.*\"], \"state\": \"running\"", "\"topics\": [\"audit.*\"], \"state\": \"stopped\""));
            planAndApply(dir, "KafkaConnect owned " + layout);
        }
        scenariosRun++;
    }

    @Test
    @Order(3)
    void the_connector_resources_annotation_is_added_to_an_existing_cluster() throws IOException {
        Path dir = folder("annotate", embedded("replication", CONNECT_ADOPTED.formatted("true")));
        String seed = Files.readString(fixture("existing-v1beta2"));
        assertThat(seed).contains("strimzi.io/use-connector-resources: 'true'");
        Files.writeString(dir.resolve("seed").resolve("existing.yaml"),
                seed.replace("    strimzi.io/use-connector-resources: 'true'\n", ""));
        planAndApply(dir, "KafkaConnect adopted v1beta2", "--enable-connector-resources");
        scenariosRun++;
    }

    @Test
    @Order(4)
    void objects_another_state_manages_are_taken_over() throws IOException {
        try (EmbeddedCluster cluster = Sim.start("existing-v1", tmp, SimSettings.fast())) {
            Path dir = CliFiles.kubeconfigConfig(tmp.resolve("takeover"), cluster, "");
            Path first = tmp.resolve("takeover-first-state");
            assertThat(cli.run(CliFiles.args("apply", dir, first, "--auto-approve")).exitCode()).isZero();
            planAndApply(dir, "KafkaConnect adopted v1", "--transfer-ownership", "connect_cluster.mm2-connect",
                    "--transfer-ownership", "replication_flow.dc1-to-dc2");
        }
        scenariosRun++;
    }

    @Test
    @Order(5)
    void adopted_kafka_mirror_maker_2s_get_exactly_once_in_both_layouts_and_on_strimzi_0_48_with_forced_rolls()
            throws IOException {
        String config = Files.readString(Path.of("examples", "mirrormaker2", "main.flow.json"));
        Path v1beta2 = folder("mm2-adopt-v1beta2", config, Path.of("examples", "mirrormaker2", "seed"));
        planAndApply(v1beta2, "KafkaMirrorMaker2 adopted v1beta2");

        Path v1 = folder("mm2-adopt-v1", config, Path.of("src", "test", "resources", "mirrormaker2-v1", "seed"));
        planAndApply(v1, "KafkaMirrorMaker2 adopted v1");

        // the README's instruction as it stands: the example's seed (0.49 pods, with a configuration hash) on a 0.48 operator
        Path old = folder("mm2-adopt-0.48", config.replace("\"seed\": \"./seed\"",
                "\"seed\": \"./seed\", \"strimzi_version\": \"0.48.0\""), Path.of("examples", "mirrormaker2", "seed"));
        planAndApply(old, "KafkaMirrorMaker2 adopted v1beta2 on Strimzi 0.48");
        scenariosRun++;
    }

    @Test
    @Order(6)
    void owned_kafka_mirror_maker_2s_are_created_and_get_a_second_mirror_in_both_layouts() throws IOException {
        String owned = """
                "mirrormaker2": { "mm2": { "replicas": 2, "version": "4.1.1",
                  "target": { "alias": "dc2", "bootstrap_servers": "dc2:9092", "config": { "group.id": "mm2-owned",
                    "config.storage.topic": "mm2-owned-configs", "offset.storage.topic": "mm2-owned-offsets",
                    "status.storage.topic": "mm2-owned-status" } },
                  "mirror": [ { "source": { "alias": "dc1", "bootstrap_servers": "dc1:9092" }, "topics": "orders.*",
                                "exactly_once": true } ] } }
                """;
        Map<String, Path> seeds = Map.of("v1beta2", Path.of("examples", "multi-env", "seeds", "prod"),
                "v1", Path.of("src", "test", "resources", "sim", "v1"));
        Map<String, String> namespaces = Map.of("v1beta2", "replication", "v1", "mirror-v1");
        for (String layout : List.of("v1beta2", "v1")) {
            Path dir = folder("mm2-own-" + layout, embedded(namespaces.get(layout), owned), seeds.get(layout));
            planAndApply(dir, "KafkaMirrorMaker2 owned " + layout);
            rewrite(dir, Map.of("\"exactly_once\": true } ]", "\"exactly_once\": true }, { \"source\": { \"alias\": \"dc3\", "
                    + "\"bootstrap_servers\": \"dc3:9092\" }, \"topics\": \"audit.*\" } ]"));
            planAndApply(dir, "KafkaMirrorMaker2 owned " + layout);
        }
        scenariosRun++;
    }

    @AfterAll
    static void every_step_kind_that_writes_was_planned_and_applied_in_both_layouts() {
        Set<StepKind> writing = EnumSet.noneOf(StepKind.class);
        for (StepKind k : StepKind.values()) {
            if (k.isMutation()) {
                writing.add(k);
            }
        }
        if (scenariosRun < SCENARIOS) {
            return; // some scenarios were run on their own (or failed): the coverage is not known
        }
        System.out.println("WriteEverythingTest: step kinds planned and applied " + PLANNED + ", in " + LAYOUTS);
        assertThat(PLANNED).as("step kinds the scenarios planned and applied").containsAll(writing);
        assertThat(LAYOUTS).contains("KafkaConnect adopted v1beta2", "KafkaConnect adopted v1", "KafkaConnect owned v1beta2",
                "KafkaConnect owned v1", "KafkaMirrorMaker2 adopted v1beta2", "KafkaMirrorMaker2 adopted v1",
                "KafkaMirrorMaker2 owned v1beta2", "KafkaMirrorMaker2 owned v1");
    }
}
