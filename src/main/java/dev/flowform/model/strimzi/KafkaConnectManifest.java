package dev.flowform.model.strimzi;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A KafkaConnect custom resource to create, as the map the API server receives (Strimzi
 * {@code KafkaConnect}/{@code KafkaConnectSpec}). Pure: no I/O.
 *
 * <p>The resource always carries {@value Strimzi#USE_CONNECTOR_RESOURCES_ANNOTATION}{@code : "true"}, first among
 * its annotations: the connectors of a cluster flowform creates are managed only through KafkaConnector
 * resources. The spec lists {@code version}, {@code replicas} and {@code bootstrapServers} (each when set), then
 * the other spec fields, then {@code config}; entries keep the order given, so the document a plan shows is
 * stable.
 *
 * @param apiVersion       {@code kafka.strimzi.io/v1} or {@code kafka.strimzi.io/v1beta2}, as the API serves it
 * @param namespace        {@code metadata.namespace}
 * @param name             {@code metadata.name}
 * @param labels           {@code metadata.labels}
 * @param annotations      further {@code metadata.annotations}, after the connector-resources one; may be empty
 * @param version          {@code spec.version} (the Kafka version), or null for the operator's default
 * @param replicas         {@code spec.replicas}, or null for Strimzi's default
 * @param bootstrapServers {@code spec.bootstrapServers}, or null
 * @param spec             other {@code spec} fields, as JSON-like values
 * @param config           {@code spec.config} (the worker configuration), in the order to write it
 */
public record KafkaConnectManifest(String apiVersion, String namespace, String name, Map<String, String> labels,
                                   Map<String, String> annotations, String version, Integer replicas,
                                   String bootstrapServers, Map<String, Object> spec, Map<String, String> config) {

    /** The kind of the resource. */
    public static final String KIND = "KafkaConnect";

    /** Keeps the given order of every map. */
    public KafkaConnectManifest {
        labels = new LinkedHashMap<>(labels);
        annotations = new LinkedHashMap<>(annotations);
        spec = new LinkedHashMap<>(spec);
        config = new LinkedHashMap<>(config);
    }

    /** @return the resource: {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec}, as mutable maps */
    public Map<String, Object> toMap() {
        Map<String, Object> allAnnotations = new LinkedHashMap<>();
        allAnnotations.put(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION, "true");
        allAnnotations.putAll(annotations);
        Map<String, Object> s = new LinkedHashMap<>();
        if (version != null) {
            s.put("version", version);
        }
        if (replicas != null) {
            s.put("replicas", replicas);
        }
        if (bootstrapServers != null) {
            s.put("bootstrapServers", bootstrapServers);
        }
        s.putAll(spec);
        s.put("config", new LinkedHashMap<String, Object>(config));
        return CustomResource.of(apiVersion, KIND, namespace, name, new LinkedHashMap<>(labels), allAnnotations, s);
    }
}
