package dev.flowform.plan;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.StrimziApi;
import dev.flowform.plan.rules.StopBeforeChange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Table-driven tests of the KafkaMirrorMaker2 rollout: the same order as for a KafkaConnect (preparing, roll, enabled,
 * roll, then the source connector), the worker setting in the target cluster's entry, the exactly-once keys in
 * {@code sourceConnector.config} only, and the reverse order to disable.
 */
class MirrorMakerPlannerTest {

    private static final String WORKER = "spec.clusters.[alias=dc2].config.exactly.once.source.support";

    static Plan plan(DesiredMirrorMaker2 m, LiveState live) {
        return Planner.plan(MirrorMakerWorld.desired(m), live, new PlanRequest("prod", null, Instant.parse("2026-12-01T00:00:00Z"),
                PlanOptions.DEFAULT, List.of(), v -> "h"));
    }

    /** @return each step as {@code KIND detail}: the mode for worker steps, the edited keys for mirror steps */
    static List<String> shape(Plan p) {
        return p.steps().stream().map(s -> s.kind() + detail(s.payload())).toList();
    }

    private static String detail(StepPayload payload) {
        if (payload instanceof StepPayload.SetWorkerEos e) {
            return " " + e.mode().value() + " " + paths(e.edits());
        }
        if (payload instanceof StepPayload.WaitForRoll w) {
            return " " + w.expectedMode().value() + (w.generation() == null ? "" : "@" + w.generation());
        }
        if (payload instanceof StepPayload.PatchObject po) {
            return " " + paths(po.edits());
        }
        return "";
    }

    private static String paths(List<FieldEdit> edits) {
        return edits.stream().map(e -> String.join(".", e.path()) + (e.remove() ? " removed" : "=" + e.value())).toList()
                .toString();
    }

    /** The worker configuration a v1 resource needs to be created: group id and storage topics. */
    private static final Map<String, String> V1_TARGET = Map.of("group.id", "mm2-cluster", "config.storage.topic",
            "mm2-configs", "offset.storage.topic", "mm2-offsets", "status.storage.topic", "mm2-status",
            "config.storage.replication.factor", "3");
    private static final String WORKER_V1 = "spec.target.config.exactly.once.source.support";
    private static final String SRC = "spec.mirrors.[sourceCluster=dc1].sourceConnector.config.";
    private static final String STATE = "spec.mirrors.[sourceCluster=dc1].sourceConnector.state";
    private static final String MARK = "metadata.annotations." + StopBeforeChange.mirrorAnnotation("dc1");
    /** The stop before a change of the source connector's exactly-once keys, and its wait. */
    private static final String STOP = "STOP_CONNECTOR [" + STATE + "=stopped, " + MARK + "=running]";
    /** What the mirrors patch adds after such a stop: the state to return to, and the mark removed. */
    private static final String START = STATE + "=running, " + MARK + " removed]";
    private static final String SET_EOS = "[" + SRC + "source.consumer.isolation.level=read_committed, " + SRC
            + "exactly.once.support=required, " + START;

