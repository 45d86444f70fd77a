package dev.flowform.config;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.DesiredState;
import dev.flowform.model.ManageMode;
import dev.flowform.plan.rules.ConnectorRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns resolved configuration blocks into the Kubernetes objects flowform wants: a KafkaConnect per
 * {@code connect_cluster}, two or three KafkaConnectors per {@code replication_flow} (source, checkpoint, heartbeat)
 * with MirrorMaker 2's settings, and a KafkaMirrorMaker2 per {@code mirrormaker2}; exactly-once keys go to the source
 * connector only, and the workers' mode is derived from the flows (docs/configuration.md,
 * docs/domain-rules.md 3 and 4). Under adopt only what the block declares is desired. Pure.
 */
public final class DesiredStateFactory {

    private static final String READ_UNCOMMITTED = "read_uncommitted";

    private DesiredStateFactory() {
    }

    /**
     * Builds the desired state of a configuration that loaded without errors.
     *
     * @param diags receives semantic errors (a flow on an undeclared cluster, EOS wanted on a cluster declared
     *              {@code disabled}, two flows producing one connector name)
     * @return the desired state; meaningful only when {@code diags} has no errors
     */
    public static DesiredState build(Configuration config, Diagnostics diags) {
        String defaultNs = config.environment().namespace();
        Map<String, DesiredConnectCluster> clustersByName = new LinkedHashMap<>();
        for (DesiredConnectCluster c : config.clusters()) {
            clustersByName.put(c.name(), c);
        }
        List<DesiredFlow> flows = new ArrayList<>();
        Map<String, Boolean> eosWanted = new HashMap<>();
        Map<String, String> connectorOwners = new HashMap<>();
        for (ReplicationFlowBlock f : config.flows()) {
            DesiredConnectCluster cluster = clustersByName.get(f.connectCluster());
            if (cluster == null) {
                diags.add(Diagnostic.error("Reference to undeclared connect cluster",
                        "replication_flow \"" + f.name() + "\" runs on connect_cluster \"" + f.connectCluster()
                                + "\", which is not declared. Declared: " + clustersByName.keySet() + ".",
                        f.connectClusterRange() != null ? f.connectClusterRange() : f.range()).withAddress(f.address()));
                continue;
            }
            String ns = cluster.namespace() != null ? cluster.namespace() : defaultNs;
            DesiredFlow flow = flow(f, cluster.name(), ns);
            for (DesiredConnector c : flow.connectors()) {
                String key = ns + "/" + c.name();
                String other = connectorOwners.putIfAbsent(key, f.address());
                if (other != null) {
                    diags.add(Diagnostic.error("Duplicate KafkaConnector name",
                            f.address() + " and " + other + " both produce KafkaConnector " + key
                                    + ". Rename one of the flows.", f.range()).withAddress(f.address()));
                }
            }
            flows.add(flow);
            if (flow.exactlyOnce()) {
                eosWanted.put(cluster.name(), true);
            }
        }
        List<DesiredConnectCluster> clusters = new ArrayList<>();
        for (DesiredConnectCluster c : config.clusters()) {
            boolean wanted = eosWanted.getOrDefault(c.name(), false);
            DesiredConnectCluster desired = c.derived(defaultNs, wanted);
            ConnectorRules.workersForFlows(c.name(), wanted, desired.eos())
                    .ifPresent(f -> diags.add(f.uncited(c.range(), c.address())));
            clusters.add(desired);
        }
        List<DesiredMirrorMaker2> mirrorMakers = config.mirrorMakers().stream().map(m -> m.derived(defaultNs)).toList();
        return new DesiredState(config.environment().name(), clusters, flows, mirrorMakers);
    }

    private static DesiredFlow flow(ReplicationFlowBlock f, String cluster, String ns) {
        boolean eos = f.exactlyOnce() == null || f.exactlyOnce();
        List<DesiredConnector> connectors = new ArrayList<>();
        connectors.add(connector(f, ConnectorRole.SOURCE, cluster, ns, eos));
        if (f.checkpoints() == null || f.checkpoints()) {
            connectors.add(connector(f, ConnectorRole.CHECKPOINT, cluster, ns, eos));
        }
        if (f.heartbeats() != null && f.heartbeats()) {
            connectors.add(connector(f, ConnectorRole.HEARTBEAT, cluster, ns, eos));
        }
        return new DesiredFlow(f.address(), f.name(), cluster, ns, f.manage(), eos, connectors, f.range());
    }

