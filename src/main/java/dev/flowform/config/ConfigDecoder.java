package dev.flowform.config;

import dev.flowform.diag.Diagnostics;
import dev.flowform.diag.SourceRange;
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

/**
 * Turns parsed configuration files into a {@link Configuration} for one environment: the pure core
 * of {@link ConfigLoader} (it reads no files itself: module folders come through a
 * {@link ModuleReader}, and whether a seed folder exists is asked through a predicate).
 *
 * <p>Order of work: collect the root module's blocks; declare its variables, locals and outputs;
 * decode environments (literal) and choose one; instantiate {@code module} blocks, recursively
 * (sources relative to the calling file, cycles refused); resolve the root variables from their
 * sources; compute every variable, local and output of every module instance (on demand, so they
 * may refer to each other in any order; cycles are reported) and check variable validations;
 * decode the {@code connect_cluster} and {@code replication_flow} blocks of every instance; check
 * the references and names between them. Problems are collected all the way through, so one run
 * reports every independent error.
 */
final class ConfigDecoder {

    /** Block types with their number of labels. */
    static final Map<String, Integer> BLOCK_TYPES = orderedMap(
            "variable", 1, "locals", 0, "environment", 1, "connect_cluster", 1, "replication_flow", 1, "module", 1,
            "output", 1, "backend", 1);

    /** Deepest nesting of module calls accepted (the root is depth 0). */
    static final int MAX_MODULE_DEPTH = 16;

    /** Most module instances one configuration may create. */
    static final int MAX_MODULE_INSTANCES = 500;

    private static final Map<String, String> MODULE_META_ARGUMENTS = Map.of(
            "count", "\"count\" is not supported in this version of flowform: write one module block per instance.",
            "for_each", "\"for_each\" is not supported in this version of flowform: write one module block per instance.",
            "version", "\"version\" applies to registry modules, which flowform does not use: a module source is a local folder.",
            "providers", "flowform has no providers: a module uses the environment's cluster.",
            "depends_on", "\"depends_on\" is not supported in this version of flowform: order comes from the values a module "
                    + "uses.");

    private static final Blocks.Schema ENVIRONMENT = new Blocks.Schema("environment",
            List.of("namespace", "variables", "expected_server"), List.of("kubernetes"),
            Map.of("lock_timeout", "\"lock_timeout\" is not supported yet in this version of flowform."));
    private static final Blocks.Schema KUBERNETES = new Blocks.Schema("kubernetes",
            List.of("context", "kubeconfig"), List.of("embedded"), Map.of());
    private static final Blocks.Schema EMBEDDED = new Blocks.Schema("embedded",
            List.of("seed", "reconcile_delay_ms", "pod_ready_delay_ms", "kafka"), List.of(), Map.of());
    private static final Blocks.Schema EMBEDDED_KAFKA = new Blocks.Schema("kafka",
            List.of("bootstrap_servers", "topics"), List.of(), Map.of());

    /**
     * What the command line and the process add to the configuration files.
     *
     * @param varFiles           the {@code --var-file} files, parsed, in the order given (files with syntax errors must
     *                           not be passed)
     * @param processEnvironment the process environment, for {@code FLOWFORM_VAR_<name>}
     * @param cliValues          {@code --var} values by variable name
     */
    record Inputs(List<ParsedFile> varFiles, Map<String, String> processEnvironment, Map<String, String> cliValues) {
        /** Copies the collections. */
        Inputs {
            varFiles = List.copyOf(varFiles);
            processEnvironment = processEnvironment == null ? Map.of() : processEnvironment;
            cliValues = cliValues == null ? Map.of() : cliValues;
        }
    }

    private final Sink sink;
    private final Predicate<Path> isDirectory;
    private final ModuleReader reader;
    private final List<ModuleInstance> instances = new ArrayList<>();

