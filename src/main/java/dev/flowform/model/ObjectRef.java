package dev.flowform.model;

import java.util.Objects;

/**
 * Names one Kubernetes object.
 *
 * @param apiVersion e.g. {@code kafka.strimzi.io/v1beta2} or {@code v1}
 * @param kind       e.g. {@code KafkaConnect}
 * @param namespace  the namespace (all objects flowform handles are namespaced)
 * @param name       {@code metadata.name}
 */
public record ObjectRef(String apiVersion, String kind, String namespace, String name) {
    public ObjectRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
    }

    /** @return {@code Kind namespace/name}, as kubectl users read it */
    @Override
    public String toString() {
        return kind + " " + namespace + "/" + name;
    }
}
