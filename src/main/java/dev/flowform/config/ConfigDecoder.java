package dev.flowform.config;

import dev.flowform.config.lang.Evaluation;
import dev.flowform.config.lang.Value;
import dev.flowform.config.module.InputVariables;
import dev.flowform.config.module.ModuleInstance;
import dev.flowform.config.module.ModuleReader;
import dev.flowform.config.module.ModuleTree;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.Names;
import dev.flowform.config.syntax.ParsedFile;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.Diagnostics;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredMirrorMaker2;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Turns parsed configuration files into a {@link Configuration} for one environment, the pure core of
 * {@link ConfigLoader} (module folders through a {@link ModuleReader}, the working directory handed in): root blocks,
 * environments, modules ({@link ModuleTree}), root variables, every value on demand, validations, then the resource
 * blocks and their cross-checks. Every independent problem is reported in one run.
 */
final class ConfigDecoder {

    /**
     * What the command line and the process add to the configuration files.
     *
     * @param varFiles           the {@code --var-file} files, parsed, in the order given (files with syntax errors must
     *                           not be passed)
     * @param processEnvironment the process environment, for {@code FLOWFORM_VAR_<name>}
     * @param cliValues          {@code --var} values by variable name
     * @param workingDir         the process's working directory (absolute): relative paths written in text that came
     *                           from no file resolve against it
     */
    record Inputs(List<ParsedFile> varFiles, Map<String, String> processEnvironment, Map<String, String> cliValues,
                  Path workingDir) {
        /** Copies the collections. */
        Inputs {
            varFiles = List.copyOf(varFiles);
            processEnvironment = processEnvironment == null ? Map.of() : processEnvironment;
            cliValues = cliValues == null ? Map.of() : cliValues;
            Objects.requireNonNull(workingDir, "workingDir");
        }
    }

    /** The decoded {@code connect_cluster} and {@code replication_flow} blocks of every instance. */
    private record Resources(List<DesiredConnectCluster> clusters, List<ResourceDecoder.Flow> flows) {
    }

    private final Sink sink;
    private final ModuleTree modules;
    private final EnvironmentDecoder environments;

    private ConfigDecoder(Diagnostics diagnostics, Predicate<Path> isDirectory, ModuleReader reader, Path workingDir) {
        this.sink = new Sink(diagnostics);
        this.modules = new ModuleTree(sink, reader, workingDir);
        this.environments = new EnvironmentDecoder(sink, isDirectory, workingDir);
    }

    /**
     * Decodes parsed files (those with syntax errors must not be passed) for {@code environment} (null: the only one);
     * {@code rootKey} identifies the folder for module cycles, {@code isDirectory} checks the seed folder.
     *
     * @return the configuration, or null, with every problem found
     */
    static LoadResult decode(Path dir, String rootKey, List<ParsedFile> files, String environment, Inputs inputs,
                             Predicate<Path> isDirectory, ModuleReader reader) {
        Diagnostics diagnostics = new Diagnostics();
        Configuration configuration = new ConfigDecoder(diagnostics, isDirectory, reader, inputs.workingDir())
                .run(dir, rootKey, files, environment, inputs);
        return new LoadResult(diagnostics.hasErrors() ? null : configuration, diagnostics);
    }

    private Configuration run(Path dir, String rootKey, List<ParsedFile> files, String environmentName, Inputs inputs) {
        ModuleInstance root = modules.root(files);
        Map<String, EnvironmentDecoder.Decoded> declared = new TreeMap<>();
        for (Blocks.Block b : Names.unique(root.blocks("environment"), Names.IDENTIFIER, "environment", "", sink).values()) {
            declared.put(b.name(), environments.decode(b, root.variables()));
        }
        EnvironmentDecoder.Decoded selected = environments.select(declared, environmentName);
        StateBackend backend = BackendDecoder.decode(root.blocks("backend"), dir, sink);
        modules.instantiate(root, rootKey);

        EnvironmentBlock environment = selected == null ? null : selected.block();
        evaluate(rootValues(root, selected, inputs), environment);
        Resources resources = resources(environment);
        List<DesiredMirrorMaker2> mirrorMakers = mirrorMakers(environment);
        checkConnectorNames(resources.flows(), resources.clusters(), environment);
        if (selected != null) {
            environments.checkSeed(selected);
        }
        if (sink.errorCount() > 0) {
            return null;
        }
        List<DesiredConnectCluster> clusters = new ArrayList<>(resources.clusters());
        clusters.sort(Comparator.comparing(DesiredConnectCluster::address));
        List<ReplicationFlowBlock> flows = new ArrayList<>();
        resources.flows().forEach(f -> flows.add(f.block()));
        flows.sort(Comparator.comparing(ReplicationFlowBlock::address));
        Set<String> sensitiveValues = new TreeSet<>();
        List<OutputValue> outputs = outputs(root, sensitiveValues);
        sensitiveVariableValues(sensitiveValues);
        List<EnvironmentBlock> environmentBlocks = declared.values().stream().map(EnvironmentDecoder.Decoded::block).toList();
        return new Configuration(dir, environmentBlocks, environment, clusters, flows, sensitiveValues, outputs, backend,
                mirrorMakers);
    }

