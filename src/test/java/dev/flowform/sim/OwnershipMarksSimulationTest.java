package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flowform.apply.Fabric8ClusterWriter;
import dev.flowform.locking.Sleeper;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LivePod;
import dev.flowform.plan.Ownership;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.RollCheck;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Writing the ownership marks (annotations, through the applier's writer) changes no spec: the KafkaConnect
 * keeps its generation, the operator reconciles (an annotation changed) but rolls no worker, and a
 * KafkaConnector keeps its generation and keeps running.
 */
class OwnershipMarksSimulationTest extends SimTestSupport {

    @Test
    void marks_on_a_kafka_connect_reconcile_without_a_roll() {
        startSeeded("v1beta2");
        awaitIdle();
        LiveConnectCluster before = live(NS);
        long reconciles = cluster.simulator().reconcileCount();
        Fabric8ClusterWriter writer = new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM);

        long generation = writer.patch(before.ref(), Ownership.edits(before.labels(), before.annotations(), "prod",
                "lineage-p", false));

        assertThat(generation).as("annotations are not spec: no new generation").isEqualTo(before.generation());
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.simulator().reconcileCount() > reconciles);
        awaitIdle();
        LiveConnectCluster after = live(NS);
        assertThat(after.annotations()).containsEntry(Ownership.ENVIRONMENT_ANNOTATION, "prod")
                .containsEntry(Ownership.LINEAGE_ANNOTATION, "lineage-p");
        assertThat(after.pods()).extracting(LivePod::uid).as("no worker restarted")
                .containsExactlyInAnyOrderElementsOf(before.pods().stream().map(LivePod::uid).toList());
        assertThat(after.pods()).extracting(LivePod::revision)
                .containsExactlyInAnyOrderElementsOf(before.pods().stream().map(LivePod::revision).toList());
        EosMode mode = after.eosMode().orElseThrow();
        Readiness r = RollCheck.evaluate(after, after.generation(), mode);
        assertThat(r).as(r.detail()).isInstanceOf(Readiness.Complete.class);
    }

    @Test
    void marks_on_a_kafka_connector_keep_its_generation_and_state() {
        startSeeded("v1beta2");
        awaitIdle();
        LiveConnector before = liveConnector(NS, SOURCE);
        Fabric8ClusterWriter writer = new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM);

        long generation = writer.patch(before.ref(), Ownership.edits(before.labels(), before.annotations(), "prod",
                "lineage-p", true));
        awaitIdle();

        LiveConnector after = liveConnector(NS, SOURCE);
        assertThat(generation).isEqualTo(before.generation());
        assertThat(after.annotations()).containsAllEntriesOf(Map.of(Ownership.ENVIRONMENT_ANNOTATION, "prod",
                Ownership.LINEAGE_ANNOTATION, "lineage-p"));
        assertThat(after.connectorState()).isEqualTo(before.connectorState());
        assertThat(after.config()).isEqualTo(before.config());
    }
}
