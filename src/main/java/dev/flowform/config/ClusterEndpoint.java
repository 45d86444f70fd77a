package dev.flowform.config;

import java.util.Map;
import java.util.Set;

/**
 * The {@code source} or {@code target} argument of a replication flow.
 *
 * @param alias            cluster alias ({@code source.cluster.alias} / {@code target.cluster.alias})
 * @param bootstrapServers bootstrap servers, or null
 * @param config           extra client settings, prefixed with {@code source.cluster.} / {@code target.cluster.} on the connectors
 * @param sensitiveKeys    keys of {@code config} whose values came from sensitive variables
 */
public record ClusterEndpoint(String alias, String bootstrapServers, Map<String, String> config, Set<String> sensitiveKeys) {
    public ClusterEndpoint {
        config = dev.flowform.model.Maps.copy(config);
        sensitiveKeys = dev.flowform.model.Maps.sortedSet(sensitiveKeys);
    }
}