    static Stream<Arguments> rollouts() {
        return Stream.of(
                Arguments.of("unset -> enabled: full rollout",
                        (Function<Boolean, LiveState>) v1 -> new MirrorMakerWorld(null, v1).toLive(), true, List.of("SET_WORKER_EOS preparing [" + WORKER + "=preparing]", "WAIT_FOR_ROLL preparing",
                                "SET_WORKER_EOS enabled [" + WORKER + "=enabled]", "WAIT_FOR_ROLL enabled",
                                STOP, "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR " + SET_EOS, "WAIT_FOR_CONNECTOR_READY")),
                Arguments.of("preparing rolled -> enabled",
                        (Function<Boolean, LiveState>) v1 -> new MirrorMakerWorld("preparing", v1).toLive(), true, List.of("SET_WORKER_EOS enabled [" + WORKER + "=enabled]", "WAIT_FOR_ROLL enabled",
                                STOP, "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR " + SET_EOS, "WAIT_FOR_CONNECTOR_READY")),
                Arguments.of("preparing still rolling: wait first", (Function<Boolean, LiveState>) v1 -> {
                    MirrorMakerWorld w = new MirrorMakerWorld("preparing", v1);
                    w.roll = MirrorMakerWorld.Roll.IN_PROGRESS;
                    w.podsRun = EosMode.DISABLED;
                    return w.toLive();
                }, true, List.of("WAIT_FOR_ROLL preparing@7", "SET_WORKER_EOS enabled [" + WORKER + "=enabled]",
                        "WAIT_FOR_ROLL enabled", STOP, "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR " + SET_EOS,
                        "WAIT_FOR_CONNECTOR_READY")),
                Arguments.of("enabled, connector only",
                        (Function<Boolean, LiveState>) v1 -> new MirrorMakerWorld("enabled", v1).toLive(), true, List.of(STOP, "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR " + SET_EOS,
                        "WAIT_FOR_CONNECTOR_READY")),
                Arguments.of("converged: nothing", (Function<Boolean, LiveState>) v1 -> {
                    MirrorMakerWorld w = new MirrorMakerWorld("enabled", v1);
                    w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
                    w.sourceConfig().put("exactly.once.support", "required");
                    return w.toLive();
                }, true, List.of()),
                Arguments.of("disable: connector first, then workers", (Function<Boolean, LiveState>) v1 -> {
                    MirrorMakerWorld w = new MirrorMakerWorld("enabled", v1);
                    w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
                    w.sourceConfig().put("exactly.once.support", "required");
                    return w.toLive();
                }, false, List.of(STOP, "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR [" + SRC + "exactly.once.support removed, "
                        + START, "WAIT_FOR_CONNECTOR_READY",
                        "SET_WORKER_EOS disabled [" + WORKER + "=disabled]", "WAIT_FOR_ROLL disabled")),
                Arguments.of("unset, no exactly-once: nothing",
                        (Function<Boolean, LiveState>) v1 -> new MirrorMakerWorld(null, v1).toLive(), false, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rollouts")
    void plans_the_safe_rollout(String name, Function<Boolean, LiveState> live, boolean eos, List<String> expected) {
        Plan p = plan(MirrorMakerWorld.adopt(eos), live.apply(false));
        assertThat(p.diagnostics()).filteredOn(Diagnostic::isError).isEmpty();
        assertThat(shape(p)).containsExactlyElementsOf(expected);
        assertThat(p.steps()).allSatisfy(s -> assertThat(s.object().kind()).isEqualTo("KafkaMirrorMaker2"));
        assertThat(p.changes()).hasSize(expected.isEmpty() ? 0 : 1);
    }

    /** The v1 layout: the same steps in the same order, on {@code spec.target.config} and {@code [source.alias=dc1]}. */
    @ParameterizedTest(name = "v1: {0}")
    @MethodSource("rollouts")
    void plans_the_same_rollout_on_the_v1_paths(String name, Function<Boolean, LiveState> live, boolean eos,
                                                List<String> expected) {
        Plan p = plan(MirrorMakerWorld.adopt(eos), live.apply(true));
        assertThat(p.diagnostics()).filteredOn(Diagnostic::isError).isEmpty();
        assertThat(shape(p)).containsExactlyElementsOf(expected.stream().map(s -> s.replace(WORKER, WORKER_V1)
                .replace("[sourceCluster=dc1]", "[source.alias=dc1]")).toList());
        assertThat(shape(p)).noneMatch(s -> s.contains("clusters") || s.contains("sourceCluster"));
        assertThat(p.steps()).allSatisfy(s -> assertThat(s.object().apiVersion()).isEqualTo("kafka.strimzi.io/v1"));
        assertThat(p.changes()).hasSize(expected.isEmpty() ? 0 : 1);
    }

    @Test
    @SuppressWarnings("unchecked")
    void the_v1_edits_land_on_the_v1_spec_and_converge() {
        MirrorMakerWorld w = new MirrorMakerWorld(null, true);
        Plan p = plan(MirrorMakerWorld.adopt(true), w.toLive());
        for (Step s : p.steps()) {
            List<FieldEdit> edits = s.payload() instanceof StepPayload.SetWorkerEos e ? e.edits()
                    : s.payload() instanceof StepPayload.PatchObject po ? po.edits() : List.of();
            Map<String, Object> object = new java.util.LinkedHashMap<>(Map.of("spec", w.spec));
            dev.flowform.apply.Edits.apply(object, edits);
            Map<String, Object> edited = new java.util.LinkedHashMap<>((Map<String, Object>) object.get("spec"));
            w.spec.clear();
            w.spec.putAll(edited);
        }
        assertThat(w.workerConfig()).containsEntry("exactly.once.source.support", "enabled");
        assertThat(w.sourceConfig()).containsEntry("exactly.once.support", "required")
                .containsEntry("source.consumer.isolation.level", "read_committed");
        assertThat(w.spec).doesNotContainKeys("clusters", "connectCluster");
        assertThat(plan(MirrorMakerWorld.adopt(true), w.toLive()).steps()).isEmpty();
    }

    @Test
    void the_checkpoint_connector_never_gets_exactly_once_keys() {
        Plan p = plan(MirrorMakerWorld.adopt(true), new MirrorMakerWorld(null).toLive());
        assertThat(p.steps()).flatExtracting(s -> s.payload() instanceof StepPayload.PatchObject po ? po.edits() : List.of())
                .extracting(e -> String.join(".", ((FieldEdit) e).path())).noneMatch(path -> path.contains("checkpointConnector"));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(MirrorMakerWorld.Roll.PAUSED, "reconciliation-paused"),
                Arguments.of(MirrorMakerWorld.Roll.NOT_READY, "failed-reconcile"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refusals")
    void refuses_what_the_operator_would_not_roll(MirrorMakerWorld.Roll roll, String rule) {
        MirrorMakerWorld w = new MirrorMakerWorld(null);
        w.roll = roll;
        if (roll == MirrorMakerWorld.Roll.PAUSED) {
            w.annotations.put("strimzi.io/pause-reconciliation", "true");
        }
        Plan p = plan(MirrorMakerWorld.adopt(true), w.toLive());
        assertThat(p.steps()).isEmpty();
        assertThat(p.diagnostics()).filteredOn(Diagnostic::isError).singleElement()
                .satisfies(d -> assertThat(d.detail()).contains("(rule " + rule + ";"));
        assertThat(p.isApplyable()).isFalse();
    }

    @Test
    void refuses_an_adopted_resource_that_does_not_exist_and_a_missing_mirror() {
        Plan absent = plan(MirrorMakerWorld.adopt(true), LiveState.empty(StrimziApi.V1BETA2));
        assertThat(absent.diagnostics()).extracting(Diagnostic::summary).containsExactly("Adopted KafkaMirrorMaker2 not found");
        DesiredMirrorMaker2 other = MirrorMakerWorld.block(ManageMode.ADOPT, List.of(MirrorMakerWorld.mirror(true),
                new DesiredMirror("dc3", null, Map.of(), null, null, null, Map.of(), Map.of(), true, null)));
        Plan missing = plan(other, new MirrorMakerWorld("enabled").toLive());
        assertThat(missing.diagnostics()).extracting(Diagnostic::summary).containsExactly("Mirror not found");
        assertThat(missing.steps()).isEmpty();
    }

    @Test
    void creates_a_missing_owned_resource_at_its_final_mode_with_exactly_once_on_the_source_connector_only() {
        DesiredMirrorMaker2 own = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.OWN, null, 1,
                "3.9.0", "dc2", "dc2:9092", Map.of("group.id", "mm2-cluster"), List.of(new DesiredMirror("dc1", "dc1:9092",
                Map.of(), "orders.*", ".*", 2, Map.of("replication.factor", "3"), Map.of("emit.checkpoints.interval.seconds", "10"),
                true, null)), java.util.Set.of(), null).derived("replication");
        Plan p = plan(own, LiveState.empty(StrimziApi.V1BETA2));
        assertThat(shape(p)).containsExactly("CREATE_CONNECT_CLUSTER", "WAIT_FOR_ROLL enabled", "WAIT_FOR_CONNECTOR_READY");
        Map<String, Object> manifest = ((StepPayload.CreateObject) p.steps().get(0).payload()).manifest();
        String json = Json.render(manifest);
        assertThat(json).contains("\"connectCluster\":\"dc2\"").contains("\"exactly.once.source.support\":\"enabled\"");
        assertThat(json.indexOf("exactly.once.support")).isGreaterThan(json.indexOf("sourceConnector"))
                .isLessThan(json.indexOf("checkpointConnector"));
        assertThat(json.lastIndexOf("exactly.once.support")).isEqualTo(json.indexOf("exactly.once.support"));
    }

    @Test
    void refuses_exactly_once_mirrors_on_workers_that_stay_preparing() {
        DesiredMirrorMaker2 m = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.ADOPT,
                EosMode.PREPARING, null, null, "dc2", null, Map.of(), List.of(MirrorMakerWorld.mirror(true)),
                java.util.Set.of(), null).derived("replication");
        Plan p = plan(m, new MirrorMakerWorld(null).toLive());
        assertThat(p.diagnostics()).filteredOn(Diagnostic::isError).extracting(Diagnostic::summary)
                .containsExactly("Exactly-once mirror on workers that are not enabled");
    }

    @Test
    void a_failed_task_while_ready_is_reported_and_its_restart_offered_as_a_step() {
        MirrorMakerWorld w = new MirrorMakerWorld("enabled");
        w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
        w.sourceConfig().put("exactly.once.support", "required");
        w.connectors.set(0, MirrorMakerWorld.connector("dc1->dc2.MirrorSourceConnector", "RUNNING", "RUNNING", "FAILED"));
        Plan p = plan(MirrorMakerWorld.adopt(true), w.toLive());

        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isFalse();
            assertThat(d.detail()).contains("task 1 of dc1->dc2.MirrorSourceConnector FAILED", "(rule connector-failed;");
        });
        assertThat(shape(p)).containsExactly("ANNOTATE [metadata.annotations.strimzi.io/restart-connector-task="
                + "dc1->dc2.MirrorSourceConnector:1]");
        assertThat(p.changes()).singleElement().satisfies(c -> assertThat(c.reason())
                .isEqualTo("restart FAILED task dc1->dc2.MirrorSourceConnector:1 (strimzi.io/restart-connector-task)"));

        Plan rollout = plan(MirrorMakerWorld.adopt(true), withFailedTask(new MirrorMakerWorld(null)).toLive());
        assertThat(shape(rollout)).noneMatch(s -> s.startsWith("ANNOTATE"));
        assertThat(rollout.diagnostics()).extracting(Diagnostic::detail).anyMatch(d -> d.contains("The planned changes restart"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void warns_where_mirror_maker_2_drops_isolation_or_rejects_required_and_removes_required_from_the_checkpoint() {
        MirrorMakerWorld w = new MirrorMakerWorld("enabled");
        w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
        w.sourceConfig().put("exactly.once.support", "required");
        Map<String, Object> source = (Map<String, Object>) ((List<Object>) w.spec.get("clusters")).get(0);
        ((Map<String, Object>) source.get("config")).put("consumer.isolation.level", "read_committed");
        Map<String, Object> mirror = (Map<String, Object>) ((List<Object>) w.spec.get("mirrors")).get(0);
        ((Map<String, Object>) ((Map<String, Object>) mirror.get("checkpointConnector")).get("config"))
                .put("exactly.once.support", "required");
        Plan p = plan(MirrorMakerWorld.adopt(true), w.toLive());

        assertThat(p.diagnostics()).extracting(Diagnostic::summary).containsExactly(
                "isolation.level where MirrorMaker 2 drops it", "exactly.once.support on the checkpoint connector");
        assertThat(p.diagnostics()).allSatisfy(d -> assertThat(d.isError()).isFalse());
        assertThat(shape(p)).containsExactly("UPDATE_CONNECTOR [spec.mirrors.[sourceCluster=dc1].checkpointConnector.config."
                + "exactly.once.support removed]", "WAIT_FOR_CONNECTOR_READY");
    }

    @Test
    void a_renamed_alias_is_shown_as_the_connectors_the_operator_deletes_and_creates() {
        DesiredMirrorMaker2 renamed = MirrorMakerWorld.block(ManageMode.ADOPT, List.of(new DesiredMirror("east", null,
                Map.of(), null, null, null, Map.of(), Map.of(), true, null)));
        Plan p = plan(renamed, new MirrorMakerWorld("enabled").toLive());

        assertThat(p.isApplyable()).isTrue();
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Source alias renamed: its connectors are replaced");
            assertThat(d.detail()).contains("delete dc1->dc2.* and create east->dc2.*");
        });
        assertThat(p.changes()).extracting(c -> c.action() + " " + c.address()).contains(
                "DELETE mirrormaker2.mm2.connector[\"dc1->dc2.MirrorSourceConnector\"]",
                "DELETE mirrormaker2.mm2.connector[\"dc1->dc2.MirrorCheckpointConnector\"]",
                "CREATE mirrormaker2.mm2.connector[\"east->dc2.MirrorSourceConnector\"]",
                "CREATE mirrormaker2.mm2.connector[\"east->dc2.MirrorCheckpointConnector\"]");
        DesiredMirrorMaker2 target = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.ADOPT, null,
                null, null, "west", null, Map.of(), List.of(MirrorMakerWorld.mirror(true)), java.util.Set.of(), null)
                .derived("replication");
        assertThat(plan(target, new MirrorMakerWorld("enabled").toLive()).diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.summary()).isEqualTo("Target alias renamed with other changes"));
        // a declared mirror without bootstrap servers that renames nothing cannot be added
        DesiredMirrorMaker2 two = MirrorMakerWorld.block(ManageMode.ADOPT, List.of(MirrorMakerWorld.mirror(true),
                new DesiredMirror("east", null, Map.of(), null, null, null, Map.of(), Map.of(), true, null)));
        assertThat(plan(two, new MirrorMakerWorld("enabled").toLive()).diagnostics()).extracting(Diagnostic::summary)
                .containsExactly("Mirror not found");
    }

