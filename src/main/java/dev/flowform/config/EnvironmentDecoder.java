package dev.flowform.config;

import dev.flowform.config.lang.Arguments;
import dev.flowform.config.lang.Evaluator;
import dev.flowform.config.lang.Value;
import dev.flowform.config.module.InputVariables;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Names;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.Suggestions;
import dev.flowform.diag.SourceRange;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Decodes the root module's {@code environment} blocks (literal: read before any variable has a value), chooses the
 * environment a run uses, and checks that its seed folder exists. Seed paths are relative to the declaring file;
 * whether the folder exists is asked through a predicate, so this class reads no files.
 */
final class EnvironmentDecoder {

    private static final String WHERE = "an environment block";
    private static final Blocks.Schema ENVIRONMENT = new Blocks.Schema("environment",
            List.of("namespace", "variables", "expected_server"), List.of("kubernetes"),
            Map.of("lock_timeout", "\"lock_timeout\" is not supported yet in this version of flowform."));
    private static final Blocks.Schema KUBERNETES = new Blocks.Schema("kubernetes",
            List.of("context", "kubeconfig"), List.of("embedded"), Map.of());
    private static final Blocks.Schema EMBEDDED = new Blocks.Schema("embedded",
            List.of("seed", "reconcile_delay_ms", "pod_ready_delay_ms", "kafka", "strimzi_version"), List.of(), Map.of());
    private static final Blocks.Schema EMBEDDED_KAFKA = new Blocks.Schema("kafka",
            List.of("bootstrap_servers", "topics", "partitions"), List.of(), Map.of());

    /**
     * An environment block after decoding, with what variable resolution and the seed check need: the values its
     * {@code variables} set, converted, and the embedded seed path as written and where (null when none).
     */
    record Decoded(EnvironmentBlock block, InputVariables.Source variables, SourceRange seedRange, String seedText) {
    }

    /** An embedded target with where its seed path is written. */
    private record EmbeddedTarget(KubernetesTarget.Embedded target, SourceRange seedRange, String seedText) {
    }

    private final Sink sink;
    private final Predicate<Path> isDirectory;
    private final Path workingDir;

    /**
     * A decoder asking {@code isDirectory} about seed folders; a relative seed path from no file resolves against the
     * absolute {@code workingDir}.
     */
    EnvironmentDecoder(Sink sink, Predicate<Path> isDirectory, Path workingDir) {
        this.sink = sink;
        this.isDirectory = isDirectory;
        this.workingDir = workingDir;
    }

    /** @return one environment block decoded (null members where arguments were wrong, reported) */
    Decoded decode(Blocks.Block b, Map<String, InputVariables.Declaration> variables) {
        Blocks.Content content = Blocks.decode(b, ENVIRONMENT, sink);
        Arguments args = literal(content);
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
        String seedText = null;
        Blocks.Block kubernetes = Blocks.single(content, "kubernetes", sink);
        if (kubernetes != null) {
            Blocks.Content k = Blocks.decode(kubernetes, KUBERNETES, sink);
            Arguments kArgs = literal(k);
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
                EmbeddedTarget e = embedded(embedded);
                target = e.target();
                seedRange = e.seedRange();
                seedText = e.seedText();
            }
        }
        EnvironmentBlock block = new EnvironmentBlock(b.name(), target, namespace, variableValues, expectedServer, b.range());
        return new Decoded(block, source, seedRange, seedText);
    }

    private Arguments literal(Blocks.Content content) {
        return new Arguments(content, n -> Evaluator.literal(n, WHERE, sink), sink);
    }

    private EmbeddedTarget embedded(Blocks.Block embedded) {
        Blocks.Content e = Blocks.decode(embedded, EMBEDDED, sink);
        Arguments eArgs = literal(e);
        Path seed = null;
        SourceRange seedRange = null;
        String seedText = eArgs.string("seed");
        if (seedText != null) {
            seedRange = e.attributes().get("seed").value().range();
            seed = resolvePath(seedText, embedded.file().baseDir(), seedRange);
        }
        Long reconcile = eArgs.whole("reconcile_delay_ms", 0, Long.MAX_VALUE);
        Long podReady = eArgs.whole("pod_ready_delay_ms", 0, Long.MAX_VALUE);
        List<KubernetesTarget.EmbeddedKafka> kafka = new ArrayList<>();
        ConfigNode.Entry kafkaEntry = e.attributes().get("kafka");
        if (kafkaEntry != null) {
            for (Blocks.Block kb : Blocks.expand(kafkaEntry, 1, embedded.file(), sink)) {
                Arguments kafkaArgs = literal(Blocks.decode(kb, EMBEDDED_KAFKA, sink));
                List<String> servers = kafkaArgs.stringList("bootstrap_servers");
                List<String> topics = kafkaArgs.stringList("topics");
                Long partitions = kafkaArgs.whole("partitions", 1, 1000);
                kafka.add(new KubernetesTarget.EmbeddedKafka(kb.labels().get(0).name(),
                        servers == null ? List.of() : servers, topics == null ? List.of() : topics,
                        partitions == null ? 1 : partitions.intValue()));
            }
        }
        String strimziVersion = eArgs.string("strimzi_version");
        if (strimziVersion != null && !strimziVersion.matches("\\d+\\.\\d+\\.\\d+")) {
            sink.error("Invalid Strimzi version", "\"" + Names.abbreviate(strimziVersion) + "\" is not a Strimzi release: "
                    + "write major.minor.patch, e.g. \"0.48.0\".", e.attributes().get("strimzi_version").value().range());
            strimziVersion = null;
        }
        return new EmbeddedTarget(new KubernetesTarget.Embedded(seed, reconcile, podReady, kafka, strimziVersion), seedRange,
                seedText);
    }

    private Path resolvePath(String text, Path baseDir, SourceRange range) {
        try {
            Path p = Path.of(text);
            if (!p.isAbsolute()) {
                p = (baseDir != null ? baseDir : workingDir).resolve(p);
            }
            return p.normalize();
        } catch (InvalidPathException e) {
            sink.error("Invalid path", "\"" + Names.abbreviate(text) + "\" is not a valid path: " + e.getReason() + ".", range);
            return null;
        }
    }

    /** Reports a seed folder of the selected environment that does not exist. */
    void checkSeed(Decoded environment) {
        if (environment.block().kubernetes() instanceof KubernetesTarget.Embedded embedded && embedded.seedDir() != null
                && !isDirectory.test(embedded.seedDir())) {
            sink.error("Seed folder not found", "The seed folder \"" + Names.abbreviate(environment.seedText()) + "\" does not "
                    + "exist. A seed path is relative to the file that declares it ("
                    + environment.seedRange().filename() + ").", environment.seedRange());
        }
    }

    /** @return the environment {@code name} (null: the only one declared), or null after reporting why none */
    Decoded select(Map<String, Decoded> environments, String name) {
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
        Decoded found = environments.get(name);
        if (found == null) {
            sink.error(ConfigLoader.UNKNOWN_ENVIRONMENT, "No environment named \"" + name + "\" is declared; declared: " + declared + "."
                    + Suggestions.didYouMean(name, environments.keySet()), null);
        }
        return found;
    }
}
