package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.StrimziApi;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.RollCheck;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Start-up, seeding, discovery, kubeconfig and persistence of the embedded cluster. */
class EmbeddedClusterTest extends SimTestSupport {

    @TempDir
    Path tmp;

    /** @return the resources of {@code groupVersion}, none when the server does not serve it (404) */
    private static List<String> resourceNames(KubernetesClient client, String groupVersion) {
        var list = client.getApiResources(groupVersion);
        return list == null ? List.of() : list.getResources().stream().map(APIResource::getName).toList();
    }

    @Test
    void servesExactlyTheSeededStrimziVersionOnLoopback() {
        startSeeded("v1beta2");
        assertThat(cluster.api()).isEqualTo(StrimziApi.V1BETA2);
        assertThat(cluster.url()).matches("http://127\\.0\\.0\\.1:\\d+/");
        assertThat(resourceNames(cluster.client(), "kafka.strimzi.io/v1beta2")).containsExactlyInAnyOrder("kafkaconnects", "kafkaconnectors",
                "kafkamirrormaker2s", "kafkausers");
        assertThat(resourceNames(cluster.client(), "core.strimzi.io/v1beta2")).containsExactly("strimzipodsets");
        assertThat(resourceNames(cluster.client(), "kafka.strimzi.io/v1")).isEmpty();
        cluster.close();

        startSeeded("v1");
        assertThat(cluster.api()).isEqualTo(StrimziApi.V1);
        assertThat(resourceNames(cluster.client(), "kafka.strimzi.io/v1")).contains("kafkaconnects");
        assertThat(resourceNames(cluster.client(), "kafka.strimzi.io/v1beta2")).isEmpty();
    }

    @Test
    void seedingRestoresGenerationsStatusesAndNamespaces() {
        startSeeded("v1beta2");
        LiveConnectCluster live = live(NS);
        assertThat(live.generation()).isEqualTo(4);
        assertThat(live.observedGeneration()).isEqualTo(4);
        assertThat(live.spec()).doesNotContainKey("flowformSimSeedStep");
        assertThat(live.podSet().generation()).isEqualTo(7);
        assertThat(live.podSet().observedGeneration()).isEqualTo(7);
        assertThat(live.pods()).hasSize(3).allSatisfy(p -> assertThat(p.ready()).isTrue());
        Readiness readiness = RollCheck.evaluate(live, 4, EosMode.DISABLED);
        assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);