    private ConfigDecoder(Diagnostics diagnostics, Predicate<Path> isDirectory, ModuleReader reader) {
        this.sink = new Sink(diagnostics);
        this.isDirectory = isDirectory;
        this.reader = reader;
    }

    /**
     * Decodes parsed files.
     *
     * @param dir         the configuration folder (absolute)
     * @param rootKey     identifies the configuration folder for module cycle detection (its real path)
     * @param files       the parsed files, in name order; files with syntax errors must not be passed
     * @param environment the requested environment, or null to take the only one declared
     * @param inputs      variable values from outside the files
     * @param isDirectory tells whether a path is an existing folder (checked for the seed of the chosen environment)
     * @param reader      reads module folders
     * @return the configuration, or null, with every problem found
     */
    static LoadResult decode(Path dir, String rootKey, List<ParsedFile> files, String environment, Inputs inputs,
                             Predicate<Path> isDirectory, ModuleReader reader) {
        Diagnostics diagnostics = new Diagnostics();
        Configuration configuration = new ConfigDecoder(diagnostics, isDirectory, reader)
                .run(dir, rootKey, files, environment, inputs);
        return new LoadResult(diagnostics.hasErrors() ? null : configuration, diagnostics);
    }

    /** An environment block after decoding, with what variable resolution and checks need. */
    private record EnvironmentDecl(EnvironmentBlock block, InputVariables.Source variables, SourceRange seedRange,
                                   String seedText) {
    }