    private static DesiredConnector connector(ReplicationFlowBlock f, ConnectorRole role, String cluster, String ns,
                                              boolean eos) {
        Map<String, String> cfg = new LinkedHashMap<>();
        Set<String> sensitive = new HashSet<>();
        Set<String> absent = new HashSet<>();
        if (f.source() != null) {
            endpoint(cfg, sensitive, "source", f.source(), role != ConnectorRole.HEARTBEAT);
        }
        if (f.target() != null) {
            endpoint(cfg, sensitive, "target", f.target(), true);
        }
        if (role == ConnectorRole.SOURCE) {
            putList(cfg, "topics", f.topics());
            putList(cfg, "topics.exclude", f.topicsExclude());
        }
        if (role == ConnectorRole.CHECKPOINT) {
            putList(cfg, "groups", f.groups());
        }
        cfg.putAll(f.config());
        Map<String, String> own = f.connectorConfig().get(role.suffix());
        if (own != null) {
            cfg.putAll(own);
        }
        for (String k : cfg.keySet()) {
            if (f.sensitiveKeys().contains(k)) {
                sensitive.add(k);
            }
        }
        boolean uncommitted = eos && READ_UNCOMMITTED.equals(f.isolationLevel()) && f.acknowledgeReadUncommitted();
        if (role == ConnectorRole.SOURCE) {
            sourceEos(f, eos, uncommitted, cfg, absent);
        } else if (!ConnectorRules.isRequired(cfg.get(ConnectorRules.EXACTLY_ONCE_SUPPORT))) {
            // KIP-618 preflight is only implemented by MirrorSourceConnector: never required elsewhere.
            if (!cfg.containsKey(ConnectorRules.EXACTLY_ONCE_SUPPORT)) {
                absent.add(ConnectorRules.EXACTLY_ONCE_SUPPORT);
            }
        }
        Integer tasksMax = role == ConnectorRole.SOURCE ? f.tasksMax() : null;
        if (f.manage() == ManageMode.OWN && tasksMax == null) {
            tasksMax = 1;
        }
        return new DesiredConnector(f.modulePrefix() + "kafka_connector." + f.name() + "-" + role.suffix(), f.address(),
                f.name() + "-" + role.suffix(), ns, cluster, role, f.manage(), role.connectorClass(), tasksMax,
                f.state(), cfg, f.manage() == ManageMode.ADOPT ? absent : Set.of(), sensitive,
                eos && !(uncommitted && role == ConnectorRole.SOURCE));
    }

    /** The exactly-once keys of a flow's source connector: set when the flow wants EOS, else listed as absent. */
    private static void sourceEos(ReplicationFlowBlock f, boolean eos, boolean uncommitted, Map<String, String> cfg,
                                  Set<String> absent) {
        if (eos) {
            // Kafka rejects "required" without read_committed; "requested" is what an acknowledged flow can run with
            cfg.put(ConnectorRules.EXACTLY_ONCE_SUPPORT, uncommitted ? "requested" : "required");
            cfg.put(ConnectorRules.SOURCE_ISOLATION_LEVEL, f.isolationLevel() != null ? f.isolationLevel()
                    : ConnectorRules.READ_COMMITTED);
        } else {
            absent.add(ConnectorRules.EXACTLY_ONCE_SUPPORT);
            if (f.isolationLevel() != null) {
                cfg.put(ConnectorRules.SOURCE_ISOLATION_LEVEL, f.isolationLevel());
            }
        }
        if (f.transactionBoundary() != null) {
            cfg.put(ConnectorRules.TRANSACTION_BOUNDARY, f.transactionBoundary());
        } else if (!cfg.containsKey(ConnectorRules.TRANSACTION_BOUNDARY)) {
            absent.add(ConnectorRules.TRANSACTION_BOUNDARY);
        }
    }

    private static void endpoint(Map<String, String> cfg, Set<String> sensitive, String side, ClusterEndpoint e,
                                 boolean withConnection) {
        if (e.alias() != null) {
            cfg.put(side + ".cluster.alias", e.alias());
        }
        if (!withConnection) {
            return;
        }
        if (e.bootstrapServers() != null) {
            cfg.put(side + ".cluster.bootstrap.servers", e.bootstrapServers());
        }
        for (Map.Entry<String, String> en : e.config().entrySet()) {
            String key = side + ".cluster." + en.getKey();
            cfg.put(key, en.getValue());
            if (e.sensitiveKeys().contains(en.getKey())) {
                sensitive.add(key);
            }
        }
    }

    private static void putList(Map<String, String> cfg, String key, List<String> values) {
        if (values != null && !values.isEmpty()) {
            cfg.put(key, String.join(",", values));
        }
    }
}
