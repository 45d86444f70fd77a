package dev.flowform.model;

import dev.flowform.diag.SourceRange;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@code mirrormaker2} block after variables are resolved: the KafkaMirrorMaker2 flowform wants.
 *
 * <p>As decoded, {@code eos} may be null (derive it from the mirrors) and {@code namespace} may be null (use
 * the environment's); {@link #derived} completes both.
 *
 * @param address         resource address, e.g. {@code mirrormaker2.dc1-to-dc2}
 * @param name            KafkaMirrorMaker2 {@code metadata.name}
 * @param namespace       its namespace; null when declared without one and not yet derived
 * @param manage          {@link ManageMode#OWN} or {@link ManageMode#ADOPT}
 * @param eos             the workers' {@code exactly.once.source.support}; null as declared means derive it
 * @param replicas        {@code spec.replicas}, or null when not declared
 * @param version         {@code spec.version}, or null when not declared
 * @param targetAlias     the target (Connect) cluster's alias: {@code spec.connectCluster}
 * @param targetBootstrap the target cluster's bootstrap servers, or null when not declared (adopt)
 * @param config          declared worker configuration (the target cluster entry's {@code config}), without the
 *                        exactly-once key, sorted by key
 * @param mirrors         the mirrors, in source-alias order
 * @param sensitiveKeys   configuration keys whose values came from sensitive variables
 * @param range           the block in the configuration, may be null
 */
public record DesiredMirrorMaker2(String address, String name, String namespace, ManageMode manage, EosMode eos,
                                  Integer replicas, String version, String targetAlias, String targetBootstrap,
                                  Map<String, String> config, List<DesiredMirror> mirrors, Set<String> sensitiveKeys,
                                  SourceRange range) implements DesiredWorkers {

    /** Copies the collections; config sorted by key. */
    public DesiredMirrorMaker2 {
        config = Maps.sorted(config);
        mirrors = List.copyOf(mirrors);
        sensitiveKeys = Maps.sortedSet(sensitiveKeys);
    }

    /**
     * Completes the block for the desired state: the workers' mode is the declared one, else {@code enabled} when a
     * mirror wants exactly-once (KIP-618 needs enabled workers first), else {@code disabled}.
     *
     * @param defaultNamespace the environment's namespace, used when none is declared
     * @return the block with {@code eos} and {@code namespace} set
     */
    public DesiredMirrorMaker2 derived(String defaultNamespace) {
        boolean wanted = mirrors.stream().anyMatch(DesiredMirror::exactlyOnce);
        EosMode mode = eos != null ? eos : wanted ? EosMode.ENABLED : EosMode.DISABLED;
        return new DesiredMirrorMaker2(address, name, namespace != null ? namespace : defaultNamespace, manage, mode,
                replicas, version, targetAlias, targetBootstrap, config, mirrors, sensitiveKeys, range);
    }

    /** @return true when {@code key}'s value must be masked */
    public boolean isSensitive(String key) {
        return sensitiveKeys.contains(key) || SecretKeys.isSensitive(key);
    }
}
