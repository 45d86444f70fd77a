package dev.flowform.plan;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.StrimziApi;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
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

    private static final String SRC = "spec.mirrors.[sourceCluster=dc1].sourceConnector.config.";
    private static final String SET_EOS = "[" + SRC + "source.consumer.isolation.level=read_committed, " + SRC
            + "exactly.once.support=required]";

    static Stream<Arguments> rollouts() {
        return Stream.of(
                Arguments.of("unset -> enabled: full rollout", (Supplier<LiveState>) () -> new MirrorMakerWorld(null).toLive(),
                        true, List.of("SET_WORKER_EOS preparing [" + WORKER + "=preparing]", "WAIT_FOR_ROLL preparing",
                                "SET_WORKER_EOS enabled [" + WORKER + "=enabled]", "WAIT_FOR_ROLL enabled",
                                "UPDATE_CONNECTOR " + SET_EOS, "WAIT_FOR_CONNECTOR_READY")),
                Arguments.of("preparing rolled -> enabled", (Supplier<LiveState>) () -> new MirrorMakerWorld("preparing").toLive(),
                        true, List.of("SET_WORKER_EOS enabled [" + WORKER + "=enabled]", "WAIT_FOR_ROLL enabled",
                                "UPDATE_CONNECTOR " + SET_EOS, "WAIT_FOR_CONNECTOR_READY")),
                Arguments.of("preparing still rolling: wait first", (Supplier<LiveState>) () -> {
                    MirrorMakerWorld w = new MirrorMakerWorld("preparing");
                    w.roll = MirrorMakerWorld.Roll.IN_PROGRESS;
                    w.podsRun = EosMode.DISABLED;
                    return w.toLive();
                }, true, List.of("WAIT_FOR_ROLL preparing@7", "SET_WORKER_EOS enabled [" + WORKER + "=enabled]",
                        "WAIT_FOR_ROLL enabled", "UPDATE_CONNECTOR " + SET_EOS, "WAIT_FOR_CONNECTOR_READY")),
                Arguments.of("enabled, connector only", (Supplier<LiveState>) () -> new MirrorMakerWorld("enabled").toLive(),
                        true, List.of("UPDATE_CONNECTOR " + SET_EOS, "WAIT_FOR_CONNECTOR_READY")),
                Arguments.of("converged: nothing", (Supplier<LiveState>) () -> {
                    MirrorMakerWorld w = new MirrorMakerWorld("enabled");
                    w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
                    w.sourceConfig().put("exactly.once.support", "required");
                    return w.toLive();
                }, true, List.of()),
                Arguments.of("disable: connector first, then workers", (Supplier<LiveState>) () -> {
                    MirrorMakerWorld w = new MirrorMakerWorld("enabled");
                    w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
                    w.sourceConfig().put("exactly.once.support", "required");
                    return w.toLive();
                }, false, List.of("UPDATE_CONNECTOR [" + SRC + "exactly.once.support removed]", "WAIT_FOR_CONNECTOR_READY",
                        "SET_WORKER_EOS disabled [" + WORKER + "=disabled]", "WAIT_FOR_ROLL disabled")),
                Arguments.of("unset, no exactly-once: nothing", (Supplier<LiveState>) () -> new MirrorMakerWorld(null).toLive(),
                        false, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rollouts")
    void plans_the_safe_rollout(String name, Supplier<LiveState> live, boolean eos, List<String> expected) {
        Plan p = plan(MirrorMakerWorld.adopt(eos), live.get());
        assertThat(p.diagnostics()).filteredOn(Diagnostic::isError).isEmpty();
        assertThat(shape(p)).containsExactlyElementsOf(expected);
        assertThat(p.steps()).allSatisfy(s -> assertThat(s.object().kind()).isEqualTo("KafkaMirrorMaker2"));
        assertThat(p.changes()).hasSize(expected.isEmpty() ? 0 : 1);
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

        assertThat(p.steps()).isEmpty();
        assertThat(p.diagnostics()).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Alias renamed: the operator would delete and create connectors");
            assertThat(d.detail()).contains("delete dc1->dc2.MirrorSourceConnector and dc1->dc2.MirrorCheckpointConnector",
                    "create east->dc2.MirrorSourceConnector and east->dc2.MirrorCheckpointConnector");
        });
        DesiredMirrorMaker2 target = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.ADOPT, null,
                null, null, "west", null, Map.of(), List.of(MirrorMakerWorld.mirror(true)), java.util.Set.of(), null)
                .derived("replication");
        assertThat(plan(target, new MirrorMakerWorld("enabled").toLive()).diagnostics()).singleElement()
                .satisfies(d -> assertThat(d.detail()).contains("create dc1->west.MirrorSourceConnector"));
    }

    private static MirrorMakerWorld withFailedTask(MirrorMakerWorld w) {
        w.connectors.set(0, MirrorMakerWorld.connector("dc1->dc2.MirrorSourceConnector", "RUNNING", "FAILED", "RUNNING"));
        return w;
    }
}
