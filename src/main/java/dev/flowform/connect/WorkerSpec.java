package dev.flowform.connect;

import java.util.Map;

/**
 * One Connect worker as its pod starts it.
 *
 * @param pod        {@code namespace/podName}
 * @param cluster    {@code namespace/KafkaConnect name} the pod belongs to
 * @param properties worker properties as the operator rendered them (the {@code kafka-connect.properties}
 *                   file of ConfigMap {@code <name>-connect-config}, or the {@code KAFKA_CONNECT_CONFIGURATION}
 *                   variable of older Strimzi): {@code bootstrap.servers}, {@code group.id}, the storage topics,
 *                   {@code exactly.once.source.support} and every other {@code spec.config} key
 */
public record WorkerSpec(String pod, String cluster, Map<String, String> properties) {
    /** Copies {@code properties}. */
    public WorkerSpec {
        properties = Map.copyOf(properties);
    }
}
