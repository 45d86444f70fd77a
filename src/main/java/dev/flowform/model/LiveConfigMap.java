package dev.flowform.model;

/**
 * ConfigMap {@code <name>-connect-config} where Strimzi 0.46+ writes the worker configuration.
 *
 * @param properties the {@code kafka-connect.properties} text, or null
 */
public record LiveConfigMap(ObjectRef ref, String properties) {
}