    private Configuration run(Path dir, String rootKey, List<ParsedFile> files, String environmentName, Inputs inputs) {
        ModuleInstance root = new ModuleInstance(null, null, null, Map.of(), collect(files, true), sink);
        instances.add(root);
        root.declare();

        Map<String, EnvironmentDecl> environments = new TreeMap<>();
        for (Blocks.Block b : Names.unique(root.blocks("environment"), Names.IDENTIFIER, "environment", "", sink).values()) {
            environments.put(b.name(), environment(b, root.variables));
        }
        EnvironmentDecl selected = select(environments, environmentName);
        StateBackend backend = BackendDecoder.decode(root.blocks("backend"), dir, sink);

        instantiate(root, new ArrayList<>(List.of(rootKey)), new ArrayList<>(List.of(".")), 0);
        root.checkValidationReferences();

        List<InputVariables.Source> sources = new ArrayList<>();
        if (selected != null) {
            sources.add(selected.variables());
        }
        sources.add(InputVariables.fromProcessEnvironment(root.variables, inputs.processEnvironment(), sink));
        for (ParsedFile varFile : inputs.varFiles()) {
            sources.add(InputVariables.fromVarFile(root.variables, varFile, sink));
        }
        sources.add(InputVariables.fromCommandLine(root.variables, inputs.cliValues(), sink));
        String howToSet = selected == null ? "in an environment's variables"
                : "in the variables of environment \"" + selected.block().name() + "\"";
        InputVariables values = InputVariables.resolve(root.variables, sources, howToSet, selected != null, sink);

        EnvironmentBlock environment = selected == null ? null : selected.block();
        Evaluation evaluation = new Evaluation(sink, environment == null ? null : environment.name(),
                environment == null ? null : environment.namespace());
        for (ModuleInstance instance : instances) {
            instance.evaluateWith(evaluation, values);
        }
        for (ModuleInstance instance : instances) {
            instance.evaluateAll();
        }

        List<ConnectClusterBlock> clusters = new ArrayList<>();
        Map<String, ConnectClusterBlock> clustersByName = new LinkedHashMap<>();
        Set<String> clusterNames = new TreeSet<>();
        for (ModuleInstance instance : instances) {
            instance.blocks("connect_cluster").forEach(b -> clusterNames.add(b.name()));
            ResourceDecoder decoder = new ResourceDecoder(instance, environment);
            for (Blocks.Block b : Names.unique(instance.blocks("connect_cluster"), Names.KUBERNETES_NAME, "connect_cluster",
                    instance.prefix, sink).values()) {
                ConnectClusterBlock c = decoder.cluster(b, sink);
                ConnectClusterBlock other = clustersByName.putIfAbsent(c.name(), c);
                if (other != null) {
                    sink.at(c.address()).error("Duplicate KafkaConnect name", c.address() + " and " + other.address()
                            + " both declare the KafkaConnect \"" + c.name() + "\" (declared at " + other.range()
                            + "). A Connect cluster is declared once; flows in modules refer to it by name.", b.labelRange());
                }
                clusters.add(c);
            }
        }
        List<ResourceDecoder.Flow> flows = new ArrayList<>();
        for (ModuleInstance instance : instances) {
            ResourceDecoder decoder = new ResourceDecoder(instance, environment);
            for (Blocks.Block b : Names.unique(instance.blocks("replication_flow"), Names.KUBERNETES_NAME, "replication_flow",
                    instance.prefix, sink).values()) {
                flows.add(decoder.flow(b, clusterNames, sink));
            }
        }
        checkConnectorNames(flows, clustersByName, environment);

        if (selected != null) {
            checkSeed(selected);
        }
        if (sink.errorCount() > 0) {
            return null;
        }
        clusters.sort(Comparator.comparing(ConnectClusterBlock::address));
        List<ReplicationFlowBlock> flowBlocks = new ArrayList<>();
        flows.forEach(f -> flowBlocks.add(f.block()));
        flowBlocks.sort(Comparator.comparing(ReplicationFlowBlock::address));
        List<OutputValue> outputs = new ArrayList<>();
        Set<String> sensitiveValues = new TreeSet<>();
        for (String name : new TreeSet<>(root.outputs.keySet())) {
            ModuleInstance.OutputDecl decl = root.outputs.get(name);
            Value v = root.output(name);
            if (v != null) {
                outputs.add(new OutputValue(name, v.toJava(), v.kind(), decl.sensitive(), decl.description(),
                        decl.block().labelRange()));
                if (decl.sensitive()) {
                    InputVariables.collectStrings(v, sensitiveValues);
                }
            }
        }
        for (ModuleInstance instance : instances) {
            for (InputVariables.Declaration d : instance.variables.values()) {
                Value v = instance.variable(d.name());
                if (d.sensitive() && v != null) {
                    InputVariables.collectStrings(v, sensitiveValues);
                }
            }
        }
        List<EnvironmentBlock> environmentBlocks = environments.values().stream().map(EnvironmentDecl::block).toList();
        return new Configuration(dir, environmentBlocks, environment, clusters, flowBlocks, sensitiveValues, outputs, backend);
    }

    // ---------------------------------------------------------------------------------------------
    // Blocks of one module

    private Map<String, List<Blocks.Block>> collect(List<ParsedFile> files, boolean root) {
        Map<String, List<Blocks.Block>> out = new LinkedHashMap<>();
        BLOCK_TYPES.keySet().forEach(t -> out.put(t, new ArrayList<>()));
        for (ParsedFile file : files) {
            for (ConfigNode.Entry e : file.root().entries()) {
                String type = e.key();
                if (type.equals(Blocks.COMMENT)) {
                    continue;
                }
                Integer labels = BLOCK_TYPES.get(type);
                if (labels == null) {
                    sink.error("Unsupported block type", "Blocks of type \"" + Names.abbreviate(type) + "\" are not expected "
                            + "here; the block types are " + Arguments.quoted(List.copyOf(BLOCK_TYPES.keySet())) + "."
                            + Suggestions.didYouMean(type, BLOCK_TYPES.keySet()), e.keyRange());
                } else if (!root && type.equals("environment")) {
                    sink.error("Environment in a module", "Environment blocks belong in the root configuration folder, not "
                            + "in a module: a module is instantiated by the configuration of whichever environment is "
                            + "selected. Move this block to the calling configuration.", e.keyRange());
                } else if (!root && type.equals("backend")) {
                    sink.error("Backend in a module", "A backend block belongs in the root configuration folder, not in a "
                            + "module: the state belongs to the configuration that is planned and applied. Move this block to "
                            + "the calling configuration.", e.keyRange());
                } else {
                    out.get(type).addAll(Blocks.expand(e, labels, file, sink));
                }
            }
        }
        return out;
    }

