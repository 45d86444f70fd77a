package dev.flowform.sim;

import dev.flowform.live.CoreResources;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;

/** Shared helpers for the sim tests: seeded clusters, spec edits and reads through {@link LiveMapper}. */
abstract class SimTestSupport {
    static final String NS = "mirror";
    static final String NS_V1 = "mirror-v1";
    static final String CONNECT = "dr-connect";
    static final String SOURCE = "primary-to-dr-source";
    static final String CHECKPOINT = "primary-to-dr-checkpoint";
    static final Duration IDLE = Duration.ofSeconds(15);

    EmbeddedCluster cluster;

    @AfterEach
    void closeCluster() {
        if (cluster != null) {
            long refused = cluster.refusedSimulatorWrites();
            cluster.close();
            assertThat(refused).as("writes of the simulated operator that Strimzi's schemas refused (see the warnings)")
                    .isZero();
        }
    }

    static Path seed(String name) {
        try {
            return Path.of(SimTestSupport.class.getResource("/sim/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    EmbeddedCluster startSeeded(String seed) {
        return startSeeded(seed, SimSettings.fast());
    }

    EmbeddedCluster startSeeded(String seed, SimSettings settings) {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed(seed)).settings(settings).build());
        return cluster;
    }

    void awaitIdle() {
        assertThat(cluster.simulator().awaitIdle(IDLE)).as("simulator idle within " + IDLE).isTrue();
    }

    GenericKubernetesResource connect(String ns) {
        return cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(cluster.api())).inNamespace(ns)
                .withName(CONNECT).get();
    }

    /** Applies {@code edit} to a fresh copy of the KafkaConnect spec.config and PUTs it; @return the new generation */
    long editConnectConfig(String ns, Consumer<Map<String, Object>> edit) {
        return editSpec(StrimziCrds.kafkaConnect(cluster.api()), ns, CONNECT, spec -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> config = new LinkedHashMap<>((Map<String, Object>) spec.getOrDefault("config", Map.of()));
            edit.accept(config);
            spec.put("config", config);
        });
    }

    long setWorkerEos(String ns, String mode) {
        return editConnectConfig(ns, c -> c.put("exactly.once.source.support", mode));
    }

    /** Applies {@code edit} to the connector's spec.config; @return the new generation */
    long editConnectorConfig(String ns, String name, Consumer<Map<String, Object>> edit) {
        return editSpec(StrimziCrds.kafkaConnector(cluster.api()), ns, name, spec -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> config = new LinkedHashMap<>((Map<String, Object>) spec.getOrDefault("config", Map.of()));
            edit.accept(config);
            spec.put("config", config);
        });
    }

    long editSpec(io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext ctx, String ns, String name,
                  Consumer<Map<String, Object>> edit) {
        var op = cluster.client().genericKubernetesResources(ctx).inNamespace(ns);
        GenericKubernetesResource r = op.withName(name).get();
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) r.getAdditionalProperties().get("spec"));
        edit.accept(spec);
        r.setAdditionalProperty("spec", spec);
        return op.resource(r).update().getMetadata().getGeneration();
    }

    LiveConnectCluster live(String ns) {
        return LiveMapper.cluster(cluster.client(), cluster.api(), ns, CONNECT);
    }

    LiveConnector liveConnector(String ns, String name) {
        return LiveMapper.connector(cluster.client(), cluster.api(), ns, name);
    }

    StrimziApi api() {
        return cluster.api();
    }

    /** @return KafkaMirrorMaker2 {@code ns/name} as the planner sees it: resource, PodSet, pods and ConfigMap */
    LiveMirrorMaker2 liveMirrorMaker(String ns, String name) {
        var client = cluster.client();
        GenericKubernetesResource m = client.genericKubernetesResources(StrimziCrds.kafkaMirrorMaker2(cluster.api()))
                .inNamespace(ns).withName(name).get();
        GenericKubernetesResource ps = client.genericKubernetesResources(StrimziCrds.podSet(cluster.api()))
                .inNamespace(ns).withName(MirrorMaker2Names.podSetName(name)).get();
        List<GenericKubernetesResource> pods = client.genericKubernetesResources(CoreResources.PODS).inNamespace(ns)
                .withLabels(Map.of(Strimzi.CLUSTER_LABEL, name, Strimzi.KIND_LABEL, Strimzi.KAFKA_MIRROR_MAKER_2_KIND))
                .list().getItems();
        GenericKubernetesResource cm = client.genericKubernetesResources(CoreResources.CONFIG_MAPS).inNamespace(ns)
                .withName(MirrorMaker2Names.configMapName(name)).get();
        return dev.flowform.live.LiveMapper.mirrorMaker(m, ps, pods, cm);
    }

    /** Applies {@code change} to a deep copy of KafkaMirrorMaker2 {@code ns/name}'s spec; @return the new generation */
    @SuppressWarnings("unchecked")
    long editMirrorMaker(String ns, String name, Consumer<Map<String, Object>> change) {
        return editSpec(StrimziCrds.kafkaMirrorMaker2(cluster.api()), ns, name, spec -> {
            Map<String, Object> copy = (Map<String, Object>) JsonMaps.deepCopy(spec);
            change.accept(copy);
            spec.putAll(copy);
        });
    }

    /** Sets the worker mode in the second {@code spec.clusters[]} entry (v1beta2); @return the new generation */
    @SuppressWarnings("unchecked")
    long setMirrorMakerWorkerMode(String ns, String name, String mode) {
        return editMirrorMaker(ns, name, spec -> ((Map<String, Object>) ((Map<String, Object>) ((List<Object>)
                spec.get("clusters")).get(1)).get("config")).put(EosMode.CONFIG_KEY, mode));
    }
}
