package dev.flowform.config;

import dev.flowform.diag.SourceRange;
import dev.flowform.model.ManageMode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@code replication_flow} block with every expression resolved.
 *
 * @param address             e.g. {@code replication_flow.east-to-west}, or {@code module.m.replication_flow.this} in a module
 * @param name                the Kubernetes name: the {@code name} argument, else the label; connectors are
 *                            {@code <name>-source}, {@code -checkpoint}, {@code -heartbeat}
 * @param manage              {@code own} (default) or {@code adopt}
 * @param connectCluster      the {@code connect_cluster} label it runs on
 * @param connectClusterRange where {@code connect_cluster} is written, for diagnostics
 * @param source              {@code source} endpoint, or null when not declared (adopt)
 * @param target              {@code target} endpoint, or null when not declared (adopt)
 * @param topics              {@code topics} (regexes), or null
 * @param topicsExclude       {@code topics_exclude} (regexes), or null
 * @param groups              {@code groups} (regexes), or null
 * @param exactlyOnce         {@code exactly_once}, or null when not declared (default true)
 * @param isolationLevel      {@code isolation_level}, or null
 * @param transactionBoundary {@code transaction_boundary}, or null
 * @param tasksMax            {@code tasks_max} of the source connector, or null
 * @param checkpoints         {@code checkpoints}, or null (default true)
 * @param heartbeats          {@code heartbeats}, or null (default false)
 * @param config              {@code config}: extra keys for every connector of the flow
 * @param connectorConfig     {@code connector_config}: extra keys per role ({@code source}, {@code checkpoint}, {@code heartbeat})
 * @param state               {@code state}: {@code running}, {@code paused} or {@code stopped}, or null
 * @param sensitiveKeys       connector config keys whose values came from sensitive variables: keys of {@code config}
 *                            and of {@code connector_config}, {@code source.cluster.<key>} / {@code target.cluster.<key>}
 *                            for the endpoints' {@code config} keys, {@code alias} and {@code bootstrap.servers}, and
 *                            {@code topics}, {@code topics.exclude}, {@code groups}
 * @param acknowledgeReadUncommitted {@code acknowledge_read_uncommitted}: with exactly_once and
 *                            {@code read_uncommitted}, run the source connector with {@code exactly.once.support=requested}
 */
public record ReplicationFlowBlock(
        String address,
        String name,
        ManageMode manage,
        String connectCluster,
        SourceRange connectClusterRange,
        ClusterEndpoint source,
        ClusterEndpoint target,
        List<String> topics,
        List<String> topicsExclude,
        List<String> groups,
        Boolean exactlyOnce,
        String isolationLevel,
        String transactionBoundary,
        Integer tasksMax,
        Boolean checkpoints,
        Boolean heartbeats,
        Map<String, String> config,
        Map<String, Map<String, String>> connectorConfig,
        String state,
        Set<String> sensitiveKeys,
        SourceRange range,
        boolean acknowledgeReadUncommitted) {

    /** A flow without {@code acknowledge_read_uncommitted} (the common case, and the walking skeleton's shape). */
    public ReplicationFlowBlock(String address, String name, ManageMode manage, String connectCluster,
                                SourceRange connectClusterRange, ClusterEndpoint source, ClusterEndpoint target,
                                List<String> topics, List<String> topicsExclude, List<String> groups, Boolean exactlyOnce,
                                String isolationLevel, String transactionBoundary, Integer tasksMax, Boolean checkpoints,
                                Boolean heartbeats, Map<String, String> config, Map<String, Map<String, String>> connectorConfig,
                                String state, Set<String> sensitiveKeys, SourceRange range) {
        this(address, name, manage, connectCluster, connectClusterRange, source, target, topics, topicsExclude, groups,
                exactlyOnce, isolationLevel, transactionBoundary, tasksMax, checkpoints, heartbeats, config, connectorConfig,
                state, sensitiveKeys, range, false);
    }

    /** Copies the collections. */
    public ReplicationFlowBlock {
        topics = topics == null ? null : List.copyOf(topics);
        topicsExclude = topicsExclude == null ? null : List.copyOf(topicsExclude);
        groups = groups == null ? null : List.copyOf(groups);
        config = dev.flowform.model.Maps.copy(config);
        connectorConfig = dev.flowform.model.Maps.copy(connectorConfig);
        sensitiveKeys = dev.flowform.model.Maps.sortedSet(sensitiveKeys);
    }

    /**
     * @return the module part of the address, e.g. {@code module.m.} for {@code module.m.replication_flow.f}, or
     *     {@code ""} for a flow of the root module; connector addresses start with it
     */
    public String modulePrefix() {
        int at = address.lastIndexOf("replication_flow.");
        return at <= 0 ? "" : address.substring(0, at);
    }
}
