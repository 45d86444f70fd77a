package dev.flowform.plan;

import static dev.flowform.plan.StepKind.CREATE_CONNECTOR;
import static dev.flowform.plan.StepKind.CREATE_CONNECT_CLUSTER;
import static dev.flowform.plan.StepKind.SET_WORKER_EOS;
import static dev.flowform.plan.StepKind.STOP_CONNECTOR;
import static dev.flowform.plan.StepKind.UPDATE_CONNECTOR;
import static dev.flowform.plan.StepKind.WAIT_FOR_CONNECTOR_READY;
import static dev.flowform.plan.StepKind.WAIT_FOR_ROLL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.plan.rules.StopBeforeChange;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Fixtures;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PlannerTest {

    private static final PlanRequest REQUEST = new PlanRequest("test", new StateRef("lineage-1", 0),
            Instant.parse("2026-11-30T12:00:00Z"));

    private static DesiredState adoptedWithEos() {
        return Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)), List.of(Configs.adoptedFlow(true)));
    }

    static Stream<Arguments> situations() {
        return Stream.of(
                Arguments.of("existing-v1beta2", List.of(SET_WORKER_EOS, WAIT_FOR_ROLL, SET_WORKER_EOS, WAIT_FOR_ROLL,
                        STOP_CONNECTOR, WAIT_FOR_CONNECTOR_READY, UPDATE_CONNECTOR, WAIT_FOR_CONNECTOR_READY), List.of("preparing", "enabled")),
                Arguments.of("existing-v1", List.of(SET_WORKER_EOS, WAIT_FOR_ROLL, SET_WORKER_EOS, WAIT_FOR_ROLL,
                        STOP_CONNECTOR, WAIT_FOR_CONNECTOR_READY, UPDATE_CONNECTOR, WAIT_FOR_CONNECTOR_READY), List.of("preparing", "enabled")),
                Arguments.of("half-done-preparing", List.of(SET_WORKER_EOS, WAIT_FOR_ROLL, STOP_CONNECTOR, WAIT_FOR_CONNECTOR_READY, UPDATE_CONNECTOR,
                        WAIT_FOR_CONNECTOR_READY), List.of("enabled")),
                Arguments.of("roll-in-progress", List.of(WAIT_FOR_ROLL, SET_WORKER_EOS, WAIT_FOR_ROLL, STOP_CONNECTOR, WAIT_FOR_CONNECTOR_READY, UPDATE_CONNECTOR,
                        WAIT_FOR_CONNECTOR_READY), List.of("enabled")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("situations")
    void existing_clusters_get_eos_in_the_safe_order(String fixture, List<StepKind> kinds, List<String> modes) {
        Plan plan = Planner.plan(adoptedWithEos(), Fixtures.live(fixture), REQUEST);

        assertThat(plan.diagnostics()).isEmpty();
        assertThat(plan.steps()).extracting(Step::kind).containsExactlyElementsOf(kinds);
        assertThat(plan.steps()).filteredOn(s -> s.kind() == SET_WORKER_EOS)
                .extracting(s -> ((StepPayload.SetWorkerEos) s.payload()).mode().value())
                .containsExactlyElementsOf(modes);
        Step stop = plan.steps().stream().filter(s -> s.kind() == STOP_CONNECTOR).findFirst().orElseThrow();
        assertThat(stop.object().name()).isEqualTo("dc1-to-dc2-source");
        assertThat(((StepPayload.PatchObject) stop.payload()).edits())
                .extracting(FieldEdit::path, FieldEdit::value)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(List.of("spec", "state"), "stopped"),
                        org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations",
                                StopBeforeChange.RESUME_ANNOTATION), "running"),
                        org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations", Ownership.ENVIRONMENT_ANNOTATION),
                                "test"),
                        org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations", Ownership.LINEAGE_ANNOTATION),
                                "lineage-1"));
        Step update = plan.steps().stream().filter(s -> s.kind() == UPDATE_CONNECTOR).findFirst().orElseThrow();
        assertThat(update.object().name()).isEqualTo("dc1-to-dc2-source");
        assertThat(((StepPayload.PatchObject) update.payload()).edits())
                .extracting(FieldEdit::path, FieldEdit::value, FieldEdit::remove)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(List.of("spec", "config", "exactly.once.support"), "required", false),
                        org.assertj.core.groups.Tuple.tuple(List.of("spec", "config", "source.consumer.isolation.level"),
                                "read_committed", false),
                        org.assertj.core.groups.Tuple.tuple(List.of("spec", "state"), "running", false),
                        org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations",
                                StopBeforeChange.RESUME_ANNOTATION), null, true));
        assertThat(plan.summary()).isEqualTo(new PlanSummary(0, 2, 0, modes.size()));
    }

    @Test
    void roll_in_progress_is_awaited_at_the_generation_the_operator_has_not_observed_yet() {
        Plan plan = Planner.plan(adoptedWithEos(), Fixtures.live("roll-in-progress"), REQUEST);

        StepPayload.WaitForRoll first = (StepPayload.WaitForRoll) plan.steps().get(0).payload();
        assertThat(first.generation()).isEqualTo(5L);
        assertThat(first.expectedMode()).isEqualTo(EosMode.PREPARING);
        assertThat(plan.steps().get(0).summary()).contains("1/3 workers on the new revision");
    }

    @Test
    void checkpoint_and_heartbeat_are_never_given_required() {
        Plan plan = Planner.plan(adoptedWithEos(), Fixtures.live("existing-v1beta2"), REQUEST);

        assertThat(plan.steps()).filteredOn(s -> s.kind().isMutation())
                .noneMatch(s -> s.object().name().endsWith("-checkpoint") || s.object().name().endsWith("-heartbeat"));
    }

    @Test
    void steps_of_one_cluster_form_a_chain() {
        Plan plan = Planner.plan(adoptedWithEos(), Fixtures.live("existing-v1beta2"), REQUEST);

        assertThat(plan.steps().get(0).dependsOn()).isEmpty();
        for (int i = 1; i < plan.steps().size(); i++) {
            assertThat(plan.steps().get(i).dependsOn()).containsExactly(plan.steps().get(i - 1).id());
        }
    }

    @Test
    void new_cluster_is_created_with_enabled_directly_and_its_flow_after_it() {
        DesiredState desired = Configs.desired(List.of(Configs.cluster(ManageMode.OWN, null)),
                List.of(Configs.ownedFlow("dc1-to-dc2", true, List.of("orders\\..*"))));

        Plan plan = Planner.plan(desired, LiveState.empty(StrimziApi.V1BETA2), REQUEST);

        assertThat(plan.diagnostics()).isEmpty();
        assertThat(plan.steps()).extracting(Step::kind).containsExactly(CREATE_CONNECT_CLUSTER, WAIT_FOR_ROLL,
                CREATE_CONNECTOR, WAIT_FOR_CONNECTOR_READY, CREATE_CONNECTOR, WAIT_FOR_CONNECTOR_READY);
        StepPayload.CreateObject kc = (StepPayload.CreateObject) plan.steps().get(0).payload();
        assertThat(kc.manifest()).extractingByKey("spec").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .extractingByKey("config").asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                .containsEntry("exactly.once.source.support", "enabled");
        assertThat(((StepPayload.WaitForRoll) plan.steps().get(1).payload()).expectedMode()).isEqualTo(EosMode.ENABLED);
        StepPayload.CreateObject source = (StepPayload.CreateObject) plan.steps().get(2).payload();
        assertThat(source.manifest().toString()).contains("exactly.once.support=required",
                "source.consumer.isolation.level=read_committed", "app.kubernetes.io/managed-by=flowform");
        StepPayload.CreateObject checkpoint = (StepPayload.CreateObject) plan.steps().get(4).payload();
        assertThat(checkpoint.manifest().toString()).doesNotContain("exactly.once.support");
        assertThat(plan.summary()).isEqualTo(new PlanSummary(3, 0, 0, 0));
    }

    @Test
    void converged_cluster_has_no_changes() {
        LiveState live = Fixtures.live("half-done-preparing");
        DesiredState desired = adoptedWithEos();
        Plan first = Planner.plan(desired, live, REQUEST);
        assertThat(first.hasChanges()).isTrue();

        LiveState converged = Converge.apply(live, first);

        Plan second = Planner.plan(desired, converged, REQUEST);
        assertThat(second.hasChanges()).isFalse();
        assertThat(second.changes()).isEmpty();
    }

    @Test
    void connector_only_change_never_touches_the_kafka_connect() {
        LiveState live = Converge.apply(Fixtures.live("half-done-preparing"),
                Planner.plan(adoptedWithEos(), Fixtures.live("half-done-preparing"), REQUEST));
        DesiredState desired = Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)),
                List.of(new dev.flowform.config.ReplicationFlowBlock("replication_flow.dc1-to-dc2", "dc1-to-dc2",
                        ManageMode.ADOPT, "mm2-connect", null, null, null, List.of("orders\\..*"), null, null, true, null,
                        null, null, null, null, Map.of(), Map.of(), null, java.util.Set.of(), null)));

        Plan plan = Planner.plan(desired, live, REQUEST);

        assertThat(plan.steps()).extracting(Step::kind).containsExactly(UPDATE_CONNECTOR, WAIT_FOR_CONNECTOR_READY);
        assertThat(plan.summary().rolls()).isZero();
    }

    @Test
    void disabling_eos_updates_connectors_before_the_workers() {
        LiveState live = Converge.apply(Fixtures.live("half-done-preparing"),
                Planner.plan(adoptedWithEos(), Fixtures.live("half-done-preparing"), REQUEST));
        DesiredState desired = Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)),
                List.of(Configs.adoptedFlow(false)));

        Plan plan = Planner.plan(desired, live, REQUEST);

        assertThat(plan.steps()).extracting(Step::kind).containsExactly(STOP_CONNECTOR, WAIT_FOR_CONNECTOR_READY,
                UPDATE_CONNECTOR, WAIT_FOR_CONNECTOR_READY, SET_WORKER_EOS, WAIT_FOR_ROLL);
        assertThat(((StepPayload.SetWorkerEos) plan.steps().get(4).payload()).mode()).isEqualTo(EosMode.DISABLED);
    }

    @Test
    void failed_reconcile_is_refused_with_the_operators_message() {
        LiveState live = Fixtures.live(Converge.withCondition(Fixtures.objects("existing-v1beta2"), "NotReady",
                "TimeoutException", "Exceeded timeout of 300000ms while waiting for Pods resource mm2-connect-connect-1"));

        Plan plan = Planner.plan(adoptedWithEos(), live, REQUEST);

        assertThat(plan.isApplyable()).isFalse();
        assertThat(plan.steps()).isEmpty();
        assertThat(plan.diagnostics().get(0).detail()).contains("Exceeded timeout of 300000ms");
    }

    @Test
    void adopted_cluster_that_does_not_exist_is_an_error() {
        Plan plan = Planner.plan(adoptedWithEos(), LiveState.empty(StrimziApi.V1), REQUEST);

        assertThat(plan.isApplyable()).isFalse();
        assertThat(plan.diagnostics().get(0).summary()).isEqualTo("Adopted Connect cluster not found");
    }

    @Test
    void missing_strimzi_is_an_error() {
        Plan plan = Planner.plan(adoptedWithEos(), LiveState.empty(null), REQUEST);

        assertThat(plan.isApplyable()).isFalse();
        assertThat(plan.diagnostics().get(0).summary()).isEqualTo("Strimzi is not installed");
    }
}
