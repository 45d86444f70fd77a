package dev.flowform.plan;

import static dev.flowform.plan.StepKind.SET_WORKER_EOS;
import static dev.flowform.plan.StepKind.TRANSFER_OWNERSHIP;
import static dev.flowform.plan.StepKind.STOP_CONNECTOR;
import static dev.flowform.plan.StepKind.UPDATE_CONNECTOR;
import static dev.flowform.plan.StepKind.WAIT_FOR_CONNECTOR_READY;
import static dev.flowform.plan.StepKind.WAIT_FOR_ROLL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Severity;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Fixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The ownership rule: objects marked by another environment or state lineage are refused, objects with our
 * marks or without marks are planned as before (unmarked ones get our marks with their first write), and
 * {@code --transfer-ownership} takes marked objects over with metadata-only steps.
 */
class PlannerOwnershipTest {

    private static final String LINEAGE = "lineage-test";
    private static final PlanRequest REQUEST = new PlanRequest("test", new StateRef(LINEAGE, 3),
            Instant.parse("2026-11-30T12:00:00Z"));
    private static final String CLUSTER = "connect_cluster.mm2-connect";
    private static final String SOURCE = "kafka_connector.dc1-to-dc2-source";

    private static DesiredState adoptedWithEos() {
        return Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)), List.of(Configs.adoptedFlow(true)));
    }

    /** The fixture with extra labels and annotations on the KafkaConnect and on connector {@code connector}. */
    private static LiveState marked(Map<String, String> clusterLabels, Map<String, String> clusterAnnotations,
                                    String connector, Map<String, String> connectorLabels,
                                    Map<String, String> connectorAnnotations) {
        LiveState base = Fixtures.live("existing-v1beta2");
        List<LiveConnectCluster> clusters = new ArrayList<>();
        for (LiveConnectCluster c : base.clusters()) {
            clusters.add(new LiveConnectCluster(c.ref(), c.resourceVersion(), c.generation(), merge(c.labels(), clusterLabels),
                    merge(c.annotations(), clusterAnnotations), c.spec(), c.config(), c.observedGeneration(), c.conditions(),
                    c.podSet(), c.pods(), c.configMap(), c.raw()));
        }
        List<LiveConnector> connectors = new ArrayList<>();
        for (LiveConnector l : base.connectors()) {
            boolean hit = l.name().equals(connector);
            connectors.add(new LiveConnector(l.ref(), l.resourceVersion(), l.generation(),
                    hit ? merge(l.labels(), connectorLabels) : l.labels(),
                    hit ? merge(l.annotations(), connectorAnnotations) : l.annotations(), l.className(), l.tasksMax(),
                    l.state(), l.config(), l.observedGeneration(), l.conditions(), l.connectorState(), l.connectorTrace(),
                    l.tasks(), l.raw()));
        }
        return new LiveState(base.api(), base.server(), clusters, connectors, base.fingerprints());
    }

    private static Map<String, String> merge(Map<String, String> a, Map<String, String> b) {
        Map<String, String> m = new TreeMap<>(a);
        m.putAll(b);
        return m;
    }

    private static Map<String, String> marks(String env, String lineage) {
        return Map.of(Ownership.ENVIRONMENT_ANNOTATION, env, Ownership.LINEAGE_ANNOTATION, lineage);
    }

    private static List<Diagnostic> ownershipDiagnostics(Plan plan) {
        return plan.diagnostics().stream().filter(d -> d.detail().contains("rule " + Rule.OWNERSHIP.id())).toList();
    }

    private static List<FieldEdit> edits(Step s) {
        return s.payload() instanceof StepPayload.SetWorkerEos se ? se.edits() : ((StepPayload.PatchObject) s.payload()).edits();
    }

    @Test
    void a_cluster_marked_by_another_environment_is_refused_naming_both_owners() {
        LiveState live = marked(Map.of(), marks("staging", "lineage-staging"), null, Map.of(), Map.of());

        Plan plan = Planner.plan(adoptedWithEos(), live, REQUEST);

        assertThat(plan.isApplyable()).isFalse();
        assertThat(plan.steps()).isEmpty();
        assertThat(ownershipDiagnostics(plan)).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.ERROR);
            assertThat(d.address()).isEqualTo(CLUSTER);
            assertThat(d.summary()).isEqualTo("Object is managed by another flowform state");
            assertThat(d.detail()).contains("KafkaConnect replication/mm2-connect")
                    .contains("environment \"staging\" (lineage lineage-staging)")
                    .contains("environment \"test\" (lineage " + LINEAGE + ")")
                    .contains("--transfer-ownership " + CLUSTER);
        });
    }

    @Test
    void a_connector_only_labelled_for_another_environment_is_refused_and_every_foreign_object_is_listed() {
        LiveState live = marked(Map.of(), marks("staging", "lineage-staging"), "dc1-to-dc2-source",
                Map.of(Planner.ENVIRONMENT_LABEL, "staging"), Map.of());

        Plan plan = Planner.plan(adoptedWithEos(), live, REQUEST);

        assertThat(ownershipDiagnostics(plan)).extracting(Diagnostic::address).containsExactly(CLUSTER, SOURCE);
        assertThat(ownershipDiagnostics(plan).get(1).detail())
                .contains("KafkaConnector replication/dc1-to-dc2-source carries the ownership marks of environment "
                        + "\"staging\" (lineage not recorded)")
                .contains("environment \"test\" (lineage " + LINEAGE + ")");
    }

    @Test
    void our_environment_with_another_lineage_is_refused_as_a_lost_state() {
        LiveState live = marked(Map.of(), marks("test", "lineage-before-the-state-was-lost"), null, Map.of(), Map.of());

        Plan plan = Planner.plan(adoptedWithEos(), live, REQUEST);

        assertThat(plan.isApplyable()).isFalse();
        assertThat(ownershipDiagnostics(plan)).singleElement().satisfies(d -> assertThat(d.detail())
                .contains("environment \"test\" (lineage lineage-before-the-state-was-lost)")
                .contains("environment \"test\" (lineage " + LINEAGE + ")"));
    }

    @Test
    void objects_with_our_marks_are_planned_without_writing_the_marks_again() {
        LiveState live = marked(Map.of(), marks("test", LINEAGE), "dc1-to-dc2-source", Map.of(), marks("test", LINEAGE));

        Plan plan = Planner.plan(adoptedWithEos(), live, REQUEST);

        assertThat(plan.diagnostics()).isEmpty();
        assertThat(plan.steps()).extracting(Step::kind).containsExactly(SET_WORKER_EOS, WAIT_FOR_ROLL, SET_WORKER_EOS,
                WAIT_FOR_ROLL, STOP_CONNECTOR, WAIT_FOR_CONNECTOR_READY, UPDATE_CONNECTOR, WAIT_FOR_CONNECTOR_READY);
        assertThat(plan.steps()).filteredOn(s -> s.kind().isMutation())
                .allSatisfy(s -> assertThat(edits(s)).noneMatch(e -> Ownership.isMark(e.path())));
    }

    @Test
    void unmarked_objects_stay_adoptable_and_get_our_marks_with_their_first_write_only() {
        Plan plan = Planner.plan(adoptedWithEos(), Fixtures.live("existing-v1beta2"), REQUEST);

        assertThat(plan.diagnostics()).isEmpty();
        assertThat(plan.steps()).extracting(Step::kind).doesNotContain(TRANSFER_OWNERSHIP);
        List<Step> writes = plan.steps().stream().filter(s -> s.kind().isMutation()).toList();
        assertThat(edits(writes.get(0))).filteredOn(e -> Ownership.isMark(e.path()))
                .extracting(FieldEdit::path, FieldEdit::value).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations", Ownership.ENVIRONMENT_ANNOTATION), "test"),
                        org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations", Ownership.LINEAGE_ANNOTATION), LINEAGE));
        assertThat(edits(writes.get(1))).as("the second EOS patch of the same KafkaConnect writes no marks again")
                .noneMatch(e -> Ownership.isMark(e.path()));
        assertThat(writes.get(2).kind()).as("the connector's first write is its stop").isEqualTo(STOP_CONNECTOR);
        assertThat(edits(writes.get(2))).filteredOn(e -> Ownership.isMark(e.path())).hasSize(2);
        assertThat(edits(writes.get(3))).noneMatch(e -> Ownership.isMark(e.path()));
        assertThat(plan.summary().rolls()).as("the marks cost no roll").isEqualTo(2);
        assertThat(plan.steps()).filteredOn(s -> s.object().kind().equals("KafkaConnect"))
                .allSatisfy(s -> assertThat(s.payload() instanceof StepPayload.WaitForRoll || edits(s).stream()
                        .noneMatch(e -> e.path().get(1).equals("labels"))).as("never a label on an existing KafkaConnect")
                        .isTrue());
    }

    @Test
    void transfer_takes_the_objects_over_with_metadata_only_steps_first_in_the_chain() {
        LiveState live = marked(Map.of(Planner.ENVIRONMENT_LABEL, "staging"), marks("staging", "lineage-staging"),
                "dc1-to-dc2-source", Map.of(Planner.ENVIRONMENT_LABEL, "staging"), marks("staging", "lineage-staging"));
        PlanRequest request = REQUEST.withOptions(PlanOptions.DEFAULT.withTransferOwnership(
                List.of(CLUSTER, "replication_flow.dc1-to-dc2")));

        Plan plan = Planner.plan(adoptedWithEos(), live, request);

        assertThat(plan.diagnostics()).isEmpty();
        assertThat(plan.steps()).extracting(Step::kind).containsExactly(TRANSFER_OWNERSHIP, TRANSFER_OWNERSHIP,
                TRANSFER_OWNERSHIP, TRANSFER_OWNERSHIP, SET_WORKER_EOS, WAIT_FOR_ROLL, SET_WORKER_EOS, WAIT_FOR_ROLL,
                STOP_CONNECTOR, WAIT_FOR_CONNECTOR_READY, UPDATE_CONNECTOR, WAIT_FOR_CONNECTOR_READY);
        Step cluster = plan.steps().get(0);
        assertThat(cluster.address()).isEqualTo(CLUSTER);
        assertThat(cluster.summary()).isEqualTo("take over from environment \"staging\" (lineage lineage-staging)");
        assertThat(edits(cluster)).as("annotations only: a KafkaConnect's labels reach its pods and would roll them")
                .extracting(FieldEdit::path, FieldEdit::value).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations", Ownership.ENVIRONMENT_ANNOTATION), "test"),
                        org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations", Ownership.LINEAGE_ANNOTATION), LINEAGE));
        List<Step> transfers = plan.steps().subList(1, 4);
        assertThat(transfers).extracting(Step::address).containsExactlyInAnyOrder(SOURCE,
                "kafka_connector.dc1-to-dc2-checkpoint", "kafka_connector.dc1-to-dc2-heartbeat");
        Step source = transfers.stream().filter(t -> t.address().equals(SOURCE)).findFirst().orElseThrow();
        assertThat(edits(source)).extracting(FieldEdit::path, FieldEdit::value).containsExactly(
                org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations", Ownership.ENVIRONMENT_ANNOTATION), "test"),
                org.assertj.core.groups.Tuple.tuple(List.of("metadata", "annotations", Ownership.LINEAGE_ANNOTATION), LINEAGE),
                org.assertj.core.groups.Tuple.tuple(List.of("metadata", "labels", Planner.ENVIRONMENT_LABEL), "test"));
        assertThat(transfers).filteredOn(t -> !t.address().equals(SOURCE)).as("the flow's unmarked connectors are claimed")
                .allSatisfy(t -> assertThat(t.summary()).isEqualTo("claim it for this state (it carried no ownership marks)"));
        assertThat(plan.steps().subList(4, plan.steps().size())).filteredOn(s -> s.kind().isMutation())
                .allSatisfy(s -> assertThat(edits(s)).noneMatch(e -> Ownership.isMark(e.path())));
        assertThat(plan.steps().get(1).dependsOn()).containsExactly(1);
        assertThat(plan.steps().get(4).dependsOn()).containsExactly(4);
        assertThat(plan.summary()).as("metadata-only: no roll more than the EOS rollout's two").isEqualTo(new PlanSummary(0, 4, 0, 2));
        Change c = plan.changes().stream().filter(x -> x.address().equals(CLUSTER)).findFirst().orElseThrow();
        assertThat(c.reason()).endsWith("; ownership taken over from environment \"staging\" (lineage lineage-staging) "
                + "(--transfer-ownership)");
        assertThat(c.attributes()).extracting(AttributeChange::path, AttributeChange::before, AttributeChange::after)
                .contains(org.assertj.core.groups.Tuple.tuple("metadata.annotations.\"flowform.dev/lineage\"",
                        "\"lineage-staging\"", "\"" + LINEAGE + "\""));
    }

    @Test
    void transfer_of_a_converged_object_is_the_only_step() {
        LiveState live = marked(Map.of(), marks("staging", "lineage-staging"), null, Map.of(), Map.of());
        DesiredState noEos = Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)), List.of());
        PlanRequest request = REQUEST.withOptions(PlanOptions.DEFAULT.withTransferOwnership(List.of(CLUSTER)));

        Plan refused = Planner.plan(noEos, live, REQUEST);
        Plan plan = Planner.plan(noEos, live, request);

        assertThat(refused.isApplyable()).isFalse();
        assertThat(Planner.plan(noEos, Fixtures.live("existing-v1beta2"), REQUEST).hasChanges())
                .as("the same object unmarked has nothing to do").isFalse();
        assertThat(plan.steps()).extracting(Step::kind).containsExactly(TRANSFER_OWNERSHIP);
        assertThat(plan.changes()).singleElement().satisfies(c -> {
            assertThat(c.action()).isEqualTo(Action.UPDATE);
            assertThat(c.reason()).isEqualTo("ownership taken over from environment \"staging\" (lineage lineage-staging) "
                    + "(--transfer-ownership)");
        });
        assertThat(plan.summary()).isEqualTo(new PlanSummary(0, 1, 0, 0));
    }

    @Test
    void transfer_addresses_are_checked_like_targets() {
        PlanRequest unknown = REQUEST.withOptions(PlanOptions.DEFAULT.withTransferOwnership(List.of("connect_cluster.nope")));
        PlanRequest ours = REQUEST.withOptions(PlanOptions.DEFAULT.withTransferOwnership(List.of(CLUSTER)));
        LiveState mine = marked(Map.of(), marks("test", LINEAGE), null, Map.of(), Map.of());

        Plan a = Planner.plan(adoptedWithEos(), Fixtures.live("existing-v1beta2"), unknown);
        Plan b = Planner.plan(adoptedWithEos(), mine, ours);

        assertThat(ownershipDiagnostics(a)).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.ERROR);
            assertThat(d.summary()).isEqualTo("Unknown address to transfer");
        });
        assertThat(ownershipDiagnostics(b)).singleElement().satisfies(d -> {
            assertThat(d.severity()).isEqualTo(Severity.WARNING);
            assertThat(d.summary()).isEqualTo("Nothing to transfer");
        });
        assertThat(b.steps()).extracting(Step::kind).doesNotContain(TRANSFER_OWNERSHIP);
    }
}