    // ---------------------------------------------------------------------------------------------
    // module

    /**
     * Instantiates the module blocks of {@code parent}, recursively.
     *
     * @param keys     the folders of the instances from the root to {@code parent} (for cycle detection)
     * @param displays the same folders as messages show them
     * @param depth    the depth of {@code parent} (root 0)
     */
    private void instantiate(ModuleInstance parent, List<String> keys, List<String> displays, int depth) {
        for (Blocks.Block call : Names.unique(parent.blocks("module"), Names.IDENTIFIER, "module", parent.prefix, sink)
                .values()) {
            String address = parent.prefix + "module." + call.name();
            Sink s = sink.at(address);
            ConfigNode.Entry sourceEntry = null;
            Map<String, ConfigNode.Entry> arguments = new LinkedHashMap<>();
            for (ConfigNode.Entry e : call.body().entries()) {
                if (e.key().equals(Blocks.COMMENT)) {
                    continue;
                }
                if (MODULE_META_ARGUMENTS.containsKey(e.key())) {
                    s.error("Unsupported argument", MODULE_META_ARGUMENTS.get(e.key()), e.keyRange());
                    continue;
                }
                ConfigNode.Entry first = e.key().equals("source") ? sourceEntry : arguments.get(e.key());
                if (first != null) {
                    s.error("Duplicate argument", "The argument \"" + e.key() + "\" was already set at " + first.keyRange()
                            + ". Each argument may be set only once.", e.keyRange());
                    continue;
                }
                if (e.key().equals("source")) {
                    sourceEntry = e;
                } else {
                    arguments.put(e.key(), e);
                }
            }
            if (sourceEntry == null) {
                s.error("Missing required argument", "The argument \"source\" is required in a module block: the module's "
                        + "folder, relative to this file, e.g. \"./modules/mm2-eos-flow\".", call.labelRange());
                continue;
            }
            ModuleReader.Folder folder = folder(call, sourceEntry, s, depth);
            if (folder == null) {
                addBroken(parent, call, arguments);
                continue;
            }
            int cycleAt = keys.indexOf(folder.key());
            if (cycleAt >= 0) {
                List<String> chain = new ArrayList<>(displays.subList(cycleAt, displays.size()));
                chain.add(folder.display());
                s.error("Module source cycle", "Module \"" + call.name() + "\" has the source \""
                        + ((ConfigNode.StringNode) sourceEntry.value()).value() + "\", the folder " + folder.display()
                        + ", which is already being instantiated: " + String.join(" → ", chain)
                        + ". A module cannot contain itself, directly or through other modules.", sourceEntry.value().range());
                addBroken(parent, call, arguments);
                continue;
            }
            boolean syntaxErrors = false;
            for (ParsedFile f : folder.files()) {
                f.diagnostics().forEach(d -> sink.error(d.summary(), d.detail(), d.range()));
                syntaxErrors |= !f.ok();
            }
            if (syntaxErrors) {
                addBroken(parent, call, arguments);
                continue;
            }
            ModuleInstance child = new ModuleInstance(call.name(), parent, call, arguments, collect(folder.files(), false), sink);
            parent.children.put(call.name(), child);
            instances.add(child);
            child.declare();
            keys.add(folder.key());
            displays.add(folder.display());
            instantiate(child, keys, displays, depth + 1);
            keys.remove(keys.size() - 1);
            displays.remove(displays.size() - 1);
            child.checkValidationReferences();
            child.checkArguments();
        }
    }

