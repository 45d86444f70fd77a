package dev.flowform.sim;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every part of the simulated operator shares, used on the operator thread unless a method says otherwise.
 *
 * @param client   client of the embedded API server (the simulator's own user agent)
 * @param api      the served Strimzi API version
 * @param settings timing
 * @param faults   fault switches
 * @param memory   what the simulator remembers beyond the objects
 * @param runtime  Kafka Connect behind the worker pods
 * @param loop     the operator thread
 */
record SimContext(KubernetesClient client, StrimziApi api, SimSettings settings, SimFaults faults, OperatorMemory memory,
                  ConnectRuntime runtime, OperatorLoop loop) {
    /** Shortest delay before retrying a step that failed on the API server. */
    static final Duration MIN_RETRY = Duration.ofMillis(100);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    /** @return KafkaConnect resources of the served API */
    MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> kc() {
        return ops(StrimziCrds.kafkaConnect(api));
    }

    /** @return KafkaConnector resources of the served API */
    MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> kctr() {
        return ops(StrimziCrds.kafkaConnector(api));
    }

    /** @return KafkaMirrorMaker2 resources of the served API */
    MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> mm2() {
        return ops(StrimziCrds.kafkaMirrorMaker2(api));
    }

    /** Writes {@code status} of a KafkaMirrorMaker2 unless it already has exactly that status. */
    void writeMirrorMakerStatus(GenericKubernetesResource mm2, Map<String, Object> status) {
        writeStatus(mm2(), mm2, status);
    }

    /** @return StrimziPodSet resources of the served API */
    MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> sps() {
        return ops(StrimziCrds.podSet(api));
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> ops(
            ResourceDefinitionContext ctx) {
        return client.genericKubernetesResources(ctx);
    }

    /** @return the worker pods of KafkaConnect {@code ns/cluster}, as the API server lists them */
    List<Pod> workerPods(String ns, String cluster) {
        return client.pods().inNamespace(ns).withLabels(Map.of(Strimzi.CLUSTER_LABEL, cluster,
                Strimzi.KIND_LABEL, Strimzi.KAFKA_CONNECT_KIND)).list().getItems();
    }

    /** @return the current time as Strimzi writes it in {@code lastTransitionTime} and {@code startTime} */
    String now() {
        return TIME.format(loop.clock().instant());
    }

    /** Writes {@code status} of a KafkaConnect unless it already has exactly that status. */
    void writeConnectStatus(GenericKubernetesResource kc, Map<String, Object> status) {
        writeStatus(kc(), kc, status);
    }

    /** Writes {@code status} of a KafkaConnector unless it already has exactly that status. */
    void writeConnectorStatus(GenericKubernetesResource c, Map<String, Object> status) {
        writeStatus(kctr(), c, status);
    }

    private static void writeStatus(MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> op, GenericKubernetesResource r, Map<String, Object> status) {
        if (JsonMaps.canonicalJson(status).equals(JsonMaps.canonicalJson(r.getAdditionalProperties().get("status")))) {
            return;
        }
        r.setAdditionalProperty("status", status);
        op.inNamespace(r.getMetadata().getNamespace()).resource(r).updateStatus();
    }

    // ------------------------------------------------------------------ readers of objects (thread-safe)

    /** @return {@code namespace/name} of {@code r} */
    static String key(HasMetadata r) {
        return r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
    }

    /** @return annotation {@code key} of {@code r}, or null */
    static String annotation(HasMetadata r, String key) {
        Map<String, String> a = r.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    /** @return label {@code key} of {@code r}, or null */
    static String label(HasMetadata r, String key) {
        Map<String, String> l = r.getMetadata().getLabels();
        return l == null ? null : l.get(key);
    }

    /** @return true when {@code r} carries {@code strimzi.io/pause-reconciliation: "true"} */
    static boolean paused(HasMetadata r) {
        return "true".equalsIgnoreCase(annotation(r, Strimzi.PAUSE_RECONCILIATION_ANNOTATION));
    }

    /** @return true when KafkaConnect {@code kc} carries {@code strimzi.io/use-connector-resources: "true"} */
    static boolean useResources(HasMetadata kc) {
        return "true".equalsIgnoreCase(annotation(kc, Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION));
    }

    /** @return {@code metadata.generation}, 0 when absent */
    static long generation(HasMetadata r) {
        Long g = r.getMetadata().getGeneration();
        return g == null ? 0 : g;
    }

    /** @return {@code spec} of {@code r}, empty when absent */
    static Map<String, Object> spec(GenericKubernetesResource r) {
        Map<String, Object> spec = JsonMaps.map(r.getAdditionalProperties().get("spec"));
        return spec == null ? Map.of() : spec;
    }

    /**
     * @return true when the operator is done with {@code r}: paused and reporting it, or observed at its generation
     */
    static boolean settled(GenericKubernetesResource r) {
        if (paused(r)) {
            return StatusDocuments.hasTrueCondition(r.getAdditionalProperties(), "ReconciliationPaused");
        }
        Long observed = JsonMaps.lng(r.getAdditionalProperties(), "status", "observedGeneration");
        return observed != null && observed >= generation(r);
    }

    /** @return true when pod {@code p} is not terminating and its {@code Ready} condition is {@code True} */
    static boolean ready(Pod p) {
        if (p.getStatus() == null || p.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        for (PodCondition c : p.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }

    /** @return the pod's {@code KAFKA_CONNECT_CONFIGURATION} (Strimzi 0.45 and older), or null */
    static String envConfiguration(Pod p) {
        if (p.getSpec() == null) {
            return null;
        }
        for (var c : p.getSpec().getContainers()) {
            for (EnvVar e : c.getEnv()) {
                if (Strimzi.CONNECT_CONFIGURATION_ENV.equals(e.getName())) {
                    return e.getValue();
                }
            }
        }
        return null;
    }

    /** @return {@code m} with every value as a string (null stays null), in {@code m}'s order */
    static Map<String, String> stringMap(Map<String, Object> m) {
        Map<String, String> out = new LinkedHashMap<>();
        if (m != null) {
            m.forEach((k, v) -> out.put(k, v == null ? null : v.toString()));
        }
        return out;
    }

    /** @return the longer of {@code a} and {@code b} */
    static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