    @Test
    @SuppressWarnings("unchecked")
    void creates_a_missing_owned_resource_in_the_v1_layout_when_the_server_serves_v1() {
        DesiredMirrorMaker2 own = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.OWN, null, 1,
                "3.9.0", "dc2", "dc2:9092", V1_TARGET, List.of(new DesiredMirror("dc1", "dc1:9092", Map.of(), "orders.*",
                ".*", 2, Map.of("replication.factor", "3"), Map.of("emit.checkpoints.interval.seconds", "10"), true, null)),
                java.util.Set.of(), null).derived("replication");
        Plan p = plan(own, LiveState.empty(StrimziApi.V1));
        assertThat(shape(p)).containsExactly("CREATE_CONNECT_CLUSTER", "WAIT_FOR_ROLL enabled", "WAIT_FOR_CONNECTOR_READY");
        assertThat(p.diagnostics()).isEmpty();
        Map<String, Object> manifest = ((StepPayload.CreateObject) p.steps().get(0).payload()).manifest();
        assertThat(manifest).containsEntry("apiVersion", "kafka.strimzi.io/v1");
        Map<String, Object> spec = (Map<String, Object>) manifest.get("spec");
        assertThat(spec).doesNotContainKeys("clusters", "connectCluster");
        Map<String, Object> target = (Map<String, Object>) spec.get("target");
        assertThat(target).containsEntry("alias", "dc2").containsEntry("bootstrapServers", "dc2:9092")
                .containsEntry("groupId", "mm2-cluster").containsEntry("configStorageTopic", "mm2-configs")
                .containsEntry("offsetStorageTopic", "mm2-offsets").containsEntry("statusStorageTopic", "mm2-status");
        assertThat((Map<String, Object>) target.get("config")).containsOnlyKeys("config.storage.replication.factor",
                "exactly.once.source.support").containsEntry("exactly.once.source.support", "enabled");
        Map<String, Object> mirror = (Map<String, Object>) ((List<Object>) spec.get("mirrors")).get(0);
        assertThat(mirror).doesNotContainKeys("sourceCluster", "targetCluster");
        assertThat((Map<String, Object>) mirror.get("source")).containsEntry("alias", "dc1").containsEntry("bootstrapServers",
                "dc1:9092");
        String json = Json.render(manifest);
        assertThat(json.indexOf("exactly.once.support")).isGreaterThan(json.indexOf("sourceConnector"))
                .isLessThan(json.indexOf("checkpointConnector"));
        assertThat(json.lastIndexOf("exactly.once.support")).isEqualTo(json.indexOf("exactly.once.support"));
    }

    @Test
    void refuses_to_create_a_v1_resource_without_the_target_group_id_and_storage_topics() {
        DesiredMirrorMaker2 own = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.OWN, null, 1,
                "3.9.0", "dc2", "dc2:9092", Map.of("group.id", "mm2-cluster"), List.of(MirrorMakerWorld.mirror(true)),
                java.util.Set.of(), null).derived("replication");
        Plan p = plan(own, LiveState.empty(StrimziApi.V1));
        assertThat(p.steps()).isEmpty();
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.detail()).contains("Declare config.storage.topic, offset.storage.topic, status.storage.topic");
        });
        assertThat(plan(own, LiveState.empty(StrimziApi.V1BETA2)).diagnostics()).isEmpty();
    }

    @Test
    void a_declared_group_id_edits_the_v1_target_field_not_the_forbidden_config_key() {
        DesiredMirrorMaker2 m = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.ADOPT, null,
                null, null, "dc2", null, Map.of("group.id", "mm2-other", "config.storage.replication.factor", "3"),
                List.of(MirrorMakerWorld.mirror(false)), java.util.Set.of(), null).derived("replication");
        Plan p = plan(m, new MirrorMakerWorld(null, true).toLive());
        assertThat(shape(p)).containsExactly("UPDATE_CONNECT_CLUSTER [spec.target.groupId=mm2-other]", "WAIT_FOR_ROLL disabled");
        assertThat(p.changes()).singleElement().satisfies(c -> assertThat(c.attributes())
                .extracting(AttributeChange::path).containsExactly("spec.target.groupId"));
    }

    @Test
    void a_changed_target_bootstrap_is_a_worker_change_that_rolls_in_either_layout() {
        for (boolean v1 : List.of(false, true)) {
            String at = v1 ? "spec.target.bootstrapServers" : "spec.clusters[alias=dc2].bootstrapServers";
            Plan same = plan(withTargetBootstrap("dc2-kafka-bootstrap:9092"), new MirrorMakerWorld(null, v1).toLive());
            assertThat(same.steps()).as("unchanged, v1=%s", v1).isEmpty();

            Plan moved = plan(withTargetBootstrap("dc2-new-bootstrap:9093"), new MirrorMakerWorld(null, v1).toLive());
            assertThat(shape(moved)).as("v1=%s", v1).containsExactly(
                    "UPDATE_CONNECT_CLUSTER [" + at.replace("[", ".[") + "=dc2-new-bootstrap:9093]", "WAIT_FOR_ROLL disabled");
            assertThat(moved.changes()).singleElement().satisfies(c -> assertThat(c.attributes()).singleElement()
                    .satisfies(a -> {
                        assertThat(a.path()).isEqualTo(at);
                        assertThat(a.before()).isEqualTo("\"dc2-kafka-bootstrap:9092\"");
                        assertThat(a.after()).isEqualTo("\"dc2-new-bootstrap:9093\"");
                    }));
        }
        // with the exactly-once rollout, the new address rides with the first mode change and its roll
        DesiredMirrorMaker2 eos = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.ADOPT, null,
                null, null, "dc2", "dc2-new-bootstrap:9093", Map.of(), List.of(MirrorMakerWorld.mirror(true)),
                java.util.Set.of(), null).derived("replication");
        assertThat(shape(plan(eos, new MirrorMakerWorld(null).toLive()))).startsWith(
                "SET_WORKER_EOS preparing [" + WORKER + "=preparing, spec.clusters.[alias=dc2].bootstrapServers=dc2-new-bootstrap:9093]",
                "WAIT_FOR_ROLL preparing", "SET_WORKER_EOS enabled [" + WORKER + "=enabled]", "WAIT_FOR_ROLL enabled");
    }

    private static DesiredMirrorMaker2 withTargetBootstrap(String bootstrap) {
        return new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.ADOPT, null, null, null, "dc2",
                bootstrap, Map.of(), List.of(MirrorMakerWorld.mirror(false)), java.util.Set.of(), null).derived("replication");
    }

    @Test
    @SuppressWarnings("unchecked")
    void v1_refusals_warnings_and_messages_name_the_v1_paths() {
        for (MirrorMakerWorld.Roll roll : List.of(MirrorMakerWorld.Roll.PAUSED, MirrorMakerWorld.Roll.NOT_READY)) {
            MirrorMakerWorld w = new MirrorMakerWorld(null, true);
            w.roll = roll;
            if (roll == MirrorMakerWorld.Roll.PAUSED) {
                w.annotations.put("strimzi.io/pause-reconciliation", "true");
            }
            Plan p = plan(MirrorMakerWorld.adopt(true), w.toLive());
            assertThat(p.steps()).as("%s", roll).isEmpty();
            assertThat(p.isApplyable()).isFalse();
        }
        DesiredMirrorMaker2 other = MirrorMakerWorld.block(ManageMode.ADOPT, List.of(MirrorMakerWorld.mirror(true),
                new DesiredMirror("dc3", null, Map.of(), null, null, null, Map.of(), Map.of(), true, null)));
        assertThat(plan(other, new MirrorMakerWorld("enabled", true).toLive()).diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.detail()).contains("(spec.mirrors[].source.alias)"));

        MirrorMakerWorld w = new MirrorMakerWorld("enabled", true);
        w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
        w.sourceConfig().put("exactly.once.support", "required");
        w.sourceClusterConfig().put("isolation.level", "read_committed");
        ((Map<String, Object>) w.mirrorEntry().get("checkpointConnector")).put("config",
                new java.util.LinkedHashMap<>(Map.of("exactly.once.support", "required")));
        Plan p = plan(MirrorMakerWorld.adopt(true), w.toLive());
        assertThat(p.diagnostics()).extracting(Diagnostic::summary).containsExactly(
                "isolation.level where MirrorMaker 2 drops it", "exactly.once.support on the checkpoint connector");
        assertThat(p.diagnostics()).anySatisfy(d -> assertThat(d.detail()).contains("cluster dc1"))
                .anySatisfy(d -> assertThat(d.detail()).contains("spec.mirrors[source.alias=dc1].checkpointConnector"));
        assertThat(shape(p)).containsExactly("UPDATE_CONNECTOR [spec.mirrors.[source.alias=dc1].checkpointConnector.config."
                + "exactly.once.support removed]", "WAIT_FOR_CONNECTOR_READY");

        MirrorMakerWorld early = new MirrorMakerWorld("preparing", true);
        early.sourceConfig().put("exactly.once.support", "required");
        assertThat(plan(MirrorMakerWorld.adopt(true), early.toLive()).diagnostics()).filteredOn(Diagnostic::isError)
                .singleElement().satisfies(d -> assertThat(d.detail()).contains("spec.mirrors[source.alias=dc1].sourceConnector"));
    }

    private static MirrorMakerWorld withFailedTask(MirrorMakerWorld w) {
        w.connectors.set(0, MirrorMakerWorld.connector("dc1->dc2.MirrorSourceConnector", "RUNNING", "FAILED", "RUNNING"));
        return w;
    }
}
