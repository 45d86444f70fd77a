package dev.flowform.plan.resume;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanRequest;
import dev.flowform.plan.Planner;
import dev.flowform.plan.StateRef;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Fixtures;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * Continuing an interrupted run from the live cluster: open changes are confirmed only when the cluster
 * shows them, waits that were never seen to finish are carried to the head of their chain, and the
 * notice names the step the run was in.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ResumeTest {

    private static final PlanRequest REQUEST = new PlanRequest("test", new StateRef("l", 1), Instant.EPOCH);
    private static final UnaryOperator<String> HASH = v -> "sha256:" + Integer.toHexString(v.hashCode());

    private static DesiredState desired() {
        return Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)), List.of(Configs.adoptedFlow(true)));
    }

    /** The six-step quickstart plan, made against the untouched cluster. */
    private static Plan original() {
        return Planner.plan(desired(), Fixtures.live("existing-v1beta2"), REQUEST);
    }

    private static Resume.PriorRun prior(Plan plan, Map<Integer, Resume.StepState> states, boolean crashed) {
        return new Resume.PriorRun(7, crashed, "ops@ci", Instant.parse("2026-11-30T10:00:00Z"), plan, states);
    }

    @Test
    void a_change_the_cluster_does_not_show_is_planned_again_and_nothing_is_carried() {
        Plan plan = original();
        Resume.PriorRun run = prior(plan, Map.of(1, Resume.StepState.STARTED), true);
        LiveState live = Fixtures.live("existing-v1beta2");

        Resume.Analysis a = Resume.analyze(run, live, HASH);
        Plan next = Resume.continuePlan(Planner.plan(desired(), live, REQUEST), a, live);

        assertThat(a.open()).extracting(Step::id).containsExactly(1);
        assertThat(a.confirmed()).isEmpty();
        assertThat(a.carried()).isEmpty();
        assertThat(a.notice().summary()).isEqualTo("Apply interrupted during step 1 of 8: SET_WORKER_EOS connect_cluster.mm2-connect");
        assertThat(a.notice().detail()).contains("had not reached the cluster", "killed");
        assertThat(next.steps()).extracting(Step::kind).startsWith(StepKind.SET_WORKER_EOS);
        assertThat(next.diagnostics().get(0)).isEqualTo(a.notice());
    }

    @Test
    void a_change_the_cluster_shows_is_confirmed_and_its_wait_carried_unless_the_planner_already_waits() {
        Plan plan = original();
        Resume.PriorRun run = prior(plan, Map.of(1, Resume.StepState.STARTED), true);
        LiveState live = Fixtures.live("half-done-preparing");

        Resume.Analysis a = Resume.analyze(run, live, HASH);

        assertThat(a.confirmed()).extracting(Step::id).containsExactly(1);
        assertThat(a.carried()).singleElement().satisfies(w -> {
            assertThat(w.kind()).isEqualTo(StepKind.WAIT_FOR_ROLL);
            assertThat(((StepPayload.WaitForRoll) w.payload()).generation()).isEqualTo(5L);
        });
        assertThat(a.notice().detail()).contains("had reached the cluster; it is recorded as done");
        Plan next = Resume.continuePlan(Planner.plan(desired(), live, REQUEST), a, live);
        assertThat(next.steps()).extracting(Step::kind).containsExactly(StepKind.WAIT_FOR_ROLL, StepKind.SET_WORKER_EOS,
                StepKind.WAIT_FOR_ROLL, StepKind.STOP_CONNECTOR, StepKind.WAIT_FOR_CONNECTOR_READY,
                StepKind.UPDATE_CONNECTOR, StepKind.WAIT_FOR_CONNECTOR_READY);
        assertThat(next.steps()).extracting(Step::id).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(next.steps().get(1).dependsOn()).as("the cluster's chain waits for the carried wait").containsExactly(1);
    }

    @Test
    void a_roll_the_planner_already_waits_for_is_not_waited_for_twice() {
        Plan plan = original();
        Resume.PriorRun run = prior(plan, Map.of(1, Resume.StepState.DONE, 2, Resume.StepState.STARTED), true);
        LiveState live = Fixtures.live("roll-in-progress");

        Resume.Analysis a = Resume.analyze(run, live, HASH);
        Plan next = Resume.continuePlan(Planner.plan(desired(), live, REQUEST), a, live);

        assertThat(a.carried()).hasSize(1);
        assertThat(next.steps()).filteredOn(s -> s.kind() == StepKind.WAIT_FOR_ROLL).hasSize(2);
        assertThat(next.steps().get(0).summary()).startsWith("wait for the roll already in progress");
        assertThat(a.notice().summary()).isEqualTo("Apply interrupted during step 2 of 8: WAIT_FOR_ROLL connect_cluster.mm2-connect");
    }

    @Test
    void a_connector_update_that_landed_gets_its_readiness_wait_back_although_the_planner_sees_nothing_to_do() {
        Plan plan = original();
        Map<Integer, Resume.StepState> states = new HashMap<>();
        for (int i = 1; i <= 6; i++) {
            states.put(i, Resume.StepState.DONE);
        }
        states.put(7, Resume.StepState.STARTED);
        LiveState live = withSourceConfig(Map.of("exactly.once.support", "required",
                "source.consumer.isolation.level", "read_committed"), "running");
        Plan fresh = new Plan(Plan.FORMAT_VERSION, "test", Instant.EPOCH, null, Map.of(), List.of(), List.of(), List.of());

        Resume.Analysis a = Resume.analyze(prior(plan, states, true), live, HASH);
        Plan next = Resume.continuePlan(fresh, a, live);

        assertThat(a.confirmed()).extracting(Step::kind).containsExactly(StepKind.UPDATE_CONNECTOR);
        assertThat(next.steps()).singleElement().satisfies(w -> {
            assertThat(w.kind()).isEqualTo(StepKind.WAIT_FOR_CONNECTOR_READY);
            assertThat(w.address()).isEqualTo("kafka_connector.dc1-to-dc2-source");
            assertThat(((StepPayload.WaitForConnector) w.payload()).expectedState()).isEqualTo("RUNNING");
            assertThat(w.dependsOn()).isEmpty();
        });
    }

    @Test
    void a_sensitive_edit_is_confirmed_through_the_hash_the_journal_keeps() {
        Step patch = new Step(1, StepKind.UPDATE_CONNECTOR, "kafka_connector.dc1-to-dc2-source",
                original().steps().get(4).object(), List.of(), new StepPayload.PatchObject(List.of(
                dev.flowform.plan.FieldEdit.set(List.of("spec", "config", "source.cluster.sasl.jaas.config"),
                        HASH.apply("new-secret"), true))), "");
        LiveState changed = withSourceConfig(Map.of("source.cluster.sasl.jaas.config", "new-secret"));
        LiveState unchanged = Fixtures.live("existing-v1beta2");

        assertThat(Resume.inCluster(patch, changed, HASH)).isTrue();
        assertThat(Resume.inCluster(patch, unchanged, HASH)).isFalse();
    }

    @Test
    void a_run_stopped_by_ctrl_c_is_described_as_stopped_and_its_wait_carried() {
        Plan plan = original();
        Resume.PriorRun run = prior(plan, Map.of(1, Resume.StepState.DONE, 2, Resume.StepState.STOPPED), false);
        LiveState live = Fixtures.live("half-done-preparing");

        Resume.Analysis a = Resume.analyze(run, live, HASH);

        assertThat(a.open()).extracting(Step::id).containsExactly(2);
        assertThat(a.notice().detail()).contains("was stopped before it finished");
        assertThat(a.carried()).extracting(Step::kind).containsExactly(StepKind.WAIT_FOR_ROLL);
    }

    @Test
    void a_run_that_died_between_steps_says_after_which_step() {
        Resume.PriorRun run = prior(original(), Map.of(1, Resume.StepState.DONE), true);

        Resume.Analysis a = Resume.analyze(run, Fixtures.live("half-done-preparing"), HASH);

        assertThat(a.notice().summary()).isEqualTo("Apply interrupted after step 1 of 8: SET_WORKER_EOS connect_cluster.mm2-connect");
        assertThat(a.carried()).extracting(Step::kind).containsExactly(StepKind.WAIT_FOR_ROLL);
    }

    private static Step connectorStep(int id, StepKind kind, String name, List<Integer> deps, StepPayload payload) {
        return new Step(id, kind, "kafka_connector." + name, new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnector",
                "replication", name), deps, payload, kind + " " + name);
    }

    private static StepPayload patch(String key, String value) {
        return new StepPayload.PatchObject(List.of(FieldEdit.set(List.of("spec", "config", key), value, false)));
    }

    /**
     * After the roll, three connector lanes (Kafka 3.9): source updated and its wait running, checkpoint updated and
     * its wait not yet journaled, heartbeat's update journaled but not on the cluster, when the process died.
     */
    @Test
    void a_crash_in_the_middle_of_concurrent_connector_lanes_carries_each_reached_wait_and_gates_the_rest() {
        ObjectRef kc = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", "replication", "mm2-connect");
        StepPayload.WaitForConnector running = new StepPayload.WaitForConnector("RUNNING", null);
        List<Step> steps = List.of(
                new Step(1, StepKind.WAIT_FOR_ROLL, "connect_cluster.mm2-connect", kc, List.of(),
                        new StepPayload.WaitForRoll(dev.flowform.model.EosMode.DISABLED, null), "wait"),
                connectorStep(2, StepKind.UPDATE_CONNECTOR, "dc1-to-dc2-source", List.of(1), patch("lane", "source")),
                connectorStep(3, StepKind.WAIT_FOR_CONNECTOR_READY, "dc1-to-dc2-source", List.of(2), running),
                connectorStep(4, StepKind.UPDATE_CONNECTOR, "dc1-to-dc2-checkpoint", List.of(1), patch("lane", "checkpoint")),
                connectorStep(5, StepKind.WAIT_FOR_CONNECTOR_READY, "dc1-to-dc2-checkpoint", List.of(4), running),
                connectorStep(6, StepKind.UPDATE_CONNECTOR, "dc1-to-dc2-heartbeat", List.of(1), patch("lane", "heartbeat")),
                connectorStep(7, StepKind.WAIT_FOR_CONNECTOR_READY, "dc1-to-dc2-heartbeat", List.of(6), running));
        Plan plan = new Plan(Plan.FORMAT_VERSION, "test", Instant.EPOCH, null, Map.of(), List.of(), steps, List.of());
        Map<Integer, Resume.StepState> states = Map.of(1, Resume.StepState.DONE, 2, Resume.StepState.DONE,
                3, Resume.StepState.STARTED, 4, Resume.StepState.DONE, 6, Resume.StepState.STARTED);
        LiveState live = withSourceConfig(Map.of("lane", "source"));

        Resume.Analysis a = Resume.analyze(prior(plan, states, true), live, HASH);

        assertThat(a.open()).extracting(Step::id).containsExactly(3, 6);
        assertThat(a.confirmed()).as("the heartbeat's update did not reach the cluster").isEmpty();
        assertThat(a.carried()).extracting(Step::object).extracting(ObjectRef::name)
                .containsExactly("dc1-to-dc2-source", "dc1-to-dc2-checkpoint");

        // what the planner plans again from the live cluster: the heartbeat's update, and a new connector's create
        Map<String, Object> manifest = Map.of("metadata", Map.of("name", "extra", "namespace", "replication",
                "labels", Map.of("strimzi.io/cluster", "mm2-connect")));
        List<Step> rest = List.of(
                connectorStep(1, StepKind.UPDATE_CONNECTOR, "dc1-to-dc2-heartbeat", List.of(), patch("lane", "heartbeat")),
                connectorStep(2, StepKind.WAIT_FOR_CONNECTOR_READY, "dc1-to-dc2-heartbeat", List.of(1), running),
                connectorStep(3, StepKind.CREATE_CONNECTOR, "extra", List.of(), new StepPayload.CreateObject(manifest,
                        java.util.Set.of())),
                connectorStep(4, StepKind.WAIT_FOR_CONNECTOR_READY, "extra", List.of(3), running));
        Plan fresh = new Plan(Plan.FORMAT_VERSION, "test", Instant.EPOCH, null, Map.of(), List.of(), rest, List.of());
        Plan next = Resume.continuePlan(fresh, a, live);

        assertThat(next.steps()).extracting(Step::dependsOn).containsExactly(List.of(), List.of(1), List.of(2),
                List.of(3), List.of(2), List.of(5));
    }

    @SuppressWarnings("unchecked")
    private static LiveState withSourceConfig(Map<String, String> extra) {
        return withSourceConfig(extra, null);
    }

    /** The fixture with {@code extra} in the source connector's config and, unless null, its {@code spec.state}. */
    private static LiveState withSourceConfig(Map<String, String> extra, String state) {
        List<HasMetadata> objects = Fixtures.objects("existing-v1beta2");
        for (HasMetadata o : objects) {
            if ("KafkaConnector".equals(o.getKind()) && o.getMetadata().getName().equals("dc1-to-dc2-source")) {
                GenericKubernetesResource r = (GenericKubernetesResource) o;
                Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) r.getAdditionalProperties().get("spec"));
                Map<String, Object> config = new LinkedHashMap<>((Map<String, Object>) spec.get("config"));
                config.putAll(extra);
                spec.put("config", config);
                if (state != null) {
                    spec.put("state", state);
                }
                r.setAdditionalProperty("spec", spec);
                r.getMetadata().setGeneration(r.getMetadata().getGeneration() + 1);
            }
        }
        return Fixtures.live(objects);
    }
}