        LiveConnector source = liveConnector(NS, SOURCE);
        assertThat(source.generation()).isEqualTo(3);
        assertThat(source.observedGeneration()).isEqualTo(3);
        assertThat(source.connectorState()).isEqualTo("RUNNING");
        assertThat(source.config().get("source.cluster.sasl.jaas.config")).contains("password=\"Fake-Pw-Not-Real-4242\"");
        Namespace ns = cluster.client().namespaces().withName(NS).get();
        assertThat(ns.getMetadata().getLabels()).containsEntry("team", "streaming");
        assertThat(cluster.simulator().runtimeConnectors(NS, CONNECT))
                .containsExactly("primary-to-dr-checkpoint", "primary-to-dr-heartbeat", SOURCE);
        awaitIdle();
        assertThat(cluster.simulator().reconcileCount()).as("nothing unfinished in the seed").isZero();
    }

    @Test
    void countsRequestsPerClient() {
        startSeeded("v1");
        long all = cluster.requestCount();
        long clientOnly = cluster.clientRequestCount();
        cluster.client().pods().inNamespace(NS_V1).list();
        assertThat(cluster.clientRequestCount()).isEqualTo(clientOnly + 1);
        assertThat(cluster.requestCount()).isGreaterThan(all);
        assertThat(all).isGreaterThan(clientOnly);
    }

    @Test
    void aFailingJsonPatchTestOpIsAnsweredInsteadOfHanging() {
        startSeeded("v1beta2");
        long started = System.nanoTime();
        assertThatThrownBy(() -> cluster.client().pods().inNamespace(NS).withName("dr-connect-connect-0")
                .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"test\",\"path\":\"/metadata/name\",\"value\":\"nope\"}]"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("the bare mock hangs until the client's 10 s timeout")
                .isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void kubeconfigLetsAnotherClientConnect() throws IOException {
        startSeeded("v1");
        Path file = cluster.writeKubeconfig(tmp.resolve("kube/config"));
        String yaml = Files.readString(file);
        assertThat(yaml).contains("current-context: flowform-embedded").contains("server: " + cluster.url().replaceAll("/$", ""));
        Config config = Config.fromKubeconfig(yaml);
        assertThat(config.getCurrentContext().getName()).isEqualTo(EmbeddedCluster.CONTEXT);
        try (KubernetesClient other = cluster.newClient(config)) {
            assertThat(other.genericKubernetesResources("kafka.strimzi.io/v1", "KafkaConnect").inNamespace(NS_V1).list().getItems())
                    .extracting(r -> r.getMetadata().getName()).containsExactly(CONNECT);
        }
    }

    @Test
    void persistFileRoundTripKeepsObjectsAndGenerationsAndResumesAnUnfinishedRoll() throws IOException {
        Path state = tmp.resolve("state/embedded.json");
        EmbeddedClusterOptions options = EmbeddedClusterOptions.builder().persistFile(state).seedDir(seed("v1beta2")).build();
        cluster = EmbeddedCluster.start(options);
        assertThat(state).exists();
        LiveConnector sourceBefore = liveConnector(NS, SOURCE);

        cluster.faults().pauseOperator(true);
        long generation = setWorkerEos(NS, "preparing");
        await().atMost(Duration.ofSeconds(5)).until(() -> Files.readString(state).contains("exactly.once.source.support"));
        cluster.close();
        Map<String, Long> generations = persistedGenerations(state);
        assertThat(generations).containsEntry("KafkaConnect dr-connect", generation)
                .containsEntry("StrimziPodSet dr-connect-connect", 7L)
                .containsEntry("KafkaConnector primary-to-dr-source", 3L)
                .containsEntry("KafkaConnector primary-to-dr-checkpoint", 1L);
        try (Stream<Path> files = Files.list(state.getParent())) {
            assertThat(files).containsExactly(state);
        }

        // the persist file wins over the seed folder (a v1 seed would not even fit a v1beta2 file)
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().persistFile(state).seedDir(seed("v1")).build());
        assertThat(cluster.api()).isEqualTo(StrimziApi.V1BETA2);
        GenericKubernetesResource kc = connect(NS);
        assertThat(kc.getMetadata().getGeneration()).isEqualTo(generation);
        LiveConnector sourceAfter = liveConnector(NS, SOURCE);
        assertThat(sourceAfter.generation()).isEqualTo(sourceBefore.generation());
        assertThat(sourceAfter.config()).isEqualTo(sourceBefore.config());
        assertThat(sourceAfter.raw().get("status")).isEqualTo(sourceBefore.raw().get("status"));
        assertThat(cluster.client().genericKubernetesResources(StrimziCrds.podSet(api())).inNamespace(NS).withName(CONNECT + "-connect")
                .get().getMetadata().getGeneration()).as("7 as persisted, 8 once the resumed roll updated it").isBetween(7L, 8L);

        awaitIdle();
        Readiness readiness = RollCheck.evaluate(live(NS), generation, EosMode.PREPARING);
        assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);
        assertThat(objectKeys(new ClusterStore(cluster.client(), api()).dump())).as("same objects after the reload")
                .isEqualTo(objectKeys(persistedObjects(state)));
        cluster.close();

        cluster = EmbeddedCluster.start(options);
        assertThat(RollCheck.evaluate(live(NS), generation, EosMode.PREPARING).isComplete()).isTrue();
        awaitIdle();
        assertThat(cluster.simulator().reconcileCount()).as("a finished roll is not redone").isZero();
    }

    private static List<Object> persistedObjects(Path state) throws IOException {
        Map<String, Object> file = JsonMaps.map(JsonMaps.MAPPER.readValue(Files.readAllBytes(state), Map.class));
        assertThat(file).containsEntry("format", "flowform-sim/1").containsEntry("strimziApi", "v1beta2");
        return JsonMaps.list(file.get("objects"));
    }

    private static java.util.Set<String> objectKeys(List<?> objects) {
        java.util.Set<String> keys = new java.util.TreeSet<>();
        for (Object o : objects) {
            Map<String, Object> m = JsonMaps.map(o);
            keys.add(m.get("kind") + " " + JsonMaps.str(m, "metadata", "namespace") + "/" + JsonMaps.str(m, "metadata", "name"));
        }
        return keys;
    }

    private static Map<String, Long> persistedGenerations(Path state) throws IOException {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (Object o : persistedObjects(state)) {
            Map<String, Object> m = JsonMaps.map(o);
            Long g = JsonMaps.lng(m, "metadata", "generation");
            if (g != null) {
                out.put(m.get("kind") + " " + JsonMaps.str(m, "metadata", "name"), g);
            }
            assertThat(JsonMaps.map(m.get("metadata"))).doesNotContainKeys("resourceVersion", "uid");
        }
        return out;
    }

    @Test
    void rejectsSeedsThatDoNotFit() throws IOException {
        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed("v1beta2"))
                .api(StrimziApi.V1).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("v1beta2").hasMessageContaining("serve v1");

        Path dir = Files.createDirectories(tmp.resolve("seed"));
        Files.writeString(dir.resolve("app.yaml"), """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: web
                """);
        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(dir).build()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kind Deployment is not supported");

        Files.writeString(dir.resolve("app.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: twice, namespace: apps}
                data: {a: "1"}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: twice, namespace: apps}
                data: {a: "2"}
                """);
        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(dir).build()))
                .as("the store refuses the second object; the message names it and gives the API server's reason")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ConfigMap apps/twice: the API server refused it (409): ConfigMap 'twice' already exists");
    }

    @Test
    void anEmptyClusterServesV1beta2ByDefault() {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().build());
        assertThat(cluster.api()).isEqualTo(StrimziApi.V1BETA2);
        assertThat(cluster.client().namespaces().list().getItems()).isEmpty();
        assertThat(cluster.simulator().awaitIdle(Duration.ofSeconds(2))).isTrue();
        cluster.close();
        cluster.close();
        assertThat(cluster.simulator().awaitIdle(Duration.ofMillis(10))).isTrue();
    }

}
