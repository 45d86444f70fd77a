package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.rules.StopBeforeChange;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Table-driven tests of the forced rolls planned for a KafkaMirrorMaker2 whose operator does not roll its pods on a
 * worker configuration change (Strimzi 0.46-0.48, PR 11926): each worker step is followed by the operator's reconcile,
 * the PodSet annotation {@code strimzi.io/manual-rolling-update} and a wait for the forced roll, in both layouts.
 */
class MirrorMakerForcedRollTest {

    private static final String ANNOTATE = "FORCE_ROLL [metadata.annotations." + Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION
            + "=true]";

    static Stream<Arguments> table() {
        List<Arguments> out = new ArrayList<>();
        for (boolean v1 : new boolean[] {false, true}) {
            String worker = (v1 ? "spec.target.config" : "spec.clusters.[alias=dc2].config") + ".exactly.once.source.support";
            String src = "spec.mirrors." + (v1 ? "[source.alias=dc1]" : "[sourceCluster=dc1]") + ".sourceConnector.config.";
            String state = "spec.mirrors." + (v1 ? "[source.alias=dc1]" : "[sourceCluster=dc1]") + ".sourceConnector.state";
            String mark = "metadata.annotations." + StopBeforeChange.mirrorAnnotation("dc1");
            String stop = "STOP_CONNECTOR [" + state + "=stopped, " + mark + "=running]";
            String start = state + "=running, " + mark + " removed]";
            String on = stop + "|WAIT_FOR_CONNECTOR_READY|UPDATE_CONNECTOR [" + src + "source.consumer.isolation.level=read_committed, "
                    + src + "exactly.once.support=required, " + start;
            String off = stop + "|WAIT_FOR_CONNECTOR_READY|UPDATE_CONNECTOR [" + src + "exactly.once.support removed, " + start;
            out.add(Arguments.of(v1, "unset -> enabled: a forced roll after each mode", null, (Consumer<MirrorMakerWorld>) w -> { },
                    true, List.of("SET_WORKER_EOS preparing [" + worker + "=preparing]", "WAIT_FOR_ROLL preparing", ANNOTATE,
                            "WAIT_FOR_FORCED_ROLL preparing", "SET_WORKER_EOS enabled [" + worker + "=enabled]",
                            "WAIT_FOR_ROLL enabled", ANNOTATE, "WAIT_FOR_FORCED_ROLL enabled", on, "WAIT_FOR_CONNECTOR_READY")));
            out.add(Arguments.of(v1, "preparing -> enabled: first make sure every pod runs preparing", "preparing",
                    (Consumer<MirrorMakerWorld>) w -> { }, true, List.of(ANNOTATE, "WAIT_FOR_FORCED_ROLL preparing",
                            "SET_WORKER_EOS enabled [" + worker + "=enabled]", "WAIT_FOR_ROLL enabled", ANNOTATE,
                            "WAIT_FOR_FORCED_ROLL enabled", on, "WAIT_FOR_CONNECTOR_READY")));
            out.add(Arguments.of(v1, "enabled + required -> disabled: reverse order", "enabled",
                    (Consumer<MirrorMakerWorld>) w -> {
                        w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
                        w.sourceConfig().put("exactly.once.support", "required");
                    }, false, List.of(off, "WAIT_FOR_CONNECTOR_READY", "SET_WORKER_EOS disabled [" + worker + "=disabled]",
                            "WAIT_FOR_ROLL disabled", ANNOTATE, "WAIT_FOR_FORCED_ROLL disabled")));
            out.add(Arguments.of(v1, "enabled workers, mirror only: no roll at all", "enabled", (Consumer<MirrorMakerWorld>) w -> { },
                    true, List.of(on, "WAIT_FOR_CONNECTOR_READY")));
            out.add(Arguments.of(v1, "annotation already on the PodSet: its roll is awaited first", null,
                    (Consumer<MirrorMakerWorld>) w -> w.manualRoll = true, true, List.of("WAIT_FOR_FORCED_ROLL disabled",
                            "SET_WORKER_EOS preparing [" + worker + "=preparing]", "WAIT_FOR_ROLL preparing", ANNOTATE,
                            "WAIT_FOR_FORCED_ROLL preparing", "SET_WORKER_EOS enabled [" + worker + "=enabled]",
                            "WAIT_FOR_ROLL enabled", ANNOTATE, "WAIT_FOR_FORCED_ROLL enabled", on, "WAIT_FOR_CONNECTOR_READY")));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "v1 layout {0}: {1}")
    @MethodSource("table")
    void forced_rolls_follow_every_worker_step(boolean v1, String name, String mode, Consumer<MirrorMakerWorld> setUp,
                                              boolean eos, List<String> expected) {
        MirrorMakerWorld w = new MirrorMakerWorld(mode, v1);
        w.noRoll = true;
        setUp.accept(w);
        Plan p = MirrorMakerPlannerTest.plan(MirrorMakerWorld.adopt(eos), w.toLive());
        assertThat(p.isApplyable()).as(p.diagnostics().toString()).isTrue();
        // a stop before a change of the source connector is written "stop|wait|update" in the table
        assertThat(MirrorMakerPlannerTest.shape(p)).isEqualTo(expected.stream()
                .flatMap(e -> java.util.Arrays.stream(e.split("\\|"))).toList());
        assertThat((long) p.summary().rolls()).as("one restart per forced roll")
                .isEqualTo(expected.stream().filter(s -> s.startsWith("FORCE_ROLL")).count());
        boolean forces = expected.stream().anyMatch(s -> s.contains("FORCED"));
        assertThat(p.diagnostics().stream().anyMatch(d -> d.detail().contains("(rule mm2-forced-roll;"))).isEqualTo(forces);
        for (Step s : p.steps()) {
            if (s.kind() == StepKind.FORCE_ROLL) {
                assertThat(s.object().kind()).isEqualTo("StrimziPodSet");
                assertThat(s.object().name()).isEqualTo("mm2-mirrormaker2");
                assertThat(s.object().apiVersion()).isEqualTo(w.api.coreApiVersion());
                assertThat(p.steps().get(s.id()).kind()).as("the wait follows the annotation")
                        .isEqualTo(StepKind.WAIT_FOR_FORCED_ROLL);
            }
        }
    }

    @Test
    void the_warning_names_the_versions_the_image_and_the_fix() {
        MirrorMakerWorld w = new MirrorMakerWorld(null);
        w.noRoll = true;
        Plan p = MirrorMakerPlannerTest.plan(MirrorMakerWorld.adopt(true), w.toLive());
        Diagnostic d = p.diagnostics().stream().filter(x -> x.detail().contains("mm2-forced-roll")).findFirst().orElseThrow();
        assertThat(d.isError()).isFalse();
        assertThat(d.detail()).contains("no pod carries strimzi.io/configuration-hash", "Strimzi 0.48.0",
                "Strimzi 0.46 to 0.48", "PR 11926", "strimzi.io/manual-rolling-update=\"true\"", "mm2-mirrormaker2");
    }

    @Test
    void pods_with_the_hash_are_rolled_by_the_operator_whatever_their_image_says() {
        MirrorMakerWorld w = new MirrorMakerWorld(null);
        LiveState live = w.toLive();
        Plan p = MirrorMakerPlannerTest.plan(MirrorMakerWorld.adopt(true), live);
        assertThat(p.steps()).noneMatch(s -> s.kind() == StepKind.FORCE_ROLL || s.kind() == StepKind.WAIT_FOR_FORCED_ROLL);
        assertThat(p.diagnostics()).noneMatch(d -> d.detail().contains("mm2-forced-roll"));
    }

    @Test
    void a_roll_check_without_hashes_completes_once_the_operator_wrote_the_config_map() {
        MirrorMakerWorld w = new MirrorMakerWorld("preparing");
        w.noRoll = true;
        var workers = w.toLiveObject().workers();
        assertThat(dev.flowform.plan.rules.RollCheck.evaluate(workers, w.generation, EosMode.PREPARING, false).isComplete())
                .isTrue();
        assertThat(dev.flowform.plan.rules.RollCheck.evaluate(workers, w.generation, EosMode.ENABLED, false).isComplete())
                .as("the ConfigMap does not hold enabled").isFalse();
    }

    @Test
    void converges_after_the_rollout() {
        MirrorMakerWorld w = new MirrorMakerWorld("enabled");
        w.noRoll = true;
        w.sourceConfig().put("source.consumer.isolation.level", "read_committed");
        w.sourceConfig().put("exactly.once.support", "required");
        assertThat(MirrorMakerPlannerTest.plan(MirrorMakerWorld.adopt(true), w.toLive()).steps()).isEmpty();
    }
}
