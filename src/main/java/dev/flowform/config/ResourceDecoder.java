package dev.flowform.config;

import dev.flowform.config.lang.Arguments;
import dev.flowform.config.lang.Evaluator;
import dev.flowform.config.lang.Value;
import dev.flowform.config.module.ModuleInstance;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.Names;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.Suggestions;
import dev.flowform.diag.SourceRange;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.plan.rules.Finding;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decodes {@code connect_cluster} and {@code replication_flow} blocks of one module instance and runs the checks that
 * need no cluster: a flow's cluster is declared, the rules of {@link ConnectorRules} placed at the argument or key, and
 * exactly-once keys written in {@code config} instead of their arguments (docs/configuration.md,
 * docs/domain-rules.md).
 */
final class ResourceDecoder {

    private static final Blocks.Schema CONNECT_CLUSTER = new Blocks.Schema("connect_cluster",
            List.of("namespace", "manage", "exactly_once_source_support", "replicas", "bootstrap_servers", "version", "config",
                    "spec"), List.of(), Map.of());
    private static final Blocks.Schema REPLICATION_FLOW = new Blocks.Schema("replication_flow",
            List.of("name", "manage", "connect_cluster", "topics", "topics_exclude", "groups", "exactly_once", "isolation_level",
                    "acknowledge_read_uncommitted", "transaction_boundary", "tasks_max", "checkpoints", "heartbeats", "config",
                    "state"),
            List.of("source", "target", "connector_config"), Map.of());
    private static final Blocks.Schema ENDPOINT = new Blocks.Schema("source or target",
            List.of("alias", "bootstrap_servers", "config"), List.of(), Map.of());
    private static final Blocks.Schema CONNECTOR_CONFIG = new Blocks.Schema("connector_config",
            List.of("source", "checkpoint", "heartbeat"), List.of(), Map.of());

    private static final List<String> MANAGE = List.of("own", "adopt");
    private static final List<String> EOS = List.of("disabled", "preparing", "enabled");
    private static final List<String> ISOLATION = List.of("read_committed", "read_uncommitted");
    private static final List<String> BOUNDARY = List.of("poll", "interval", "connector");
    private static final List<String> STATE = List.of("running", "paused", "stopped");
    /** KafkaConnect spec fields that have their own argument. */
    private static final Map<String, String> SPEC_OWNED = Map.of(
            "replicas", "replicas", "bootstrapServers", "bootstrap_servers", "version", "version", "config", "config");
    /** Source connector keys flowform sets from arguments, with the argument. */
    private static final Map<String, String> EOS_KEYS = Map.of(
            ConnectorRules.EXACTLY_ONCE_SUPPORT, "exactly_once",
            ConnectorRules.SOURCE_ISOLATION_LEVEL, "isolation_level",
            ConnectorRules.TRANSACTION_BOUNDARY, "transaction_boundary");

    /** A decoded flow and where its Kubernetes name is written ({@code name}, else the label), for cross-module checks. */
    record Flow(ReplicationFlowBlock block, SourceRange nameRange) {
    }

    private final ModuleInstance instance;
    private final EnvironmentBlock environment;

    /** A decoder of {@code instance}'s blocks; {@code environment} (or null) gives the default namespace. */
    ResourceDecoder(ModuleInstance instance, EnvironmentBlock environment) {
        this.instance = instance;
        this.environment = environment;
    }

    // ---------------------------------------------------------------------------------------------
    // connect_cluster