    /** Records a module call whose instance could not be built, so references to it stay silent. */
    private void addBroken(ModuleInstance parent, Blocks.Block call, Map<String, ConfigNode.Entry> arguments) {
        ModuleInstance broken = new ModuleInstance(call.name(), parent, call, arguments, Map.of(), sink);
        broken.markBroken();
        parent.children.put(call.name(), broken);
    }

    /** @return the module's folder, or null after reporting why it cannot be used */
    private ModuleReader.Folder folder(Blocks.Block call, ConfigNode.Entry sourceEntry, Sink s, int depth) {
        ConfigNode sourceNode = sourceEntry.value();
        if (!(sourceNode instanceof ConfigNode.StringNode str)) {
            s.error("Incorrect attribute value type", "Inappropriate value for argument \"source\": expected string, got "
                    + sourceNode.kind() + ".", sourceNode.range());
            return null;
        }
        if (Template.firstReference(str.value()) != null) {
            s.error("Variables not allowed", "A module's source must be a literal path: the module's folder is read before any "
                    + "value is computed.", str.range());
            return null;
        }
        String text = str.value();
        if (!(text.startsWith("./") || text.startsWith("../"))) {
            s.error("Invalid module source", "\"" + Names.abbreviate(text) + "\" is not a local module path: a module source is a "
                    + "folder path starting with ./ or ../, relative to the file that declares the module (e.g. "
                    + "\"./modules/mm2-eos-flow\"). Registry, Git and URL sources are not supported.", str.range());
            return null;
        }
        if (depth + 1 > MAX_MODULE_DEPTH) {
            s.error("Modules nested too deep", "Modules may nest at most " + MAX_MODULE_DEPTH + " levels deep.", str.range());
            return null;
        }
        if (instances.size() >= MAX_MODULE_INSTANCES) {
            s.error("Too many module instances", "A configuration may instantiate at most " + MAX_MODULE_INSTANCES
                    + " modules.", str.range());
            return null;
        }
        Path base = call.file().baseDir();
        Path path;
        try {
            path = (base != null ? base.resolve(text) : Path.of(text).toAbsolutePath()).normalize();
        } catch (InvalidPathException e) {
            s.error("Invalid module source", "\"" + Names.abbreviate(text) + "\" is not a valid path: " + e.getReason() + ".",
                    str.range());
            return null;
        }
        ModuleReader.Folder folder = reader.read(path);
        if (folder.problem() != null) {
            s.error("Module folder not found", "The module source " + text + " (" + folder.display() + ") cannot be used: "
                    + folder.problem() + ". A source is relative to the file that declares the module.", str.range());
            return null;
        }
        return folder;
    }

    // ---------------------------------------------------------------------------------------------
    // Checks across modules

