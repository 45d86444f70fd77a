package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.connect.WorkerSpec;
import dev.flowform.model.EosMode;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.RollCheck;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The kubelet and the reconcilers reach Kafka Connect only through the {@link ConnectRuntime} port: workers
 * start with their rendered properties, stop with their pod, and a pod is Ready only once its worker is healthy.
 */
class ConnectRuntimePortTest extends SimTestSupport {

    /** A simulated runtime whose workers answer /health only after a few probes, like a real worker. */
    static class SlowRuntime implements ConnectRuntime {
        final SimulatedConnectRuntime delegate = new SimulatedConnectRuntime();
        final List<WorkerSpec> started = new CopyOnWriteArrayList<>();
        final List<String> stopped = new CopyOnWriteArrayList<>();
        final Map<String, AtomicInteger> probes = new ConcurrentHashMap<>();
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public void startWorker(WorkerSpec worker) {
            started.add(worker);
            probes.put(worker.pod(), new AtomicInteger());
            delegate.startWorker(worker);
        }

        @Override
        public boolean healthy(String pod) {
            AtomicInteger n = probes.get(pod);
            return delegate.healthy(pod) && (n == null || n.incrementAndGet() > 2);
        }

        @Override
        public void stopWorker(String pod, boolean kill) {
            stopped.add(pod);
            delegate.stopWorker(pod, kill);
        }

        @Override
        public RestResult putConnectorConfig(String cluster, String name, Map<String, String> config) {
            return delegate.putConnectorConfig(cluster, name, config);
        }

        @Override
        public boolean holdsConfig(String cluster, String name, Map<String, String> config) {
            return delegate.holdsConfig(cluster, name, config);
        }

        @Override
        public RestResult setTargetState(String cluster, String name, TargetState state) {
            return delegate.setTargetState(cluster, name, state);
        }

        @Override
        public RestResult deleteConnector(String cluster, String name) {
            return delegate.deleteConnector(cluster, name);
        }

        @Override
        public RestResult restartTask(String cluster, String name, int task) {
            return delegate.restartTask(cluster, name, task);
        }

        @Override
        public Optional<ConnectorStatus> status(String cluster, String name) {
            return delegate.status(cluster, name);
        }

        @Override
        public Set<String> connectors(String cluster) {
            return delegate.connectors(cluster);
        }

        @Override
        public void close() {
            closed.set(true);
            delegate.close();
        }
    }

