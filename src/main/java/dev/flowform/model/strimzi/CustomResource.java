package dev.flowform.model.strimzi;

import java.util.LinkedHashMap;
import java.util.Map;

/** The frame every Strimzi custom resource shares: {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec}. */
final class CustomResource {

    private CustomResource() {
    }

    /**
     * @return the resource as mutable maps in this order: {@code apiVersion}, {@code kind}, {@code metadata} with
     *         {@code namespace}, {@code name}, {@code labels} and {@code annotations} (left out when empty), then
     *         {@code spec}
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
