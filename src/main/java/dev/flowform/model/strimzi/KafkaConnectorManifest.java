package dev.flowform.model.strimzi;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A KafkaConnector custom resource to create, as the map the API server receives (Strimzi
 * {@code KafkaConnector}/{@code KafkaConnectorSpec}). Pure: no I/O.
 *
 * <p>Its first label is {@value Strimzi#CLUSTER_LABEL}, which names the KafkaConnect it runs on (the operator
 * ignores a KafkaConnector without it). Entries keep the order given, so the document a plan shows is stable.
 *
 * @param apiVersion  {@code kafka.strimzi.io/v1} or {@code kafka.strimzi.io/v1beta2}, as the API serves it
 * @param namespace   {@code metadata.namespace}, the KafkaConnect's
 * @param name        {@code metadata.name}
 * @param cluster     the KafkaConnect's name
 * @param labels      further {@code metadata.labels}
 * @param annotations {@code metadata.annotations}; when empty the resource has none
 * @param className   {@code spec.class}
 * @param tasksMax    {@code spec.tasksMax}, or null for the connector's default
 * @param state       {@code spec.state} ({@code running}, {@code paused}, {@code stopped}), or null
 * @param config      {@code spec.config}, in the order to write it
 */
public record KafkaConnectorManifest(String apiVersion, String namespace, String name, String cluster,
                                     Map<String, String> labels, Map<String, String> annotations, String className,
                                     Integer tasksMax, String state, Map<String, String> config) {

    /** The kind of the resource. */
    public static final String KIND = "KafkaConnector";

    /** Keeps the given order of every map. */
    public KafkaConnectorManifest {
        labels = new LinkedHashMap<>(labels);
        annotations = new LinkedHashMap<>(annotations);
        config = new LinkedHashMap<>(config);
    }

    /** @return the resource: {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec}, as mutable maps */
    public Map<String, Object> toMap() {
        Map<String, Object> allLabels = new LinkedHashMap<>();
        allLabels.put(Strimzi.CLUSTER_LABEL, cluster);
        allLabels.putAll(labels);
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("class", className);
        if (tasksMax != null) {
            spec.put("tasksMax", tasksMax);
        }
        if (state != null) {
            spec.put("state", state);
        }
        spec.put("config", new LinkedHashMap<String, Object>(config));
        return CustomResource.of(apiVersion, KIND, namespace, name, allLabels, new LinkedHashMap<>(annotations), spec);
    }
}
