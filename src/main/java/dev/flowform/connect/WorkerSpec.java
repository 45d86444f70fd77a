package dev.flowform.connect;

import java.util.Map;

/**
 * One Connect worker as its pod starts it.
 *
 * @param pod        {@code namespace/podName}
 * @param cluster    {@code namespace/KafkaConnect name} the pod belongs to
 * @param properties worker properties as the operator rendered them (ConfigMap file, or the older
 *                   {@code KAFKA_CONNECT_CONFIGURATION} variable)
 */
public record WorkerSpec(String pod, String cluster, Map<String, String> properties) {
    /** Copies {@code properties}. */
    public WorkerSpec {
        properties = Map.copyOf(properties);
    }
}
