package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.live.StrimziResources;
import dev.flowform.locking.Sleeper;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Readiness;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Sim;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FAILED task in the first KafkaConnector status after a change may be from before it (Connect restarts
 * reconfigured tasks; the operator refreshes the status later): the connector wait gives it a grace period, then
 * fails with the task's trace. The operator is paused so that the test writes every status itself.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class StaleTaskFailureTest {

    private static final String NAME = "dc1-to-dc2-source";
    private static final ObjectRef KCTR = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnector", Configs.NS, NAME);
    private static final ResourceDefinitionContext CTX = StrimziResources.kafkaConnector(StrimziApi.V1BETA2);
    private static final String TRACE = "org.apache.kafka.connect.errors.ConnectException: Failed to fence out zombie tasks";

    @TempDir
    Path tmp;

    /** @return the generation of a config change to the seed's source connector */
    private static long change(EmbeddedCluster cluster) {
        return new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM).patch(KCTR, List.of(FieldEdit.set(
                List.of("spec", "config", "source.consumer.isolation.level"), "read_committed", false)));
    }

    private static void status(EmbeddedCluster cluster, long g, String taskState) {
        GenericKubernetesResource c = cluster.client().genericKubernetesResources(CTX).inNamespace(Configs.NS)
                .withName(NAME).get();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("observedGeneration", g);
        status.put("conditions", List.of(Map.of("type", "Ready", "status", "True")));
        status.put("connectorStatus", Map.of("name", NAME, "type", "source",
                "connector", Map.of("state", "RUNNING", "worker_id", "10.0.0.1:8083"),
                "tasks", List.of(Map.of("id", 0, "state", taskState, "worker_id", "10.0.0.1:8083", "trace",
                        "FAILED".equals(taskState) ? TRACE : ""))));
        c.setAdditionalProperty("status", status);
        cluster.client().genericKubernetesResources(CTX).inNamespace(Configs.NS).resource(c).updateStatus();
    }

    private static Fabric8RolloutWatcher watcher(EmbeddedCluster cluster, Duration grace) {
        return new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofMillis(200), grace);
    }

    @Test
    void a_failed_task_that_connect_restarts_within_the_grace_period_completes_the_wait() throws Exception {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            cluster.faults().pauseOperator(true);
            long g = change(cluster);
            status(cluster, g, "FAILED");
            List<Readiness> seen = new ArrayList<>();
            CompletableFuture<Void> restarted = CompletableFuture.runAsync(() -> status(cluster, g, "RUNNING"),
                    CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS));

            Readiness r = watcher(cluster, Duration.ofSeconds(60))
                    .awaitConnector(KCTR, g, "RUNNING", Duration.ofSeconds(30), (s, e) -> seen.add(s));

            restarted.join();
            assertThat(r).isInstanceOf(Readiness.Complete.class);
            assertThat(r.detail()).contains("1/1 tasks RUNNING");
            assertThat(seen).extracting(Readiness::detail)
                    .anyMatch(d -> d.startsWith("task " + NAME + "-0 FAILED, possibly before this change"));
        }
    }

    @Test
    void a_task_still_failed_after_the_grace_period_fails_the_wait_with_its_trace_and_the_restart_command()
            throws Exception {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            cluster.faults().pauseOperator(true);
            long g = change(cluster);
            status(cluster, g, "FAILED");

            Readiness r = watcher(cluster, Duration.ofMillis(800))
                    .awaitConnector(KCTR, g, "RUNNING", Duration.ofSeconds(30), (s, e) -> { });

            assertThat(r).isInstanceOf(Readiness.Failed.class);
            assertThat(r.detail()).contains("task " + NAME + "-0 is FAILED: " + TRACE,
                    "kubectl annotate kafkaconnector -n " + Configs.NS + " " + NAME + " strimzi.io/restart-task=0");
        }
    }

    @Test
    void without_a_grace_period_a_failed_task_fails_the_wait_at_once() throws Exception {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            cluster.faults().pauseOperator(true);
            long g = change(cluster);
            status(cluster, g, "FAILED");

            Readiness r = watcher(cluster, Duration.ZERO)
                    .awaitConnector(KCTR, g, "RUNNING", Duration.ofSeconds(30), (s, e) -> { });

            assertThat(r).isInstanceOf(Readiness.Failed.class);
        }
    }
}
