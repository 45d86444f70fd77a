package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.testing.Configs;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * A FAILED task of a KafkaConnector is restarted through the operator ({@code strimzi.io/restart-task}) when nothing
 * else in the plan restarts it and the operator acts on the connector; otherwise the warning says what to do.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class TaskRestartPlanTest {

    private static final String SOURCE = "dc1-to-dc2-source";
    private static final PlanRequest REQUEST = new PlanRequest("prod", new StateRef("lineage-1", 0),
            Instant.parse("2026-11-30T12:00:00Z"));

    /** The quickstart at {@code enabled}, its source connector exactly-once already, task 0 of it FAILED. */
    private static World failedTask(World.Roll roll) {
        World w = World.quickstart(StrimziApi.V1BETA2, "enabled", roll, null);
        w.sourceExactlyOnce().failSourceTask();
        return w;
    }

    private static DesiredState desired(boolean exactlyOnce, Map<String, String> clusterConfig) {
        return Configs.desired(List.of(new dev.flowform.model.DesiredConnectCluster("connect_cluster.mm2-connect",
                "mm2-connect", null, ManageMode.ADOPT, null, null, null, null, clusterConfig, Map.of(), java.util.Set.of(),
                null)), List.of(Configs.adoptedFlow(exactlyOnce)));
    }

    private static String warning(Plan plan) {
        return plan.diagnostics().stream().filter(d -> d.summary().equals("Connector " + SOURCE + " has failed"))
                .map(Diagnostic::detail).findFirst().orElseThrow();
    }

    @Test
    void a_failed_task_of_a_connector_the_plan_does_not_change_is_restarted_by_the_operator() {
        Plan plan = Planner.plan(desired(true, Map.of()), failedTask(World.Roll.ROLLED).toLive(), REQUEST);

        assertThat(plan.isApplyable()).isTrue();
        assertThat(plan.steps()).singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo(StepKind.ANNOTATE);
            assertThat(s.address()).isEqualTo("kafka_connector." + SOURCE);
            assertThat(s.object().kind()).isEqualTo("KafkaConnector");
            assertThat(((StepPayload.PatchObject) s.payload()).edits()).contains(
                    FieldEdit.set(List.of("metadata", "annotations", Strimzi.RESTART_TASK_ANNOTATION), "0", false));
        });
        assertThat(plan.changes()).singleElement().satisfies(c -> assertThat(c.reason())
                .isEqualTo("restart FAILED task " + SOURCE + ":0 (strimzi.io/restart-task)"));
        assertThat(plan.summary().rolls()).isZero();
        assertThat(warning(plan)).contains("asks the operator to restart the task (strimzi.io/restart-task=0)");
    }

    @Test
    void a_connector_the_plan_changes_is_restarted_by_its_change() {
        Plan plan = Planner.plan(desired(false, Map.of()), failedTask(World.Roll.ROLLED).toLive(), REQUEST);

        assertThat(plan.steps()).noneMatch(s -> s.kind() == StepKind.ANNOTATE);
        assertThat(plan.steps()).anyMatch(s -> s.kind() == StepKind.UPDATE_CONNECTOR);
        assertThat(warning(plan)).contains("This plan changes its configuration, which makes Kafka Connect restart it.");
    }

    @Test
    void a_roll_of_the_workers_restarts_every_task_so_no_restart_is_planned() {
        Plan plan = Planner.plan(desired(true, Map.of("offset.flush.interval.ms", "10000")),
                failedTask(World.Roll.ROLLED).toLive(), REQUEST);

        assertThat(plan.steps()).extracting(Step::kind).contains(StepKind.UPDATE_CONNECT_CLUSTER)
                .doesNotContain(StepKind.ANNOTATE);
    }

    @Test
    void no_restart_while_the_operator_does_not_act_on_the_cluster_and_the_warning_names_the_task_command() {
        for (World.Roll roll : List.of(World.Roll.NOT_READY, World.Roll.PAUSED, World.Roll.IN_PROGRESS)) {
            World w = failedTask(roll);
            w.previous = EosMode.ENABLED;
            Plan plan = Planner.plan(desired(true, Map.of()), w.toLive(), REQUEST);

            assertThat(plan.steps()).as("%s", roll).noneMatch(s -> s.kind() == StepKind.ANNOTATE);
            assertThat(warning(plan)).as("%s", roll).contains("(kubectl annotate kafkaconnector -n " + World.NS
                    + " " + SOURCE + " strimzi.io/restart-task=0).");
        }
    }

    @Test
    void no_restart_when_the_connectors_last_reconcile_failed_for_another_reason() {
        World w = failedTask(World.Roll.ROLLED);
        dev.flowform.model.LiveState live = w.toLive();
        dev.flowform.model.LiveConnector l = live.connector(World.NS, SOURCE).orElseThrow();
        dev.flowform.model.LiveConnector rejected = new dev.flowform.model.LiveConnector(l.ref(), l.resourceVersion(),
                l.generation(), l.labels(), l.annotations(), l.className(), l.tasksMax(), l.state(), l.config(),
                l.observedGeneration(), List.of(new dev.flowform.model.Condition("NotReady", "True", "ConnectRestException",
                "PUT /connectors/" + SOURCE + "/config returned 500 (Internal Server Error)")), l.connectorState(),
                l.connectorTrace(), l.tasks(), l.raw());
        List<dev.flowform.model.LiveConnector> connectors = new java.util.ArrayList<>(live.connectors());
        connectors.replaceAll(c -> c.name().equals(SOURCE) ? rejected : c);
        dev.flowform.model.LiveState read = new dev.flowform.model.LiveState(live.api(), live.server(), live.clusters(),
                connectors, live.fingerprints());

        Plan plan = Planner.plan(desired(true, Map.of()), read, REQUEST);

        assertThat(plan.steps()).noneMatch(s -> s.kind() == StepKind.ANNOTATE);
    }
}
