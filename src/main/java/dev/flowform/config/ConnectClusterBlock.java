package dev.flowform.config;

import dev.flowform.diag.SourceRange;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import java.util.Map;
import java.util.Set;

/**
 * A {@code connect_cluster} block with every expression resolved.
 *
 * @param address          e.g. {@code connect_cluster.west}
 * @param name             the label: the KafkaConnect name
 * @param namespace        the {@code namespace} argument, else the selected environment's namespace (the loader
 *                         fills it in and reports an error when neither is set)
 * @param manage           {@code own} (default) or {@code adopt}
 * @param eos              {@code exactly_once_source_support}, or null to derive it from the flows on the cluster
 * @param replicas         {@code replicas}, or null
 * @param bootstrapServers {@code bootstrap_servers}, or null
 * @param version          {@code version} (Kafka version), or null
 * @param config           {@code config}: worker config entries, values as strings
 * @param spec             {@code spec}: further KafkaConnect spec fields, raw JSON values
 * @param sensitiveKeys    keys of {@code config} whose values came from sensitive variables
 * @param range            the block, for diagnostics
 */
public record ConnectClusterBlock(
        String address,
        String name,
        String namespace,
        ManageMode manage,
        EosMode eos,
        Integer replicas,
        String bootstrapServers,
        String version,
        Map<String, String> config,
        Map<String, Object> spec,
        Set<String> sensitiveKeys,
        SourceRange range) {
    /** Copies the maps (config in source order) and sorts the sensitive keys. */
    public ConnectClusterBlock {
        config = dev.flowform.model.Maps.copy(config);
        spec = dev.flowform.model.Maps.copy(spec);
        sensitiveKeys = dev.flowform.model.Maps.sortedSet(sensitiveKeys);
    }
}
