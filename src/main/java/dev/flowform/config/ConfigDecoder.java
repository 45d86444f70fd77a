package dev.flowform.config;

import dev.flowform.diag.Diagnostics;
import dev.flowform.diag.SourceRange;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Turns parsed configuration files into a {@link Configuration} for one environment: the pure core
 * of {@link ConfigLoader} (it reads no files; the only outside question, whether a seed folder
 * exists, is asked through a predicate).
 *
 * <p>Order of work: collect blocks from every file; declare variables; decode environments (literal);
 * choose the environment; resolve variable values; evaluate {@code connect_cluster} and
 * {@code replication_flow} blocks; check references between them. Problems are collected all the way
 * through, so one run reports every independent error.
 */
final class ConfigDecoder {

    /** Block types understood now, with their number of labels. */
    static final Map<String, Integer> BLOCK_TYPES = orderedMap(
            "variable", 1, "environment", 1, "connect_cluster", 1, "replication_flow", 1);

    private static final Map<String, String> BLOCKS_NOT_YET = Map.of(
            "locals", "Local values (\"locals\" blocks) are not supported yet in this version of flowform.",
            "module", "Modules (\"module\" blocks) are not supported yet in this version of flowform.",
            "output", "Outputs (\"output\" blocks) are not supported yet in this version of flowform.");

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");
    private static final Pattern KUBERNETES_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final int KUBERNETES_NAME_MAX = 63;

