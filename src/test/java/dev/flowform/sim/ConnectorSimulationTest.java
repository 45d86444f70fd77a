package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flowform.model.Condition;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.rules.ConnectorCheck;
import dev.flowform.plan.Readiness;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The simulated operator validates KafkaConnectors the way Kafka Connect does and reports like Strimzi. */
class ConnectorSimulationTest extends SimTestSupport {

    private static final String PUT_PREFIX = "PUT /connectors/%s/config returned 400 (Bad Request): ";

    private static Condition onlyCondition(LiveConnector c) {
        assertThat(c.conditions()).hasSize(1);
        return c.conditions().get(0);
    }

    @Test
    void requiredIsRejectedWhileWorkersArePreparingAndAcceptedOnceEnabledIsRolled() {
        startSeeded("v1beta2");
        setWorkerEos(NS, "preparing");
        awaitIdle();

        long generation = editConnectorConfig(NS, SOURCE, c -> {
            c.put("exactly.once.support", "required");
            c.put("source.consumer.isolation.level", "read_committed");
        });
        awaitIdle();
        LiveConnector failed = liveConnector(NS, SOURCE);
        String error = "Connector configuration is invalid and contains the following 1 error(s):\n"
                + "This worker does not have exactly-once source support enabled.\n"
                + "You can also find the above list of errors at the endpoint `/connector-plugins/{connectorType}/config/validate`";
        assertThat(failed.observedGeneration()).isEqualTo(generation);
        Condition notReady = onlyCondition(failed);
        assertThat(notReady.type()).isEqualTo("NotReady");
        assertThat(notReady.isTrue()).isTrue();
        assertThat(notReady.reason()).isEqualTo("ConnectRestException");
        assertThat(notReady.message()).isEqualTo(PUT_PREFIX.formatted(SOURCE) + error);
        assertThat(failed.connectorState()).isEqualTo("FAILED");
        assertThat(failed.connectorTrace()).isEqualTo(error);
        assertThat(failed.tasks()).isEmpty();
        assertThat(ConnectorCheck.evaluate(failed, generation, "RUNNING")).isInstanceOf(Readiness.Failed.class)
                .extracting(Readiness::detail).asString().contains("This worker does not have exactly-once source support enabled.");

        setWorkerEos(NS, "enabled");
        awaitIdle();
        LiveConnector running = liveConnector(NS, SOURCE);
        Readiness readiness = ConnectorCheck.evaluate(running, generation, "RUNNING");
        assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);
        assertThat(running.tasks()).hasSize(3).extracting(TaskStatus::state).containsOnly("RUNNING");
        assertThat(onlyCondition(running).type()).isEqualTo("Ready");
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) running.raw().get("status");
        assertThat(status).containsEntry("tasksMax", 3).containsKey("topics");
        assertThat(cluster.simulator().runtimeConnectors(NS, CONNECT)).contains(SOURCE);
    }

    @Test
    void checkpointConnectorWithRequiredFailsThePreflightCheck() {
        startSeeded("v1beta2");
        setWorkerEos(NS, "enabled");
        awaitIdle();
        long generation = editConnectorConfig(NS, CHECKPOINT, c -> c.put("exactly.once.support", "required"));
        awaitIdle();
        LiveConnector c = liveConnector(NS, CHECKPOINT);
        assertThat(c.observedGeneration()).isEqualTo(generation);
        assertThat(c.connectorState()).isEqualTo("FAILED");
        assertThat(c.connectorTrace()).isEqualTo("Connector configuration is invalid and contains the following 1 error(s):\n"
                + ConnectorValidator.NO_PREFLIGHT_API + "\n"
                + "You can also find the above list of errors at the endpoint `/connector-plugins/{connectorType}/config/validate`");
        assertThat(onlyCondition(c).message()).contains("The connector does not implement the API required for preflight "
                + "validation of exactly-once source support.");
    }

    @Test
    void mirrorSourceWithRequiredNeedsReadCommittedOnItsSourceConsumer() {
        startSeeded("v1");
        setWorkerEos(NS_V1, "enabled");
        awaitIdle();
        long g1 = editConnectorConfig(NS_V1, SOURCE, c -> {
            c.put("exactly.once.support", "required");
            c.put("consumer.override.isolation.level", "read_committed");
        });
        awaitIdle();
        LiveConnector c = liveConnector(NS_V1, SOURCE);
        assertThat(c.observedGeneration()).isEqualTo(g1);
        // as Kafka 4.3.1 answers: MirrorSourceConnector's own error alone (ConnectRuntimeDifferentialTest)
        assertThat(c.connectorTrace()).startsWith("Connector configuration is invalid and contains the following 1 error(s):\n"
                + ConnectorValidator.MM2_READ_COMMITTED + "\n");

        long g2 = editConnectorConfig(NS_V1, SOURCE, cfg -> cfg.put("source.consumer.isolation.level", "read_committed"));
        awaitIdle();
        Readiness readiness = ConnectorCheck.evaluate(liveConnector(NS_V1, SOURCE), g2, "RUNNING");
        assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);
    }

    @Test
    void connectorDefinedTransactionBoundariesAreRejected() {
        startSeeded("v1beta2");
        long generation = editConnectorConfig(NS, SOURCE, c -> c.put("transaction.boundary", "connector"));
        awaitIdle();
        LiveConnector c = liveConnector(NS, SOURCE);
        assertThat(c.observedGeneration()).isEqualTo(generation);
        assertThat(c.connectorTrace()).contains(
                "The connector does not support connector-defined transaction boundaries with the given configuration.");
    }

    @Test
    void pausedAndStoppedConnectorsReportTheirState() {
        startSeeded("v1beta2");
        long paused = editSpec(StrimziCrds.kafkaConnector(api()), NS, SOURCE, spec -> spec.put("state", "paused"));
        awaitIdle();
        LiveConnector p = liveConnector(NS, SOURCE);
        assertThat(ConnectorCheck.evaluate(p, paused, "PAUSED").isComplete()).isTrue();
        assertThat(p.tasks()).hasSize(3).extracting(TaskStatus::state).containsOnly("PAUSED");

        long stopped = editSpec(StrimziCrds.kafkaConnector(api()), NS, SOURCE, spec -> spec.put("state", "stopped"));
        awaitIdle();
        LiveConnector s = liveConnector(NS, SOURCE);
        assertThat(ConnectorCheck.evaluate(s, stopped, "STOPPED").isComplete()).isTrue();
        assertThat(s.connectorState()).isEqualTo("STOPPED");
        assertThat(s.tasks()).isEmpty();
    }

    @Test
    void connectorsWithoutClusterLabelOrClusterGetStrimzisMessages() {
        startSeeded("v1beta2");
        createConnector("orphan", null);
        createConnector("lost", "ghost-connect");
        awaitIdle();
        Condition noLabel = onlyCondition(liveConnector(NS, "orphan"));
        assertThat(noLabel.reason()).isEqualTo("InvalidResourceException");
        assertThat(noLabel.message()).isEqualTo("Resource lacks label 'strimzi.io/cluster': No connect cluster in which to create this connector.");
        Condition noCluster = onlyCondition(liveConnector(NS, "lost"));
        assertThat(noCluster.reason()).isEqualTo("NoSuchResourceException");
        assertThat(noCluster.message()).isEqualTo("KafkaConnect resource 'ghost-connect' identified by label 'strimzi.io/cluster' "
                + "does not exist in namespace mirror.");
        assertThat(liveConnector(NS, "lost").observedGeneration()).isEqualTo(1);
    }

    @Test
    void connectorResourcesAnnotationGatesConnectorsAndDeletesUnmanagedOnes() {
        startSeeded("v1beta2");
        setConnectorResources(false);
        long generation = editConnectorConfig(NS, SOURCE, c -> c.put("sync.topic.configs.enabled", "true"));
        awaitIdle();
        Condition gated = onlyCondition(liveConnector(NS, SOURCE));
        assertThat(gated.reason()).isEqualTo("NoSuchResourceException");
        assertThat(gated.message()).isEqualTo("KafkaConnect dr-connect is not configured with annotation strimzi.io/use-connector-resources");
        assertThat(liveConnector(NS, SOURCE).observedGeneration()).isEqualTo(generation);

        cluster.simulator().putRuntimeConnector(NS, CONNECT, "legacy-rest-connector", "org.apache.kafka.connect.mirror.MirrorSourceConnector",
                Map.of("topics", "legacy.*"));
        assertThat(cluster.simulator().runtimeConnectors(NS, CONNECT)).contains("legacy-rest-connector", SOURCE);
        setConnectorResources(true);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(cluster.simulator().deletedRuntimeConnectors()).containsExactly("mirror/dr-connect/legacy-rest-connector"));
        await().atMost(Duration.ofSeconds(10)).until(() ->
                ConnectorCheck.evaluate(liveConnector(NS, SOURCE), generation, "RUNNING").isComplete());
        assertThat(cluster.simulator().runtimeConnectors(NS, CONNECT))
                .containsExactly("primary-to-dr-checkpoint", "primary-to-dr-heartbeat", SOURCE);
    }

    private void setConnectorResources(boolean on) {
        var op = cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(api())).inNamespace(NS);
        GenericKubernetesResource kc = op.withName(CONNECT).get();
        Map<String, String> annotations = new LinkedHashMap<>(kc.getMetadata().getAnnotations());
        if (on) {
            annotations.put(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION, "true");
        } else {
            annotations.remove(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION);
        }
        kc.getMetadata().setAnnotations(annotations);
        op.resource(kc).update();
    }

    private void createConnector(String name, String clusterLabel) {
        GenericKubernetesResource c = new GenericKubernetesResource();
        c.setApiVersion(api().kafkaApiVersion());
        c.setKind("KafkaConnector");
        ObjectMetaBuilder meta = new ObjectMetaBuilder().withName(name).withNamespace(NS);
        if (clusterLabel != null) {
            meta.addToLabels("strimzi.io/cluster", clusterLabel);
        }
        c.setMetadata(meta.build());
        c.setAdditionalProperty("spec", Map.of("class", "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector", "tasksMax", 1));
        cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnector(api())).inNamespace(NS).resource(c).create();
    }
}
