package dev.flowform.model;

import java.util.Map;
import java.util.Set;

/**
 * One KafkaConnector that a replication flow becomes.
 *
 * <p>Under {@link ManageMode#OWN} the connector's {@code spec.config} must equal {@link #config()}
 * exactly. Under {@link ManageMode#ADOPT} only the keys of {@link #config()} must have these values
 * and the keys of {@link #absentKeys()} must be unset; everything else is left as it is.
 *
 * @param address        resource address, e.g. {@code kafka_connector.east-to-west-source}
 * @param flowAddress    the flow it belongs to, e.g. {@code replication_flow.east-to-west}
 * @param name           KafkaConnector {@code metadata.name}
 * @param namespace      its namespace (the Connect cluster's)
 * @param connectCluster the KafkaConnect name it runs on (label {@code strimzi.io/cluster})
 * @param role           source, checkpoint or heartbeat
 * @param manage         ownership of the object
 * @param className      {@code spec.class}
 * @param tasksMax       {@code spec.tasksMax}, or null when not declared (adopt)
 * @param state          {@code spec.state} ({@code running}, {@code paused}, {@code stopped}), or null when not declared
 * @param config         keys that must have these values (strings)
 * @param absentKeys     keys that must not be set (adopt only; under own every undeclared key is removed)
 * @param sensitiveKeys  keys of {@code config} whose values came from sensitive variables
 * @param exactlyOnce    true when this connector is part of a flow with EOS on
 */
public record DesiredConnector(
        String address,
        String flowAddress,
        String name,
        String namespace,
        String connectCluster,
        ConnectorRole role,
        ManageMode manage,
        String className,
        Integer tasksMax,
        String state,
        Map<String, String> config,
        Set<String> absentKeys,
        Set<String> sensitiveKeys,
        boolean exactlyOnce) {

    public DesiredConnector {
        config = Maps.sorted(config);
        absentKeys = Maps.sortedSet(absentKeys);
        sensitiveKeys = Maps.sortedSet(sensitiveKeys);
    }

    /** @return true when {@code key}'s value must be masked */
    public boolean isSensitive(String key) {
        return sensitiveKeys.contains(key) || SecretKeys.isSensitive(key);
    }
}
