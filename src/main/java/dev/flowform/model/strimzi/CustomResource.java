package dev.flowform.model.strimzi;

import java.util.LinkedHashMap;
import java.util.Map;

/** The frame every Strimzi custom resource shares: {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec}. */
final class CustomResource {

    private CustomResource() {
    }

    /**
     * @param apiVersion  e.g. {@code kafka.strimzi.io/v1}
     * @param kind        e.g. {@code KafkaConnect}
     * @param namespace   {@code metadata.namespace}
     * @param name        {@code metadata.name}
     * @param labels      {@code metadata.labels}
     * @param annotations {@code metadata.annotations}; left out when empty
     * @param spec        {@code spec}
     * @return the resource as mutable maps, in that order
     */
    static Map<String, Object> of(String apiVersion, String kind, String namespace, String name, Map<String, Object> labels,
                                  Map<String, Object> annotations, Map<String, Object> spec) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name);
        metadata.put("namespace", namespace);
        metadata.put("labels", labels);
        if (!annotations.isEmpty()) {
            metadata.put("annotations", annotations);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("apiVersion", apiVersion);
        m.put("kind", kind);
        m.put("metadata", metadata);
        m.put("spec", spec);
        return m;
    }
}