    @Test
    void workersStartWithTheirPropertiesStopWithTheirPodAndGateReadiness() {
        SlowRuntime runtime = new SlowRuntime();
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed("v1beta2"))
                .settings(SimSettings.fast()).connectRuntime(() -> runtime).build());
        awaitIdle();
        assertThat(runtime.started).as("the seeded Ready workers were started again").hasSize(3)
                .extracting(WorkerSpec::cluster).containsOnly(NS + "/" + CONNECT);

        long generation = setWorkerEos(NS, "preparing");
        awaitIdle();
        Readiness readiness = RollCheck.evaluate(live(NS), generation, EosMode.PREPARING);
        assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);

        List<WorkerSpec> rolled = runtime.started.subList(3, runtime.started.size());
        assertThat(rolled).hasSize(3);
        List<Pod> pods = cluster.client().pods().inNamespace(NS).withLabel("strimzi.io/cluster", CONNECT).list().getItems();
        for (WorkerSpec w : rolled) {
            assertThat(w.properties()).containsEntry("exactly.once.source.support", "preparing");
            Pod pod = pods.stream().filter(p -> w.pod().equals(NS + "/" + p.getMetadata().getName())).findFirst().orElseThrow();
            assertThat(w.properties()).containsEntry(SimulatedConnectRuntime.ADVERTISED_HOST, pod.getStatus().getPodIP());
            assertThat(runtime.probes.get(w.pod()).get()).as("probed until healthy").isGreaterThan(2);
        }
        assertThat(runtime.stopped).as("each replaced pod's worker was stopped")
                .containsExactlyInAnyOrderElementsOf(rolled.stream().map(WorkerSpec::pod).toList());

        cluster.close();
        assertThat(runtime.closed).isTrue();
    }

    @Test
    void workersOfAClusterWithScramAuthenticationGetStrimzisSaslSettingsAndOnlyTheSecretHoldsThePassword() {
        SlowRuntime runtime = new SlowRuntime();
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed("v1beta2"))
                .settings(SimSettings.fast()).connectRuntime(() -> runtime).build());
        awaitIdle();
        String password = "pw-" + java.util.UUID.randomUUID();
        cluster.client().secrets().inNamespace(NS).resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata().withName("dr-connect").endMetadata()
                .addToData("password", java.util.Base64.getEncoder().encodeToString(password.getBytes(
                        java.nio.charset.StandardCharsets.UTF_8))).build()).create();
        setWorkerEos(NS, "preparing");
        awaitIdle();

        List<WorkerSpec> rolled = runtime.started.subList(3, runtime.started.size());
        assertThat(rolled).hasSize(3);
        String jaas = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"dr-connect\" password=\""
                + password + "\";";
        for (WorkerSpec w : rolled) {
            for (String prefix : List.of("", "producer.", "consumer.", "admin.")) {
                // the seed's KafkaConnect has spec.tls as well: SASL over TLS
                assertThat(w.properties()).containsEntry(prefix + "security.protocol", "SASL_SSL")
                        .containsEntry(prefix + "sasl.mechanism", "SCRAM-SHA-512")
                        .containsEntry(prefix + "sasl.jaas.config", jaas);
            }
        }
        for (Pod p : cluster.client().pods().inNamespace(NS).withLabel("strimzi.io/cluster", CONNECT).list().getItems()) {
            String json = io.fabric8.kubernetes.client.utils.Serialization.asJson(p);
            assertThat(json).doesNotContain(password).doesNotContain("sasl.jaas.config")
                    .contains("\"KAFKA_CONNECT_TLS\",\"value\":\"true\"")
                    .contains("\"KAFKA_CONNECT_SASL_MECHANISM\",\"value\":\"scram-sha-512\"")
                    .contains("\"KAFKA_CONNECT_SASL_USERNAME\",\"value\":\"dr-connect\"")
                    .contains("\"KAFKA_CONNECT_SASL_PASSWORD_FILE\",\"value\":\"dr-connect/password\"")
                    .contains("/opt/kafka/connect-password/dr-connect");
        }
        cluster.client().configMaps().inNamespace(NS).list().getItems().forEach(cm ->
                assertThat(String.valueOf(cm.getData())).doesNotContain("sasl.").doesNotContain(password));
    }

    @Test
    void aCrashedWorkerIsKilledAndItsContainerRestartedWithThePodNotReadyMeanwhile() {
        SlowRuntime runtime = new SlowRuntime();
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed("v1beta2"))
                .settings(SimSettings.fast()).connectRuntime(() -> runtime).build());
        awaitIdle();
        String podName = CONNECT + "-connect-1";
        cluster.simulator().crashWorker(NS, podName);
        assertThat(runtime.stopped).containsExactly(NS + "/" + podName);
        Pod crashed = cluster.client().pods().inNamespace(NS).withName(podName).get();
        assertThat(crashed.getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(1);
        awaitIdle();
        Pod again = cluster.client().pods().inNamespace(NS).withName(podName).get();
        assertThat(again.getStatus().getConditions()).anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        assertThat(again.getStatus().getContainerStatuses().get(0).getRestartCount()).isEqualTo(1);
        assertThat(runtime.started).extracting(WorkerSpec::pod).filteredOn((NS + "/" + podName)::equals).hasSize(2);
        assertThat(again.getMetadata().getUid()).as("the same pod, its container restarted").isEqualTo(crashed.getMetadata().getUid());
    }
}
