package dev.flowform.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plan says how the connector steps of one Connect cluster run: concurrently after the roll (Kafka 3.6 or newer)
 * or one at a time (below 3.6 or an unknown version, KAFKA-15059); one connector needs no sentence.
 */
class ConnectorOrderSentencesTest {

    private static final ObjectRef CLUSTER = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", "ns", "c");

    private static ObjectRef connector(String name) {
        return new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnector", "ns", name);
    }

    /** A roll, then for each connector a patch and its wait; {@code lanes} makes every connector start after the roll. */
    private static List<Step> plan(int connectors, boolean lanes) {
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(1, StepKind.SET_WORKER_EOS, "connect_cluster.c", CLUSTER, List.of(),
                new StepPayload.PatchObject(List.of()), "enabled"));
        steps.add(new Step(2, StepKind.WAIT_FOR_ROLL, "connect_cluster.c", CLUSTER, List.of(1),
                new StepPayload.WaitForRoll(EosMode.ENABLED, null), "roll"));
        for (int i = 0; i < connectors; i++) {
            int id = steps.size() + 1;
            ObjectRef ref = connector("k" + i);
            steps.add(new Step(id, StepKind.UPDATE_CONNECTOR, "kafka_connector.k" + i, ref, List.of(lanes ? 2 : id - 1),
                    new StepPayload.PatchObject(List.of()), "patch k" + i));
            steps.add(new Step(id + 1, StepKind.WAIT_FOR_CONNECTOR_READY, "kafka_connector.k" + i, ref, List.of(id),
                    new StepPayload.WaitForConnector("RUNNING", null), "wait k" + i));
        }
        return steps;
    }

    @Test
    void connectors_chained_one_after_another_are_said_to_run_one_at_a_time() {
        assertThat(PlanRenderer.oneAtATime(plan(3, false))).containsExactly("Steps 3-8 (3 connectors) run one at a time: "
                + "the Connect cluster's Kafka version is below 3.6 or not known to flowform, and there writing several "
                + "connector configurations at once can fail zombie fencing (KAFKA-15059).");
        assertThat(PlanRenderer.concurrency(plan(3, false))).isEmpty();
    }

    @Test
    void lanes_are_said_to_run_concurrently_and_not_one_at_a_time() {
        assertThat(PlanRenderer.oneAtATime(plan(3, true))).isEmpty();
        assertThat(PlanRenderer.concurrency(plan(3, true))).singleElement().asString()
                .startsWith("Steps 3-8 (3 connectors, each with its wait) run concurrently after step 2");
    }

    @Test
    void one_connector_needs_no_sentence() {
        assertThat(PlanRenderer.oneAtATime(plan(1, false))).isEmpty();
        assertThat(PlanRenderer.concurrency(plan(1, true))).isEmpty();
    }
}
