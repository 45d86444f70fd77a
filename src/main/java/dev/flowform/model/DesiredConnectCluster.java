package dev.flowform.model;

import dev.flowform.diag.SourceRange;
import java.util.Map;
import java.util.Set;

/**
 * A {@code connect_cluster} block after variables are resolved: the KafkaConnect flowform wants.
 *
 * <p>It has two stages. As decoded (a {@code Configuration}'s clusters) it holds what the block declares:
 * {@code eos} may be null (derive it from the flows on the cluster), {@code namespace} may be null (use the
 * environment's) and {@code config} keeps source order. {@link #derived} completes it for a {@link DesiredState}:
 * the worker mode decided, the namespace filled in and {@code config} sorted by key.
 *
 * @param address          resource address, e.g. {@code connect_cluster.west}
 * @param name             KafkaConnect {@code metadata.name}
 * @param namespace        its namespace; null when declared without one and not yet derived
 * @param manage           {@link ManageMode#OWN} (create, own every key) or {@link ManageMode#ADOPT}
 * @param eos              the worker {@code exactly.once.source.support} flowform converges to; as declared
 *                         ({@code exactly_once_source_support}) null means derive it from the cluster's flows
 * @param replicas         {@code spec.replicas}, or null when not declared
 * @param bootstrapServers {@code spec.bootstrapServers}, or null when not declared
 * @param version          {@code spec.version} (Kafka version), or null when not declared
 * @param config           declared {@code spec.config} entries, values as strings, without the EOS key: in source
 *                         order as declared, sorted by key once derived
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
        SourceRange range) implements DesiredWorkers {

    /** Copies the maps (config in the given order) and sorts the sensitive keys. */
    public DesiredConnectCluster {
        config = Maps.copy(config);
        spec = Maps.copy(spec);
        sensitiveKeys = Maps.sortedSet(sensitiveKeys);
    }

    /**
     * Completes a declared cluster for the desired state. The worker mode is the declared one, else
     * {@link EosMode#ENABLED} when a flow on the cluster wants exactly-once (KIP-618 needs the workers enabled
     * before a connector may require it), else {@link EosMode#DISABLED}.
     *
     * @param defaultNamespace the environment's namespace, used when none is declared
     * @param eosWanted        whether any flow on this cluster wants exactly-once delivery
     * @return the cluster with {@code eos} and {@code namespace} set and {@code config} sorted by key
     */
    public DesiredConnectCluster derived(String defaultNamespace, boolean eosWanted) {
        EosMode mode = eos != null ? eos : eosWanted ? EosMode.ENABLED : EosMode.DISABLED;
        return new DesiredConnectCluster(address, name, namespace != null ? namespace : defaultNamespace, manage, mode,
                replicas, bootstrapServers, version, Maps.sorted(config), spec, sensitiveKeys, range);
    }

    /** @return true when {@code key}'s value must be masked */
    public boolean isSensitive(String key) {
        return sensitiveKeys.contains(key) || SecretKeys.isSensitive(key);
    }
}