    private static final Blocks.Schema VARIABLE = new Blocks.Schema("variable",
            List.of("type", "default", "description", "sensitive"), List.of(),
            Map.of("validation", "Variable validation is not supported yet in this version of flowform.",
                    "nullable", "\"nullable\" is not supported yet in this version of flowform.",
                    "ephemeral", "\"ephemeral\" is not supported yet in this version of flowform."));
    private static final Blocks.Schema ENVIRONMENT = new Blocks.Schema("environment",
            List.of("namespace", "variables", "expected_server"), List.of("kubernetes"),
            Map.of("lock_timeout", "\"lock_timeout\" is not supported yet in this version of flowform."));
    private static final Blocks.Schema KUBERNETES = new Blocks.Schema("kubernetes",
            List.of("context", "kubeconfig"), List.of("embedded"), Map.of());
    private static final Blocks.Schema EMBEDDED = new Blocks.Schema("embedded",
            List.of("seed", "reconcile_delay_ms", "pod_ready_delay_ms"), List.of(), Map.of());
    private static final Blocks.Schema CONNECT_CLUSTER = new Blocks.Schema("connect_cluster",
            List.of("namespace", "manage", "exactly_once_source_support", "replicas", "bootstrap_servers", "version", "config",
                    "spec"), List.of(), Map.of());
    private static final Blocks.Schema REPLICATION_FLOW = new Blocks.Schema("replication_flow",
            List.of("manage", "connect_cluster", "topics", "topics_exclude", "groups", "exactly_once", "isolation_level",
                    "transaction_boundary", "tasks_max", "checkpoints", "heartbeats", "config", "state"),
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
    private static final Map<String, String> SPEC_OWNED = orderedMap(
            "replicas", "replicas", "bootstrapServers", "bootstrap_servers", "version", "version", "config", "config");

    private final Sink sink;
    private final Predicate<Path> isDirectory;

    private ConfigDecoder(Diagnostics diagnostics, Predicate<Path> isDirectory) {
        this.sink = new Sink(diagnostics);
        this.isDirectory = isDirectory;
    }

    /**
     * Decodes parsed files.
     *
     * @param dir         the configuration folder (absolute)
     * @param files       the parsed files, in name order; files with syntax errors must not be passed
     * @param environment the requested environment, or null to take the only one declared
     * @param cliValues   {@code --var} values by variable name
     * @param isDirectory tells whether a path is an existing folder (checked for the seed of the chosen environment)
     * @return the configuration, or null, with every problem found
     */
    static LoadResult decode(Path dir, List<ParsedFile> files, String environment, Map<String, String> cliValues,
                             Predicate<Path> isDirectory) {
        Diagnostics diagnostics = new Diagnostics();
        Configuration configuration = new ConfigDecoder(diagnostics, isDirectory).run(dir, files, environment, cliValues);
        return new LoadResult(diagnostics.hasErrors() ? null : configuration, diagnostics);
    }

    /** An environment block after decoding, with what variable resolution and checks need. */
    private record EnvironmentDecl(EnvironmentBlock block, InputVariables.Source variables, SourceRange seedRange) {
    }

    private Configuration run(Path dir, List<ParsedFile> files, String environmentName, Map<String, String> cliValues) {
        Map<String, List<Blocks.Block>> blocks = collect(files);

        Map<String, InputVariables.Declaration> variables = new TreeMap<>();
        for (Blocks.Block b : unique(blocks.get("variable"), IDENTIFIER, "variable").values()) {
            InputVariables.Declaration d = variable(b);
            variables.put(d.name(), d);
        }

        Map<String, EnvironmentDecl> environments = new TreeMap<>();
        for (Blocks.Block b : unique(blocks.get("environment"), IDENTIFIER, "environment").values()) {
            environments.put(b.name(), environment(b, variables));
        }
        EnvironmentDecl selected = select(environments, environmentName);

        InputVariables inputs = InputVariables.resolve(variables, selected == null ? null : selected.variables(),
                selected == null ? null : selected.block().name(), cliValues, selected != null, sink);
        Evaluator evaluator = new Evaluator(inputs, sink);

        List<ConnectClusterBlock> clusters = new ArrayList<>();
        for (Blocks.Block b : unique(blocks.get("connect_cluster"), KUBERNETES_NAME, "connect_cluster").values()) {
            clusters.add(cluster(b, evaluator, selected == null ? null : selected.block()));
        }
        Set<String> clusterNames = new TreeSet<>();
        blocks.get("connect_cluster").forEach(b -> clusterNames.add(b.name()));

        List<ReplicationFlowBlock> flows = new ArrayList<>();
        for (Blocks.Block b : unique(blocks.get("replication_flow"), KUBERNETES_NAME, "replication_flow").values()) {
            flows.add(flow(b, evaluator, clusterNames));
        }

        if (selected != null) {
            checkSeed(selected);
        }
        if (sink.errorCount() > 0) {
            return null;
        }
        clusters.sort(Comparator.comparing(ConnectClusterBlock::address));
        flows.sort(Comparator.comparing(ReplicationFlowBlock::address));
        List<EnvironmentBlock> environmentBlocks = environments.values().stream().map(EnvironmentDecl::block).toList();
        return new Configuration(dir, environmentBlocks, selected.block(), clusters, flows, inputs.sensitiveValues());
    }

    // ---------------------------------------------------------------------------------------------
    // Root: block types

    private Map<String, List<Blocks.Block>> collect(List<ParsedFile> files) {
        Map<String, List<Blocks.Block>> out = new LinkedHashMap<>();
        BLOCK_TYPES.keySet().forEach(t -> out.put(t, new ArrayList<>()));
        for (ParsedFile file : files) {
            for (ConfigNode.Entry e : file.root().entries()) {
                String type = e.key();
                if (type.equals(Blocks.COMMENT)) {
                    continue;
                }
                Integer labels = BLOCK_TYPES.get(type);
                if (labels != null) {
                    out.get(type).addAll(Blocks.expand(e, labels, file, sink));
                } else if (BLOCKS_NOT_YET.containsKey(type)) {
                    sink.error("Unsupported block type", BLOCKS_NOT_YET.get(type), e.keyRange());
                } else {
                    sink.error("Unsupported block type", "Blocks of type \"" + type + "\" are not expected here; the block "
                            + "types are " + Arguments.quoted(List.copyOf(BLOCK_TYPES.keySet())) + "."
                            + Suggestions.didYouMean(type, BLOCK_TYPES.keySet()), e.keyRange());
                }
            }
        }
        return out;
    }

    /** @return the blocks by name, first declaration winning; reports invalid and repeated names */
    private Map<String, Blocks.Block> unique(List<Blocks.Block> blocks, Pattern namePattern, String type) {
        Map<String, Blocks.Block> out = new LinkedHashMap<>();
        for (Blocks.Block b : blocks) {
            checkName(b, namePattern, type);
            Blocks.Block first = out.putIfAbsent(b.name(), b);
            if (first != null) {
                sink.at(address(type, b.name())).error("Duplicate " + type + " block", Blocks.article(type) + " " + type + " named \"" + b.name()
                        + "\" was already declared at " + first.labelRange() + ". Names must be unique.",
                        b.labelRange().equals(first.labelRange()) ? b.body().range() : b.labelRange());
            }
        }
        return out;
    }

    private void checkName(Blocks.Block b, Pattern pattern, String type) {
        String name = b.name();
        if (pattern == IDENTIFIER && !IDENTIFIER.matcher(name).matches()) {
            sink.error("Invalid " + type + " name", "\"" + abbreviate(name) + "\" is not a valid " + type + " name: a name must "
                    + "start with a letter or underscore and contain only letters, digits, underscores and dashes.",
                    b.labelRange());
        } else if (pattern == KUBERNETES_NAME && (!KUBERNETES_NAME.matcher(name).matches() || name.length() > KUBERNETES_NAME_MAX)) {
            sink.error("Invalid " + type + " name", "\"" + abbreviate(name) + "\" cannot be used as a Kubernetes name: use at "
                    + "most " + KUBERNETES_NAME_MAX + " lower case letters, digits and '-', starting and ending with a letter "
                    + "or digit (" + KUBERNETES_NAME.pattern() + ").", b.labelRange());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // variable

    private InputVariables.Declaration variable(Blocks.Block b) {
        long errorsBefore = sink.errorCount();
        Blocks.Content content = Blocks.decode(b, VARIABLE, sink);
        Arguments args = new Arguments(content, n -> Evaluator.literal(n, "a variable block", sink), sink);
        VarType type = VarType.ANY;
        String typeText = args.strictString("type", "write the type as a string, e.g. \"number\" or \"list(string)\"");
        if (typeText != null) {
            VarType.Parsed parsed = VarType.parse(typeText);
            if (parsed.type() == null) {
                sink.error("Invalid type specification", parsed.error(), content.attributes().get("type").value().range());
            } else {
                type = parsed.type();
            }
        }
        args.strictString("description", "");
        Boolean sensitive = args.bool("sensitive");
        Value defaultValue = null;
        ConfigNode.Entry defaultEntry = content.attributes().get("default");
        if (defaultEntry != null) {
            Value literal = Evaluator.literal(defaultEntry.value(), "a variable block", sink);
            if (literal != null) {
                VarType.Converted c = type.convert(literal);
                if (c.error() != null) {
                    sink.error("Invalid default value for variable", "This default value does not fit the variable's type "
                            + type + ": " + c.error() + ".", defaultEntry.value().range());
                } else {
                    defaultValue = c.value();
                }
            }
        }
        boolean failed = sink.errorCount() > errorsBefore || !IDENTIFIER.matcher(b.name()).matches();
        return new InputVariables.Declaration(b.name(), b, type, defaultValue, Boolean.TRUE.equals(sensitive), failed);
    }

    // ---------------------------------------------------------------------------------------------
    // environment

    private EnvironmentDecl environment(Blocks.Block b, Map<String, InputVariables.Declaration> variables) {
        String where = "an environment block";
        Blocks.Content content = Blocks.decode(b, ENVIRONMENT, sink);
        Arguments args = new Arguments(content, n -> Evaluator.literal(n, where, sink), sink);
        String namespace = args.string("namespace");
        checkKubernetesName(namespace, "namespace", args, sink);
        String expectedServer = args.string("expected_server");
        Value.ObjectValue variablesValue = args.object("variables");
        InputVariables.Source source = InputVariables.fromEnvironment(variables, b.name(), variablesValue, sink);
        Map<String, Object> variableValues = new LinkedHashMap<>();
        if (variablesValue != null) {
            for (Value.Member m : variablesValue.members()) {
                Value converted = source.values().get(m.key());
                variableValues.put(m.key(), (converted != null ? converted : m.value()).toJava());
            }
        }

        KubernetesTarget target = new KubernetesTarget.Kubeconfig(null, null);
        SourceRange seedRange = null;
        Blocks.Block kubernetes = Blocks.single(content, "kubernetes", sink);
        if (kubernetes != null) {
            Blocks.Content k = Blocks.decode(kubernetes, KUBERNETES, sink);
            Arguments kArgs = new Arguments(k, n -> Evaluator.literal(n, where, sink), sink);
            String context = kArgs.string("context");
            String kubeconfig = kArgs.string("kubeconfig");
            Blocks.Block embedded = Blocks.single(k, "embedded", sink);
            if (embedded == null) {
                target = new KubernetesTarget.Kubeconfig(context, kubeconfig);
            } else {
                if (kArgs.has("context") || kArgs.has("kubeconfig")) {
                    sink.error("Conflicting arguments", "\"embedded\" cannot be combined with \"context\" or \"kubeconfig\": an "
                            + "environment runs either against a kubeconfig context or against the embedded cluster.",
                            embedded.typeRange());
                }
                Blocks.Content e = Blocks.decode(embedded, EMBEDDED, sink);
                Arguments eArgs = new Arguments(e, n -> Evaluator.literal(n, where, sink), sink);
                Path seed = null;
                String seedText = eArgs.string("seed");
                if (seedText != null) {
                    seedRange = e.attributes().get("seed").value().range();
                    seed = resolvePath(seedText, embedded.file().baseDir(), seedRange);
                }
                Long reconcile = eArgs.whole("reconcile_delay_ms", 0, Long.MAX_VALUE);
                Long podReady = eArgs.whole("pod_ready_delay_ms", 0, Long.MAX_VALUE);
                target = new KubernetesTarget.Embedded(seed, reconcile, podReady);
            }
        }
        EnvironmentBlock block = new EnvironmentBlock(b.name(), target, namespace, variableValues, expectedServer, b.range());
        return new EnvironmentDecl(block, source, seedRange);
    }

    private Path resolvePath(String text, Path baseDir, SourceRange range) {
        try {
            Path p = Path.of(text);
            if (!p.isAbsolute()) {
                p = baseDir != null ? baseDir.resolve(p) : p.toAbsolutePath();
            }
            return p.normalize();
        } catch (InvalidPathException e) {
            sink.error("Invalid path", "\"" + abbreviate(text) + "\" is not a valid path: " + e.getReason() + ".", range);
            return null;
        }
    }

    private void checkSeed(EnvironmentDecl environment) {
        if (environment.block().kubernetes() instanceof KubernetesTarget.Embedded embedded && embedded.seedDir() != null
                && !isDirectory.test(embedded.seedDir())) {
            sink.error("Seed folder not found", "The folder " + embedded.seedDir() + " does not exist. A seed path is relative "
                    + "to the file that declares it.", environment.seedRange());
        }
    }

    private EnvironmentDecl select(Map<String, EnvironmentDecl> environments, String name) {
        if (environments.isEmpty()) {
            sink.error("No environment declared", "Declare at least one environment, e.g. {\"environment\": {\"demo\": "
                    + "{\"kubernetes\": {\"embedded\": {}}}}}.", null);
            return null;
        }
        String declared = String.join(", ", environments.keySet());
        if (name == null) {
            if (environments.size() == 1) {
                return environments.values().iterator().next();
            }
            sink.error("No environment selected", "More than one environment is declared (" + declared + "): choose one with "
                    + "--env NAME.", null);
            return null;
        }
        EnvironmentDecl found = environments.get(name);
        if (found == null) {
            sink.error("Unknown environment", "No environment named \"" + name + "\" is declared; declared: " + declared + "."
                    + Suggestions.didYouMean(name, environments.keySet()), null);
        }
        return found;
    }

    // ---------------------------------------------------------------------------------------------
    // connect_cluster

    private ConnectClusterBlock cluster(Blocks.Block b, Evaluator evaluator, EnvironmentBlock environment) {
        String address = address("connect_cluster", b.name());
        Sink s = sink.at(address);
        Evaluator eval = evaluator.reportingTo(s);
        Blocks.Content content = Blocks.decode(b, CONNECT_CLUSTER, s);
        Arguments args = new Arguments(content, eval::eval, s);

        String namespace = args.string("namespace");
        checkKubernetesName(namespace, "namespace", args, s);
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
            if (namespace == null) {
                s.error("Missing namespace", "connect_cluster \"" + b.name() + "\" sets no namespace and environment \""
                        + environment.name() + "\" sets none either: set \"namespace\" in one of them.", b.labelRange());
            }
        }
        return new ConnectClusterBlock(address, b.name(), namespace, mode,
                eos == null ? null : EosMode.parse(eos).orElse(null),
                replicas == null ? null : replicas.intValue(), bootstrap, version, config, spec, sensitiveKeys, b.range());
    }

    private static void checkKubernetesName(String value, String argument, Arguments args, Sink s) {
        if (value != null && (!KUBERNETES_NAME.matcher(value).matches() || value.length() > KUBERNETES_NAME_MAX)) {
            s.error("Invalid value for argument", "\"" + abbreviate(value) + "\" is not a valid Kubernetes " + argument
                    + ": use at most " + KUBERNETES_NAME_MAX + " lower case letters, digits and '-', starting and ending with "
                    + "a letter or digit.", args.valueRange(argument));
        }
    }

    // ---------------------------------------------------------------------------------------------
    // replication_flow

    private ReplicationFlowBlock flow(Blocks.Block b, Evaluator evaluator, Set<String> clusterNames) {
        String address = address("replication_flow", b.name());
        Sink s = sink.at(address);
        Evaluator eval = evaluator.reportingTo(s);
        Blocks.Content content = Blocks.decode(b, REPLICATION_FLOW, s);
        Arguments args = new Arguments(content, eval::eval, s);

        String manage = args.oneOf("manage", MANAGE);
        ManageMode mode = manage == null ? ManageMode.OWN : ManageMode.parse(manage).orElse(ManageMode.OWN);
        String connectCluster = args.string("connect_cluster");
        SourceRange connectClusterRange = content.attribute("connect_cluster").map(e -> e.value().range()).orElse(null);
        if (args.unset("connect_cluster")) {
            s.error("Missing required argument", "The argument \"connect_cluster\" is required: it names the connect_cluster "
                    + "block the flow's connectors run on.", b.labelRange());
        } else if (connectCluster != null && !clusterNames.contains(connectCluster)) {
            s.error("Reference to undeclared connect cluster", "No connect_cluster named \"" + connectCluster + "\" is declared."
                    + Suggestions.didYouMean(connectCluster, clusterNames) + " Declare it with a connect_cluster block "
                    + "(manage = \"adopt\" for an existing KafkaConnect).", connectClusterRange);
        }

        Set<String> sensitiveKeys = new TreeSet<>();
        ClusterEndpoint source = endpoint(content, "source", mode, eval, s, b, sensitiveKeys);
        ClusterEndpoint target = endpoint(content, "target", mode, eval, s, b, sensitiveKeys);

        List<String> topics = args.stringList("topics");
        List<String> topicsExclude = args.stringList("topics_exclude");
        List<String> groups = args.stringList("groups");
        Boolean exactlyOnce = args.bool("exactly_once");
        String isolation = args.oneOf("isolation_level", ISOLATION);
        String boundary = args.oneOf("transaction_boundary", BOUNDARY);
        Long tasksMax = args.whole("tasks_max", 1, Integer.MAX_VALUE);
        Boolean checkpoints = args.bool("checkpoints");
        Boolean heartbeats = args.bool("heartbeats");
        Map<String, String> config = args.stringMap("config", sensitiveKeys);
        String state = args.oneOf("state", STATE);
        Map<String, String> argumentKeys = Map.of("topics", "topics", "topics_exclude", "topics.exclude", "groups", "groups");
        args.sensitiveArguments().forEach(a -> {
            if (argumentKeys.containsKey(a)) {
                sensitiveKeys.add(argumentKeys.get(a));
            }
        });

        Map<String, Map<String, String>> connectorConfig = new LinkedHashMap<>();
        Blocks.Block perRole = Blocks.single(content, "connector_config", s);
        if (perRole != null) {
            Blocks.Content roles = Blocks.decode(perRole, CONNECTOR_CONFIG, s);
            Arguments roleArgs = new Arguments(roles, eval::eval, s);
            for (String role : CONNECTOR_CONFIG.attributes()) {
                Map<String, String> entries = roleArgs.stringMap(role, sensitiveKeys);
                if (entries != null) {
                    connectorConfig.put(role, entries);
                }
            }
        }

        return new ReplicationFlowBlock(address, b.name(), mode, connectCluster, connectClusterRange, source, target,
                topics, topicsExclude, groups, exactlyOnce, isolation, boundary,
                tasksMax == null ? null : tasksMax.intValue(), checkpoints, heartbeats, config, connectorConfig, state,
                sensitiveKeys, b.range());
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

    // ---------------------------------------------------------------------------------------------

    private static String address(String type, String name) {
        return type + "." + name;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    @SuppressWarnings("unchecked")
    private static <V> Map<String, V> orderedMap(Object... keysAndValues) {
        Map<String, V> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            out.put((String) keysAndValues[i], (V) keysAndValues[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(out);
    }
}