    /** Decodes one {@code connect_cluster} block. */
    DesiredConnectCluster cluster(Blocks.Block b, Sink sink) {
        String address = instance.prefix + "connect_cluster." + b.name();
        Sink s = sink.at(address);
        Blocks.Content content = Blocks.decode(b, CONNECT_CLUSTER, s);
        Arguments args = new Arguments(content, instance.evaluator(address)::eval, s);

        String namespace = args.string("namespace");
        checkKubernetesName(namespace, "namespace", args.valueRange("namespace"), s);
        String manage = args.oneOf("manage", MANAGE);
        String eos = args.oneOf("exactly_once_source_support", EOS);
        Long replicas = args.whole("replicas", 0, Integer.MAX_VALUE);
        String bootstrap = args.string("bootstrap_servers");
        String version = args.strictString("version", "write the Kafka version as a string, e.g. \"3.9.0\": a JSON number "
                + "loses trailing zeros, 3.10 becomes 3.1");

        Set<String> sensitiveKeys = new TreeSet<>();
        Map<String, String> config = null;
        Value.ObjectValue configValue = args.object("config");
        if (configValue != null) {
            for (Value.Member m : configValue.members()) {
                if (m.key().equals(EosMode.CONFIG_KEY)) {
                    s.error("Conflicting configuration key", "Set \"" + EosMode.CONFIG_KEY + "\" with the argument "
                            + "exactly_once_source_support: flowform sequences its changes (preparing, roll, enabled, roll).",
                            m.keyRange());
                }
            }
            config = args.entries("config", configValue, sensitiveKeys);
        }
        Map<String, Object> spec = null;
        Value.ObjectValue specValue = args.object("spec");
        if (specValue != null) {
            for (Value.Member m : specValue.members()) {
                String argument = SPEC_OWNED.get(m.key());
                if (argument != null) {
                    s.error("Conflicting spec field", "Set \"" + m.key() + "\" with the argument " + argument
                            + " rather than inside spec.", m.keyRange());
                }
            }
            spec = args.raw("spec");
        }

        ManageMode mode = manage == null ? ManageMode.OWN : ManageMode.parse(manage).orElse(ManageMode.OWN);
        if (mode == ManageMode.OWN && args.unset("bootstrap_servers")) {
            s.error("Missing required argument", "The argument \"bootstrap_servers\" is required in a connect_cluster with "
                    + "manage = \"own\" (the default): flowform creates the KafkaConnect and must know its Kafka cluster. "
                    + "Use manage = \"adopt\" for an existing KafkaConnect.", b.labelRange());
        }
        if (args.unset("namespace") && environment != null) {
            namespace = environment.namespace();
        }
        return new DesiredConnectCluster(address, b.name(), namespace, mode,
                eos == null ? null : EosMode.parse(eos).orElse(null),
                replicas == null ? null : replicas.intValue(), bootstrap, version, config, spec, sensitiveKeys, b.range());
    }

