package dev.flowform.plan;

import dev.flowform.apply.Edits;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.ManageMode;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mirrors added to, removed from and renamed in an existing KafkaMirrorMaker2, in both layouts: one spec patch, a roll
 * only when the pods' cluster aliases change (Strimzi {@code KAFKA_MIRRORMAKER_2_CLUSTERS}), the connectors Strimzi
 * deletes and creates shown as such, exactly-once connectors only after the workers run enabled, and a replan of the
 * patched spec that changes nothing.
 */
class MirrorSetPlannerTest {

    private static DesiredMirror east(boolean eos, String bootstrap) {
        return new DesiredMirror("east", bootstrap, Map.of(), "orders.*", null, null, Map.of(), Map.of(), eos, null);
    }

    /** Applies every patch of the plan to the world's spec, as the cluster would. */
    @SuppressWarnings("unchecked")
    private static void apply(MirrorMakerWorld w, Plan p) {
        for (Step s : p.steps()) {
            List<FieldEdit> edits = s.payload() instanceof StepPayload.SetWorkerEos e ? e.edits()
                    : s.payload() instanceof StepPayload.PatchObject po ? po.edits() : List.of();
            Map<String, Object> object = new LinkedHashMap<>(Map.of("spec", w.spec));
            Edits.apply(object, edits);
            Map<String, Object> edited = new LinkedHashMap<>((Map<String, Object>) object.get("spec"));
            w.spec.clear();
            w.spec.putAll(edited);
        }
    }