    /** @return the root variables' values from their sources, lowest precedence first (Terraform's order) */
    private InputVariables rootValues(ModuleInstance root, EnvironmentDecoder.Decoded selected, Inputs inputs) {
        Map<String, InputVariables.Declaration> declarations = root.variables();
        List<InputVariables.Source> sources = new ArrayList<>();
        if (selected != null) {
            sources.add(selected.variables());
        }
        sources.add(InputVariables.fromProcessEnvironment(declarations, inputs.processEnvironment(), sink));
        for (ParsedFile varFile : inputs.varFiles()) {
            sources.add(InputVariables.fromVarFile(declarations, varFile, sink));
        }
        sources.add(InputVariables.fromCommandLine(declarations, inputs.cliValues(), sink));
        String howToSet = selected == null ? "in an environment's variables"
                : "in the variables of environment \"" + selected.block().name() + "\"";
        return InputVariables.resolve(declarations, sources, howToSet, selected != null, sink);
    }

    /** Computes every value of every instance, so problems in values nobody refers to are reported too. */
    private void evaluate(InputVariables values, EnvironmentBlock environment) {
        Evaluation evaluation = new Evaluation(sink, environment == null ? null : environment.name(),
                environment == null ? null : environment.namespace());
        for (ModuleInstance instance : modules.instances()) {
            instance.evaluateWith(evaluation, values);
        }
        for (ModuleInstance instance : modules.instances()) {
            instance.evaluateAll();
        }
    }

    private Resources resources(EnvironmentBlock environment) {
        List<DesiredConnectCluster> clusters = new ArrayList<>();
        Map<String, DesiredConnectCluster> clustersByName = new LinkedHashMap<>();
        Set<String> clusterNames = new TreeSet<>();
        for (ModuleInstance instance : modules.instances()) {
            instance.blocks("connect_cluster").forEach(b -> clusterNames.add(b.name()));
            ResourceDecoder decoder = new ResourceDecoder(instance, environment);
            for (Blocks.Block b : Names.unique(instance.blocks("connect_cluster"), Names.KUBERNETES_NAME, "connect_cluster",
                    instance.prefix, sink).values()) {
                DesiredConnectCluster c = decoder.cluster(b, sink);
                DesiredConnectCluster other = clustersByName.putIfAbsent(c.name(), c);
                if (other != null) {
                    sink.at(c.address()).error("Duplicate KafkaConnect name", c.address() + " and " + other.address()
                            + " both declare the KafkaConnect \"" + c.name() + "\" (declared at " + other.range()
                            + "). A Connect cluster is declared once; flows in modules refer to it by name.", b.labelRange());
                }
                clusters.add(c);
            }
        }
        List<ResourceDecoder.Flow> flows = new ArrayList<>();
        for (ModuleInstance instance : modules.instances()) {
            ResourceDecoder decoder = new ResourceDecoder(instance, environment);
            for (Blocks.Block b : Names.unique(instance.blocks("replication_flow"), Names.KUBERNETES_NAME, "replication_flow",
                    instance.prefix, sink).values()) {
                flows.add(decoder.flow(b, clusterNames, sink));
            }
        }
        return new Resources(clusters, flows);
    }

    /** @return the {@code mirrormaker2} blocks of every module instance, in address order */
    private List<DesiredMirrorMaker2> mirrorMakers(EnvironmentBlock environment) {
        List<DesiredMirrorMaker2> out = new ArrayList<>();
        for (ModuleInstance instance : modules.instances()) {
            MirrorMakerDecoder decoder = new MirrorMakerDecoder(instance, environment);
            for (Blocks.Block b : Names.unique(instance.blocks("mirrormaker2"), Names.KUBERNETES_NAME, "mirrormaker2",
                    instance.prefix, sink).values()) {
                out.add(decoder.decode(b, sink));
            }
        }
        out.sort(Comparator.comparing(DesiredMirrorMaker2::address));
        return out;
    }

    /** @return the root module's outputs in name order; the strings of sensitive ones are added to {@code sensitive} */
    private static List<OutputValue> outputs(ModuleInstance root, Set<String> sensitive) {
        List<OutputValue> outputs = new ArrayList<>();
        for (String name : new TreeSet<>(root.outputs().keySet())) {
            ModuleInstance.OutputDecl decl = root.outputs().get(name);
            Value v = root.output(name);
            if (v != null) {
                outputs.add(new OutputValue(name, v.toJava(), v.kind(), decl.sensitive(), decl.description(),
                        decl.block().labelRange()));
                if (decl.sensitive()) {
                    InputVariables.collectStrings(v, sensitive);
                }
            }
        }
        return outputs;
    }

    /** Adds the strings of every sensitive variable's value, in every instance, to {@code sensitive}. */
    private void sensitiveVariableValues(Set<String> sensitive) {
        for (ModuleInstance instance : modules.instances()) {
            for (InputVariables.Declaration d : instance.variables().values()) {
                Value v = instance.variable(d.name());
                if (d.sensitive() && v != null) {
                    InputVariables.collectStrings(v, sensitive);
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Checks across modules

    /** Reports two flows that would produce the same KafkaConnector (namespace and name). */
    private void checkConnectorNames(List<ResourceDecoder.Flow> flows, List<DesiredConnectCluster> declared,
                                     EnvironmentBlock environment) {
        Map<String, DesiredConnectCluster> clusters = new LinkedHashMap<>();
        declared.forEach(c -> clusters.putIfAbsent(c.name(), c));
        Map<String, ReplicationFlowBlock> owners = new TreeMap<>();
        for (ResourceDecoder.Flow decoded : flows) {
            ReplicationFlowBlock f = decoded.block();
            DesiredConnectCluster cluster = f.connectCluster() == null ? null : clusters.get(f.connectCluster());
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
}