    private void checkConnectorNames(List<ResourceDecoder.Flow> flows, Map<String, ConnectClusterBlock> clusters,
                                     EnvironmentBlock environment) {
        Map<String, ReplicationFlowBlock> owners = new TreeMap<>();
        for (ResourceDecoder.Flow decoded : flows) {
            ReplicationFlowBlock f = decoded.block();
            ConnectClusterBlock cluster = f.connectCluster() == null ? null : clusters.get(f.connectCluster());
            String ns = cluster != null && cluster.namespace() != null ? cluster.namespace()
                    : environment == null ? null : environment.namespace();
            List<String> suffixes = new ArrayList<>(List.of("source"));
            if (f.checkpoints() == null || f.checkpoints()) {
                suffixes.add("checkpoint");
            }
            if (Boolean.TRUE.equals(f.heartbeats())) {
                suffixes.add("heartbeat");
            }
            for (String suffix : suffixes) {
                String key = (ns == null ? "" : ns + "/") + f.name() + "-" + suffix;
                ReplicationFlowBlock other = owners.putIfAbsent(key, f);
                if (other != null && other != f) {
                    sink.at(f.address()).error("Duplicate KafkaConnector name", f.address() + " and " + other.address()
                            + " both produce the KafkaConnector " + key + ". Give one of the flows another name (the \"name\" "
                            + "argument, or the block label).", decoded.nameRange());
                    break;
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // environment

    private EnvironmentDecl environment(Blocks.Block b, Map<String, InputVariables.Declaration> variables) {
        String where = "an environment block";
        Blocks.Content content = Blocks.decode(b, ENVIRONMENT, sink);
        Arguments args = new Arguments(content, n -> Evaluator.literal(n, where, sink), sink);
        String namespace = args.string("namespace");
        ResourceDecoder.checkKubernetesName(namespace, "namespace", args.valueRange("namespace"), sink);
        if (namespace == null && args.unset("namespace")) {
            sink.error("Missing namespace", "Environment \"" + b.name() + "\" sets no namespace. Set \"namespace\": it is the "
                    + "namespace of the environment's Connect clusters and connectors (unless a connect_cluster sets its own).",
                    b.labelRange());
        }
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
        String seedWritten = null;
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
                    seedWritten = seedText;
                    seed = resolvePath(seedText, embedded.file().baseDir(), seedRange);
                }
                Long reconcile = eArgs.whole("reconcile_delay_ms", 0, Long.MAX_VALUE);
                Long podReady = eArgs.whole("pod_ready_delay_ms", 0, Long.MAX_VALUE);
                List<KubernetesTarget.EmbeddedKafka> kafka = new ArrayList<>();
                ConfigNode.Entry kafkaEntry = e.attributes().get("kafka");
                if (kafkaEntry != null) {
                    for (Blocks.Block kb : Blocks.expand(kafkaEntry, 1, embedded.file(), sink)) {
                        Blocks.Content kc = Blocks.decode(kb, EMBEDDED_KAFKA, sink);
                        Arguments kArgs2 = new Arguments(kc, n -> Evaluator.literal(n, where, sink), sink);
                        List<String> servers = kArgs2.stringList("bootstrap_servers");
                        List<String> topics = kArgs2.stringList("topics");
                        kafka.add(new KubernetesTarget.EmbeddedKafka(kb.labels().get(0).name(),
                                servers == null ? List.of() : servers, topics == null ? List.of() : topics));
                    }
                }
                target = new KubernetesTarget.Embedded(seed, reconcile, podReady, kafka);
            }
        }
        EnvironmentBlock block = new EnvironmentBlock(b.name(), target, namespace, variableValues, expectedServer, b.range());
        return new EnvironmentDecl(block, source, seedRange, seedWritten);
    }

    private Path resolvePath(String text, Path baseDir, SourceRange range) {
        try {
            Path p = Path.of(text);
            if (!p.isAbsolute()) {
                p = baseDir != null ? baseDir.resolve(p) : p.toAbsolutePath();
            }
            return p.normalize();
        } catch (InvalidPathException e) {
            sink.error("Invalid path", "\"" + Names.abbreviate(text) + "\" is not a valid path: " + e.getReason() + ".", range);
            return null;
        }
    }

    private void checkSeed(EnvironmentDecl environment) {
        if (environment.block().kubernetes() instanceof KubernetesTarget.Embedded embedded && embedded.seedDir() != null
                && !isDirectory.test(embedded.seedDir())) {
            sink.error("Seed folder not found", "The seed folder \"" + Names.abbreviate(environment.seedText()) + "\" does not "
                    + "exist. A seed path is relative to the file that declares it ("
                    + environment.seedRange().filename() + ").", environment.seedRange());
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

    @SuppressWarnings("unchecked")
    private static <V> Map<String, V> orderedMap(Object... keysAndValues) {
        Map<String, V> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            out.put((String) keysAndValues[i], (V) keysAndValues[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(out);
    }
}
