package dev.flowform.model;

import dev.flowform.diag.SourceRange;
import java.util.Map;
import java.util.Set;

/**
 * A {@code connect_cluster} block after variables are resolved: the KafkaConnect flowform wants.
 *
 * @param address          resource address, e.g. {@code connect_cluster.west}
 * @param name             KafkaConnect {@code metadata.name}
 * @param namespace        its namespace
 * @param manage           {@link ManageMode#OWN} (create, own every key) or {@link ManageMode#ADOPT}
 * @param eos              the worker {@code exactly.once.source.support} flowform converges to
 * @param replicas         {@code spec.replicas}, or null when not declared
 * @param bootstrapServers {@code spec.bootstrapServers}, or null when not declared
 * @param version          {@code spec.version} (Kafka version), or null when not declared
 * @param config           declared {@code spec.config} entries, values as strings, without the EOS key
 * @param spec             further declared {@code spec} fields (e.g. {@code tls}, {@code authentication}), raw JSON values
 * @param sensitiveKeys    {@code config} keys whose values came from sensitive variables
 * @param range            the block in the configuration, for diagnostics; may be null
 */
public record DesiredConnectCluster(
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

    public DesiredConnectCluster {
        config = Maps.sorted(config);
        spec = Maps.copy(spec);
        sensitiveKeys = Maps.sortedSet(sensitiveKeys);
    }

    /** @return true when {@code key}'s value must be masked */
    public boolean isSensitive(String key) {
        return sensitiveKeys.contains(key) || SecretKeys.isSensitive(key);
    }
}