    private static List<String> kinds(Plan p) {
        return p.steps().stream().map(s -> s.kind().name()).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(MirrorMakerWorld w, String key) {
        return (List<Map<String, Object>>) w.spec.get(key);
    }

    private static String sourceAlias(Map<String, Object> mirror) {
        Object s = mirror.get("source") instanceof Map<?, ?> m ? m.get("alias") : mirror.get("sourceCluster");
        return String.valueOf(s);
    }

    @ParameterizedTest(name = "v1 layout: {0}")
    @ValueSource(booleans = {false, true})
    void a_renamed_alias_replaces_the_connectors_rolls_once_and_converges(boolean v1) {
        MirrorMakerWorld w = new MirrorMakerWorld("enabled", v1);
        w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
        w.sourceConfig().put("exactly.once.support", "required");
        DesiredMirrorMaker2 renamed = MirrorMakerWorld.block(ManageMode.ADOPT, List.of(east(true, null)));
        Plan p = MirrorMakerPlannerTest.plan(renamed, w.toLive());

        assertThat(kinds(p)).containsExactly("UPDATE_CONNECT_CLUSTER", "WAIT_FOR_ROLL", "WAIT_FOR_CONNECTOR_READY");
        assertThat(p.summary()).isEqualTo(new PlanSummary(2, 1, 2, 1));
        assertThat(p.changes().stream().filter(c -> c.action() == Action.DELETE)).allSatisfy(c -> {
            assertThat(c.object().kind()).isEqualTo("Connector");
            assertThat(c.codes()).containsExactly(ChangeReason.MIRROR_ALIAS_RENAMED);
            assertThat(c.reason()).startsWith("source alias dc1 renamed to east");
        });
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.detail()).contains("earliest", "east.<topic>", "new transactional IDs <group.id>-east->dc2",
                    "(rule mm2-alias-rename;");
        });

        apply(w, p);
        assertThat(list(w, "mirrors")).singleElement().satisfies(m -> {
            assertThat(sourceAlias(m)).isEqualTo("east");
            assertThat(m).containsEntry("topicsPattern", "orders.*");
        });
        assertThat(w.sourceConfig()).containsEntry("exactly.once.support", "required").containsEntry("replication.factor", "3");
        if (!v1) {
            assertThat(list(w, "clusters")).extracting(c -> c.get("alias")).containsExactly("dc2", "east");
            assertThat(list(w, "clusters").get(1)).containsEntry("bootstrapServers", "dc1-kafka-bootstrap:9092");
        }
        assertThat(MirrorMakerPlannerTest.plan(renamed, w.toLive()).steps()).isEmpty();
    }

    @Test
    void an_exactly_once_mirror_renamed_during_the_rollout_is_created_only_after_the_workers_run_enabled() {
        MirrorMakerWorld w = new MirrorMakerWorld(null);
        Plan p = MirrorMakerPlannerTest.plan(MirrorMakerWorld.block(ManageMode.ADOPT, List.of(east(true, null))), w.toLive());

        assertThat(kinds(p)).containsExactly("SET_WORKER_EOS", "WAIT_FOR_ROLL", "SET_WORKER_EOS", "WAIT_FOR_ROLL",
                "UPDATE_CONNECT_CLUSTER", "WAIT_FOR_ROLL", "WAIT_FOR_CONNECTOR_READY");
        StepPayload.PatchObject patch = (StepPayload.PatchObject) p.steps().get(4).payload();
        assertThat(patch.edits()).filteredOn(e -> "exactly.once.support".equals(e.key()))
                .allSatisfy(e -> assertThat(e.path()).contains("sourceConnector").doesNotContain("checkpointConnector"));
        assertThat(patch.edits()).anySatisfy(e -> assertThat(e.path()).contains("[sourceCluster=east]", "exactly.once.support"));
        assertThat(((StepPayload.WaitForRoll) p.steps().get(5).payload()).expectedMode().value()).isEqualTo("enabled");
    }

    @ParameterizedTest(name = "v1 layout: {0}")
    @ValueSource(booleans = {false, true})
    void an_added_mirror_rolls_once_for_its_cluster_alias_and_converges(boolean v1) {
        MirrorMakerWorld w = new MirrorMakerWorld("enabled", v1);
        w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
        w.sourceConfig().put("exactly.once.support", "required");
        DesiredMirrorMaker2 two = MirrorMakerWorld.block(ManageMode.ADOPT, List.of(MirrorMakerWorld.mirror(true),
                east(true, "east-kafka:9092")));
        Plan p = MirrorMakerPlannerTest.plan(two, w.toLive());

        assertThat(kinds(p)).containsExactly("UPDATE_CONNECT_CLUSTER", "WAIT_FOR_ROLL", "WAIT_FOR_CONNECTOR_READY");
        assertThat(p.changes()).extracting(c -> c.action() + " " + c.object().name()).containsExactlyInAnyOrder(
                "UPDATE mm2", "CREATE " + MirrorMaker2Names.sourceConnector("east", "dc2"),
                "CREATE " + MirrorMaker2Names.checkpointConnector("east", "dc2"));
        apply(w, p);
        assertThat(list(w, "mirrors")).extracting(MirrorSetPlannerTest::sourceAlias).containsExactly("dc1", "east");
        assertThat(MirrorMakerPlannerTest.plan(two, w.toLive()).steps()).isEmpty();
    }

    @Test
    void a_mirror_whose_cluster_entry_exists_changes_no_alias_and_does_not_roll() {
        MirrorMakerWorld w = new MirrorMakerWorld("disabled");
        list(w, "clusters").add(new LinkedHashMap<>(Map.of("alias", "east", "bootstrapServers", "east-kafka:9092",
                "config", new LinkedHashMap<>())));
        DesiredMirrorMaker2 two = MirrorMakerWorld.block(ManageMode.ADOPT, List.of(MirrorMakerWorld.mirror(false),
                east(false, null)));
        Plan p = MirrorMakerPlannerTest.plan(two, w.toLive());

        assertThat(kinds(p)).containsExactly("UPDATE_CONNECTOR", "WAIT_FOR_CONNECTOR_READY");
        assertThat(p.summary().rolls()).isZero();
        apply(w, p);
        assertThat(MirrorMakerPlannerTest.plan(two, w.toLive()).steps()).isEmpty();
    }

    @Test
    void mid_rollout_the_added_mirror_waits_for_the_roll_in_progress() {
        MirrorMakerWorld w = new MirrorMakerWorld("disabled");
        w.roll = MirrorMakerWorld.Roll.IN_PROGRESS;
        DesiredMirrorMaker2 two = MirrorMakerWorld.block(ManageMode.ADOPT, List.of(MirrorMakerWorld.mirror(false),
                east(false, "east-kafka:9092")));
        Plan p = MirrorMakerPlannerTest.plan(two, w.toLive());

        assertThat(MirrorMakerPlannerTest.shape(p).get(0)).isEqualTo("WAIT_FOR_ROLL disabled@7");
        assertThat(kinds(p)).containsExactly("WAIT_FOR_ROLL", "UPDATE_CONNECT_CLUSTER", "WAIT_FOR_ROLL",
                "WAIT_FOR_CONNECTOR_READY");
    }

    @Test
    @SuppressWarnings("unchecked")
    void an_owned_resource_removes_an_undeclared_mirror_and_its_cluster_while_adopt_leaves_it() {
        MirrorMakerWorld w = new MirrorMakerWorld("disabled");
        list(w, "clusters").add(new LinkedHashMap<>(Map.of("alias", "dc3", "bootstrapServers", "dc3-kafka:9092",
                "config", new LinkedHashMap<>())));
        Map<String, Object> dc3 = new LinkedHashMap<>(Map.of("sourceCluster", "dc3", "targetCluster", "dc2",
                "sourceConnector", new LinkedHashMap<>(Map.of("config", new LinkedHashMap<>()))));
        list(w, "mirrors").add(dc3);
        assertThat(MirrorMakerPlannerTest.plan(MirrorMakerWorld.adopt(false), w.toLive()).steps()).isEmpty();

        Map<String, String> worker = Map.of("group.id", "mm2-cluster", "config.storage.replication.factor", "3");
        DesiredMirror dc1 = new DesiredMirror("dc1", "dc1-kafka-bootstrap:9092", Map.of(), ".*", ".*", 2,
                Map.of("replication.factor", "3"), Map.of("checkpoints.topic.replication.factor", "3"), false, null);
        DesiredMirrorMaker2 own = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.OWN, null,
                null, null, "dc2", "dc2-kafka-bootstrap:9092", worker, List.of(dc1), Set.of(), null).derived("replication");
        Plan p = MirrorMakerPlannerTest.plan(own, w.toLive());

        assertThat(kinds(p)).containsExactly("UPDATE_CONNECT_CLUSTER", "WAIT_FOR_ROLL", "WAIT_FOR_CONNECTOR_READY");
        assertThat(p.changes()).extracting(c -> c.action() + " " + c.object().name())
                .containsExactly("UPDATE mm2", "DELETE dc3->dc2.MirrorSourceConnector");
        assertThat(p.changes().get(1).reason()).contains("mirror dc3 is not in the configuration");
        apply(w, p);
        assertThat(list(w, "mirrors")).extracting(MirrorSetPlannerTest::sourceAlias).containsExactly("dc1");
        assertThat(list(w, "clusters")).extracting(c -> c.get("alias")).containsExactly("dc1", "dc2");
        assertThat(MirrorMakerPlannerTest.plan(own, w.toLive()).steps()).isEmpty();
        assertThat(new ArrayList<>(w.spec.keySet())).contains("mirrors");
    }

    @ParameterizedTest(name = "v1 layout: {0}")
    @ValueSource(booleans = {false, true})
    void a_changed_source_cluster_is_a_connector_update_without_a_roll(boolean v1) {
        MirrorMakerWorld w = new MirrorMakerWorld("disabled", v1);
        DesiredMirror moved = new DesiredMirror("dc1", "dc1-new:9093", Map.of("client.rack", "zone-a"), null, null, null,
                Map.of(), Map.of(), false, null);
        DesiredMirrorMaker2 block = MirrorMakerWorld.block(ManageMode.ADOPT, List.of(moved));
        Plan p = MirrorMakerPlannerTest.plan(block, w.toLive());

        assertThat(kinds(p)).containsExactly("UPDATE_CONNECTOR", "WAIT_FOR_CONNECTOR_READY");
        String at = v1 ? "spec.mirrors.[source.alias=dc1].source." : "spec.clusters.[alias=dc1].";
        assertThat(MirrorMakerPlannerTest.shape(p).get(0)).contains(at + "bootstrapServers=dc1-new:9093",
                at + "config.client.rack=zone-a");
        apply(w, p);
        assertThat(w.sourceClusterConfig()).containsEntry("client.rack", "zone-a");
        assertThat(MirrorMakerPlannerTest.plan(block, w.toLive()).steps()).isEmpty();
    }

    @ParameterizedTest(name = "v1 layout: {0}")
    @ValueSource(booleans = {false, true})
    void a_renamed_target_alias_replaces_every_connector_in_a_plan_of_its_own_and_converges(boolean v1) {
        MirrorMakerWorld w = new MirrorMakerWorld("enabled", v1);
        w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
        w.sourceConfig().put("exactly.once.support", "required");
        DesiredMirrorMaker2 west = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.ADOPT, null,
                null, null, "west", null, Map.of(), List.of(MirrorMakerWorld.mirror(true)), Set.of(), null)
                .derived("replication");
        Plan p = MirrorMakerPlannerTest.plan(west, w.toLive());

        assertThat(kinds(p)).containsExactly("UPDATE_CONNECT_CLUSTER", "WAIT_FOR_ROLL", "WAIT_FOR_CONNECTOR_READY");
        assertThat(p.changes()).extracting(c -> c.action() + " " + c.object().name()).containsExactlyInAnyOrder("UPDATE mm2",
                "DELETE dc1->dc2.MirrorSourceConnector", "DELETE dc1->dc2.MirrorCheckpointConnector",
                "CREATE dc1->west.MirrorSourceConnector", "CREATE dc1->west.MirrorCheckpointConnector");
        assertThat(p.diagnostics()).singleElement().satisfies(d -> assertThat(d.detail())
                .contains("mm2-offset-syncs.west.internal", "earliest", "(rule mm2-alias-rename;"));

        apply(w, p);
        assertThat(MirrorMakerPlannerTest.plan(west, w.toLive()).steps()).isEmpty();
        assertThat(w.sourceConfig()).containsEntry("exactly.once.support", "required");
        if (!v1) {
            assertThat(w.spec).containsEntry("connectCluster", "west");
            assertThat(list(w, "mirrors").get(0)).containsEntry("targetCluster", "west");
        }
        MirrorMakerWorld other = new MirrorMakerWorld("enabled", v1);
        DesiredMirrorMaker2 clash = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.ADOPT, null,
                null, null, "dc1", null, Map.of(), List.of(MirrorMakerWorld.mirror(false)), Set.of(), null)
                .derived("replication");
        assertThat(MirrorMakerPlannerTest.plan(clash, other.toLive()).diagnostics()).extracting(d -> d.summary())
                .contains("Target alias already in use");
    }
}