    /** Reports a value that is not a valid Kubernetes name. */
    static void checkKubernetesName(String value, String argument, SourceRange at, Sink s) {
        if (value != null && !Names.isKubernetesName(value)) {
            s.error("Invalid value for argument", "\"" + Names.abbreviate(value) + "\" is not a valid Kubernetes " + argument
                    + ": use at most " + Names.KUBERNETES_NAME_MAX + " lower case letters, digits and '-', starting and ending "
                    + "with a letter or digit.", at);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // replication_flow

    /**
     * Decodes one {@code replication_flow} block.
     *
     * @param clusterNames the names of every declared connect_cluster, in all modules
     */
    Flow flow(Blocks.Block b, Set<String> clusterNames, Sink sink) {
        String address = instance.prefix + "replication_flow." + b.name();
        Sink s = sink.at(address);
        Evaluator eval = instance.evaluator(address);
        Blocks.Content content = Blocks.decode(b, REPLICATION_FLOW, s);
        Arguments args = new Arguments(content, eval::eval, s);

        FlowName named = name(b, args, s);
        String manage = args.oneOf("manage", MANAGE);
        ManageMode mode = manage == null ? ManageMode.OWN : ManageMode.parse(manage).orElse(ManageMode.OWN);
        String connectCluster = connectCluster(b, args, clusterNames, s);

        Set<String> sensitiveKeys = new TreeSet<>();
        ClusterEndpoint source = endpoint(content, "source", mode, eval, s, b, sensitiveKeys);
        ClusterEndpoint target = endpoint(content, "target", mode, eval, s, b, sensitiveKeys);

        List<String> topics = args.stringList("topics");
        List<String> topicsExclude = args.stringList("topics_exclude");
        List<String> groups = args.stringList("groups");
        Boolean exactlyOnce = args.bool("exactly_once");
        String isolation = args.oneOf("isolation_level", ISOLATION);
        Boolean acknowledged = args.bool("acknowledge_read_uncommitted");
        String boundary = args.oneOf("transaction_boundary", BOUNDARY);
        Optional<Finding> connectorBoundary = ConnectorRules.boundaryArgument(boundary);
        if (connectorBoundary.isPresent()) {
            report(s, connectorBoundary.get(), args.valueRange("transaction_boundary"));
            boundary = null;
        }
        Long tasksMax = args.whole("tasks_max", 1, Integer.MAX_VALUE);
        Boolean checkpoints = args.bool("checkpoints");
        Boolean heartbeats = args.bool("heartbeats");
        String state = args.oneOf("state", STATE);
        boolean eos = exactlyOnce == null || exactlyOnce;

        Map<String, String> config = config(args, roles(checkpoints, heartbeats), s, sensitiveKeys);
        Map<String, Map<String, String>> connectorConfig = connectorConfig(content, eval, s, sensitiveKeys);

        boolean ack = Boolean.TRUE.equals(acknowledged);
        ConnectorRules.readUncommitted(eos, isolation, ack).ifPresent(f -> report(s, f, args.valueRange("isolation_level")));
        ConnectorRules.unneededAcknowledgement(eos, isolation, ack)
                .ifPresent(f -> report(s, f, args.valueRange("acknowledge_read_uncommitted")));

        ReplicationFlowBlock flow = new ReplicationFlowBlock(address, named.name(),
                mode, connectCluster, args.valueRange("connect_cluster"), source, target, topics, topicsExclude, groups,
                exactlyOnce, isolation, boundary, tasksMax == null ? null : tasksMax.intValue(), checkpoints, heartbeats,
                config, connectorConfig, state, sensitiveKeys, b.range(), ack);
        return new Flow(flow, named.range());
    }

    /** The Kubernetes name of a flow's connectors: {@code name} when it is a valid name, else the label; where written. */
    private record FlowName(String name, SourceRange range) {
    }

    /** Reads the {@code name} argument; an invalid one is reported and the label is used. */
    private static FlowName name(Blocks.Block b, Arguments args, Sink s) {
        String name = b.name();
        SourceRange nameRange = b.labelRange();
        if (args.has("name")) {
            String given = args.string("name");
            if (given != null) {
                nameRange = args.valueRange("name");
                if (!Names.isKubernetesName(given)) {
                    s.error("Invalid value for argument", "\"" + Names.abbreviate(given) + "\" cannot name the flow's "
                            + "KafkaConnectors (" + Names.abbreviate(given) + "-source, ...): use at most "
                            + (Names.KUBERNETES_NAME_MAX - "-checkpoint".length()) + " lower case letters, digits and '-', "
                            + "starting and ending with a letter or digit.", nameRange);
                } else {
                    name = given;
                }
            }
        }
        return new FlowName(name, nameRange);
    }

    /** Reads the {@code connect_cluster} argument, which must name a declared cluster. */
    private static String connectCluster(Blocks.Block b, Arguments args, Set<String> clusterNames, Sink s) {
        String connectCluster = args.string("connect_cluster");
        if (args.unset("connect_cluster")) {
            s.error("Missing required argument", "The argument \"connect_cluster\" is required: it names the connect_cluster "
                    + "block the flow's connectors run on.", b.labelRange());
        } else if (connectCluster != null && !clusterNames.contains(connectCluster)) {
            s.error("Reference to undeclared connect cluster", "No connect_cluster named \"" + connectCluster + "\" is declared."
                    + Suggestions.didYouMean(connectCluster, clusterNames) + " Declare it with a connect_cluster block "
                    + "(manage = \"adopt\" for an existing KafkaConnect).", args.valueRange("connect_cluster"));
        }
        return connectCluster;
    }

    /** @return the connector roles a flow runs: source, checkpoint unless turned off, heartbeat when turned on */
    private static Set<String> roles(Boolean checkpoints, Boolean heartbeats) {
        Set<String> roles = new TreeSet<>(List.of("source"));
        if (checkpoints == null || checkpoints) {
            roles.add("checkpoint");
        }
        if (Boolean.TRUE.equals(heartbeats)) {
            roles.add("heartbeat");
        }
        return roles;
    }

    /**
     * Reads the flow-wide {@code config} object, checking its keys, and records which connector keys hold
     * sensitive values (from the object and from sensitive {@code topics}, {@code topics_exclude}, {@code groups}).
     *
     * @return the entries, or null when the flow has no {@code config}
     */
    private static Map<String, String> config(Arguments args, Set<String> roles, Sink s, Set<String> sensitiveKeys) {
        Map<String, String> config = null;
        Value.ObjectValue configValue = args.object("config");
        if (configValue != null) {
            checkConnectorKeys(configValue, "config", roles, s);
            config = args.entries("config", configValue, sensitiveKeys);
        }
        Map<String, String> argumentKeys = Map.of("topics", "topics", "topics_exclude", "topics.exclude", "groups", "groups");
        args.sensitiveArguments().forEach(a -> {
            if (argumentKeys.containsKey(a)) {
                sensitiveKeys.add(argumentKeys.get(a));
            }
        });
        return config;
    }

    /** Reads the {@code connector_config} block: one config object per role, its keys checked. */
    private static Map<String, Map<String, String>> connectorConfig(Blocks.Content content, Evaluator eval, Sink s,
                                                                    Set<String> sensitiveKeys) {
        Map<String, Map<String, String>> connectorConfig = new LinkedHashMap<>();
        Blocks.Block perRole = Blocks.single(content, "connector_config", s);
        if (perRole == null) {
            return connectorConfig;
        }
        Blocks.Content rolesContent = Blocks.decode(perRole, CONNECTOR_CONFIG, s);
        Arguments roleArgs = new Arguments(rolesContent, eval::eval, s);
        for (String role : CONNECTOR_CONFIG.attributes()) {
            Value.ObjectValue roleValue = roleArgs.object(role);
            if (roleValue == null) {
                continue;
            }
            checkConnectorKeys(roleValue, "connector_config." + role, Set.of(role), s);
            Map<String, String> entries = roleArgs.entries(role, roleValue, sensitiveKeys);
            if (entries != null) {
                connectorConfig.put(role, entries);
            }
        }
        return connectorConfig;
    }

    /** Reports a rule's finding at {@code range}, in its words (configuration diagnostics carry no citation). */
    private static void report(Sink s, Finding f, SourceRange range) {
        if (f.isError()) {
            s.error(f.summary(), f.detail(), range);
        } else {
            s.warning(f.summary(), f.detail(), range);
        }
    }

    /** Checks the keys of a {@code config} or {@code connector_config.<role>} object ({@code where} in messages). */
    private static void checkConnectorKeys(Value.ObjectValue object, String where, Set<String> roles, Sink s) {
        boolean reachesSource = roles.contains("source");
        for (Value.Member m : object.members()) {
            String key = m.key();
            String value = m.value() instanceof Value.StringValue str && !str.sensitive()
                    ? str.value().strip().toLowerCase(Locale.ROOT) : null;
            Optional<Finding> rule = ConnectorRules.configEntry(key, value, roles, where);
            if (rule.isPresent()) {
                report(s, rule.get(), rule.get().subject() == Finding.Subject.VALUE ? m.value().range() : m.keyRange());
            } else if (EOS_KEYS.containsKey(key) && reachesSource) {
                s.error("Conflicting configuration key", where + " sets \"" + key + "\" on the source connector, which flowform "
                        + "sets from the argument " + EOS_KEYS.get(key) + " (it sequences exactly-once changes after the "
                        + "workers' rolls). Use the argument instead.", m.keyRange());
            } else if (key.equals(EosMode.CONFIG_KEY)) {
                s.error("Worker setting in a connector config", EosMode.CONFIG_KEY + " is a Connect worker setting, not a "
                        + "connector setting: declare it on the connect_cluster with exactly_once_source_support (flowform "
                        + "derives it from the flows' exactly_once).", m.keyRange());
            }
        }
    }

    private ClusterEndpoint endpoint(Blocks.Content flow, String role, ManageMode mode, Evaluator eval, Sink s,
                                     Blocks.Block flowBlock, Set<String> flowSensitiveKeys) {
        Blocks.Block block = Blocks.single(flow, role, s);
        if (block == null) {
            if (mode == ManageMode.OWN) {
                s.error("Missing required argument", "The argument \"" + role + "\" ({\"alias\": ..., \"bootstrap_servers\": "
                        + "...}) is required in a replication_flow with manage = \"own\" (the default). Use manage = \"adopt\" "
                        + "for existing connectors.", flowBlock.labelRange());
            }
            return null;
        }
        Blocks.Content content = Blocks.decode(block, ENDPOINT, s);
        Arguments args = new Arguments(content, eval::eval, s);
        String alias = args.string("alias");
        String bootstrap = args.string("bootstrap_servers");
        Set<String> sensitiveKeys = new TreeSet<>();
        Map<String, String> config = args.stringMap("config", sensitiveKeys);
        if (mode == ManageMode.OWN) {
            for (String required : List.of("alias", "bootstrap_servers")) {
                if (args.unset(required)) {
                    s.error("Missing required argument", "The argument \"" + required + "\" is required in " + role
                            + " when the flow has manage = \"own\" (the default).", block.typeRange());
                }
            }
        }
        String prefix = role + ".cluster.";
        sensitiveKeys.forEach(k -> flowSensitiveKeys.add(prefix + k));
        if (args.sensitiveArguments().contains("alias")) {
            flowSensitiveKeys.add(prefix + "alias");
        }
        if (args.sensitiveArguments().contains("bootstrap_servers")) {
            flowSensitiveKeys.add(prefix + "bootstrap.servers");
        }
        return new ClusterEndpoint(alias, bootstrap, config, sensitiveKeys);
    }
}
