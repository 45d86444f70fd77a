package dev.flowform.model;

import dev.flowform.model.strimzi.Strimzi;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A KafkaConnect as read from the cluster, with its PodSet, pods and config map.
 *
 * @param ref                 the object (its {@code apiVersion} tells v1beta2 from v1)
 * @param resourceVersion     {@code metadata.resourceVersion}
 * @param generation          {@code metadata.generation}
 * @param labels              {@code metadata.labels}
 * @param annotations         {@code metadata.annotations}
 * @param spec                the raw {@code spec}
 * @param config              {@code spec.config} with every value as a string
 * @param observedGeneration  {@code status.observedGeneration}, or null when never reconciled
 * @param conditions          {@code status.conditions}
 * @param podSet              the StrimziPodSet {@code <name>-connect}, or null (Deployment era or missing)
 * @param pods                worker pods ({@code strimzi.io/cluster=<name>, strimzi.io/kind=KafkaConnect}), by name
 * @param configMap           ConfigMap {@code <name>-connect-config}, or null before Strimzi 0.46
 * @param raw                 the whole object as JSON-like maps, for snapshots and fingerprints
 */
public record LiveConnectCluster(
        ObjectRef ref,
        String resourceVersion,
        long generation,
        Map<String, String> labels,
        Map<String, String> annotations,
        Map<String, Object> spec,
        Map<String, String> config,
        Long observedGeneration,
        List<Condition> conditions,
        LivePodSet podSet,
        List<LivePod> pods,
        LiveConfigMap configMap,
        Map<String, Object> raw) implements LiveObject {

    /**
     * {@code spec.config} keys Strimzi {@code v1} forbids ("Configuration option ... is forbidden and will be
     * ignored", {@code AbstractConfiguration}); {@code v1} has {@code spec.groupId},
     * {@code spec.configStorageTopic}, {@code spec.offsetStorageTopic} and {@code spec.statusStorageTopic} instead.
     */
    public static final List<String> V1_FORBIDDEN_CONFIG_KEYS =
            List.of("group.id", "config.storage.topic", "offset.storage.topic", "status.storage.topic");

    /** Copies the collections; labels, annotations and config sorted by key. */
    public LiveConnectCluster {
        labels = Maps.sorted(labels);
        annotations = Maps.sorted(annotations);
        spec = Maps.copy(spec);
        config = Maps.sorted(config);
        conditions = List.copyOf(conditions);
        pods = List.copyOf(pods);
        raw = Maps.copy(raw);
    }

    /** @return the Strimzi API version the object was read with */
    public StrimziApi api() {
        return StrimziApi.fromApiVersion(ref.apiVersion());
    }

    /** @return the raw {@code exactly.once.source.support} value, or null when unset */
    public String eosValue() {
        return config.get(EosMode.CONFIG_KEY);
    }

    /** @return the worker EOS mode in the spec; empty when the value is not a valid mode */
    public Optional<EosMode> eosMode() {
        return EosMode.parse(eosValue());
    }

    /** @return {@code spec.replicas}, or null */
    public Integer replicas() {
        Object r = spec.get("replicas");
        return r instanceof Number n ? n.intValue() : r == null ? null : Integer.valueOf(r.toString());
    }

    /** @return {@code spec.version} (the Kafka version), or null */
    public String version() {
        Object v = spec.get("version");
        return v == null ? null : v.toString();
    }

    /**
     * The Kafka version the workers report: the {@code version} of MirrorSourceConnector in
     * {@code status.connectorPlugins} (Strimzi {@code KafkaConnectStatus}; MirrorMaker 2's connectors report
     * the Kafka version of the worker they run on). Tells the Kafka version when {@code spec.version} is not
     * set and the operator runs its default.
     *
     * @return the reported version as written, or null when the status does not list MirrorSourceConnector
     */
    public String reportedKafkaVersion() {
        Object status = raw.get("status");
        if (!(status instanceof Map<?, ?> s) || !(s.get("connectorPlugins") instanceof List<?> plugins)) {
            return null;
        }
        for (Object o : plugins) {
            if (o instanceof Map<?, ?> p && ConnectorRole.SOURCE.connectorClass().equals(p.get("class"))
                    && p.get("version") != null) {
                return p.get("version").toString();
            }
        }
        return null;
    }

    /**
     * The Connect group id, read from the field the object's API version uses (Strimzi CHANGELOG 0.49.0:
     * {@code v1} adds {@code spec.groupId} and forbids {@code group.id} in {@code spec.config}, silently
     * dropping it; {@code v1beta2} reads {@code spec.config."group.id"}, default {@code connect-cluster},
     * {@code KafkaConnectConfiguration} at 0.45.0).
     *
     * @return {@code spec.groupId} for v1 (null when absent, which the v1 schema does not allow);
     *         for v1beta2 {@code spec.config."group.id"}, else {@link Strimzi#DEFAULT_GROUP_ID}
     */
    public String groupId() {
        if (api() == StrimziApi.V1) {
            Object g = spec.get("groupId");
            return g == null ? null : g.toString();
        }
        return config.getOrDefault("group.id", Strimzi.DEFAULT_GROUP_ID);
    }

    /**
     * @return the keys of {@code spec.config} that Strimzi {@code v1} forbids and silently ignores
     *         ({@code group.id} and the three storage-topic keys; they moved to {@code spec}), sorted;
     *         empty for v1beta2 objects
     */
    public List<String> ignoredV1ConfigKeys() {
        if (api() != StrimziApi.V1) {
            return List.of();
        }
        return V1_FORBIDDEN_CONFIG_KEYS.stream().filter(config::containsKey).sorted().toList();
    }

    /** @return true when annotation {@code strimzi.io/use-connector-resources} is {@code "true"} */
    public boolean usesConnectorResources() {
        return "true".equalsIgnoreCase(annotations.get(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION));
    }

    /** @return true when reconciliation is paused by annotation or condition */
    public boolean reconciliationPaused() {
        return "true".equalsIgnoreCase(annotations.get(Strimzi.PAUSE_RECONCILIATION_ANNOTATION))
                || Conditions.isTrue(conditions, "ReconciliationPaused");
    }
}
