package dev.flowform.config;

import dev.flowform.config.lang.Arguments;
import dev.flowform.config.lang.Evaluator;
import dev.flowform.config.module.ModuleInstance;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.SourceRange;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import dev.flowform.plan.Rule;
import dev.flowform.plan.rules.ConnectorRules;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decodes a {@code mirrormaker2} block into a KafkaMirrorMaker2 ({@code target} with the worker configuration, one
 * {@code mirror} per source; docs/mirrormaker2.md), reporting at the key the exactly-once settings written where they
 * do not belong: the worker mode in {@code target.config}, the source connector's exactly-once keys, and
 * {@code exactly.once.support} in {@code checkpoint_connector} (KAFKA-14021).
 */
final class MirrorMakerDecoder {

    private static final Blocks.Schema MIRROR_MAKER = new Blocks.Schema("mirrormaker2",
            List.of("namespace", "manage", "exactly_once_source_support", "replicas", "version"), List.of("target", "mirror"),
            Map.of());
    private static final Blocks.Schema ENDPOINT = new Blocks.Schema("target or source",
            List.of("alias", "bootstrap_servers", "config"), List.of(), Map.of());
    private static final Blocks.Schema MIRROR = new Blocks.Schema("mirror",
            List.of("topics", "groups", "tasks_max", "exactly_once", "source_connector", "checkpoint_connector"),
            List.of("source"), Map.of());
    private static final List<String> MANAGE = List.of("own", "adopt");
    private static final List<String> EOS = List.of("disabled", "preparing", "enabled");

    private final ModuleInstance instance;
    private final EnvironmentBlock environment;

    /** A decoder of {@code instance}'s blocks; {@code environment} (or null) gives the default namespace. */
    MirrorMakerDecoder(ModuleInstance instance, EnvironmentBlock environment) {
        this.instance = instance;
        this.environment = environment;
    }

    /** An endpoint as declared: alias, bootstrap servers, config. */
    private record Endpoint(String alias, String bootstrap, Map<String, String> config) {
    }

    /** @return the block as declared (mode and namespace maybe unset), errors located to {@code sink} */
    DesiredMirrorMaker2 decode(Blocks.Block b, Sink sink) {
        String address = instance.prefix + "mirrormaker2." + b.name();
        Sink s = sink.at(address);
        Blocks.Content content = Blocks.decode(b, MIRROR_MAKER, s);
        Evaluator eval = instance.evaluator(address);
        Arguments args = new Arguments(content, eval::eval, s);
        String namespace = args.string("namespace");
        ResourceDecoder.checkKubernetesName(namespace, "namespace", args.valueRange("namespace"), s);
        String manage = args.oneOf("manage", MANAGE);
        ManageMode mode = manage == null ? ManageMode.OWN : ManageMode.parse(manage).orElse(ManageMode.OWN);
        String eos = args.oneOf("exactly_once_source_support", EOS);
        Long replicas = args.whole("replicas", 0, Integer.MAX_VALUE);
        String version = args.strictString("version", "write the Kafka version as a string, e.g. \"3.9.0\"");
        Set<String> sensitive = new TreeSet<>();
        Endpoint target = endpoint(Blocks.single(content, "target", s), "target", mode, eval, s, sensitive, b);
        List<DesiredMirror> mirrors = new ArrayList<>();
        for (Blocks.Block m : content.nested("mirror")) {
            DesiredMirror mirror = mirror(m, mode, eval, s, sensitive);
            if (mirror != null) {
                mirrors.add(mirror);
            }
        }
        if (mirrors.isEmpty()) {
            s.error("Missing required block", "A mirrormaker2 block needs at least one mirror block "
                    + "({\"source\": {\"alias\": ...}, \"exactly_once\": ...}).", b.labelRange());
        }
        mirrors.sort(Comparator.comparing(m -> m.sourceAlias() == null ? "" : m.sourceAlias()));
        if (args.unset("namespace") && environment != null) {
            namespace = environment.namespace();
        }
        return new DesiredMirrorMaker2(address, b.name(), namespace, mode, eos == null ? null : EosMode.parse(eos).orElse(null),
                replicas == null ? null : replicas.intValue(), version, target == null ? null : target.alias(),
                target == null ? null : target.bootstrap(), target == null ? Map.of() : target.config(), mirrors, sensitive,
                b.range());
    }

    private DesiredMirror mirror(Blocks.Block m, ManageMode mode, Evaluator eval, Sink s, Set<String> sensitive) {
        Blocks.Content content = Blocks.decode(m, MIRROR, s);
        Arguments args = new Arguments(content, eval::eval, s);
        Endpoint source = endpoint(Blocks.single(content, "source", s), "source", mode, eval, s, sensitive, m);
        Long tasks = args.whole("tasks_max", 1, Integer.MAX_VALUE);
        Boolean exactlyOnce = args.bool("exactly_once");
        Map<String, String> sourceConfig = connectorConfig(args, "source_connector", sensitive, s);
        Map<String, String> checkpointConfig = connectorConfig(args, "checkpoint_connector", sensitive, s);
        if (source == null || source.alias() == null) {
            return null;
        }
        return new DesiredMirror(source.alias(), source.bootstrap(), source.config(), args.string("topics"),
                args.string("groups"), tasks == null ? null : tasks.intValue(), sourceConfig, checkpointConfig,
                Boolean.TRUE.equals(exactlyOnce), m.range());
    }

    /** Reads a connector's config object and reports the keys that belong elsewhere. */
    private static Map<String, String> connectorConfig(Arguments args, String name, Set<String> sensitive, Sink s) {
        Map<String, String> config = args.stringMap(name, sensitive);
        if (config == null) {
            return Map.of();
        }
        SourceRange at = args.valueRange(name);
        boolean source = name.equals("source_connector");
        for (String k : config.keySet()) {
            if (source && (k.equals(ConnectorRules.EXACTLY_ONCE_SUPPORT) || k.equals(ConnectorRules.SOURCE_ISOLATION_LEVEL))) {
                s.error("Conflicting configuration key", "Set \"" + k + "\" with the mirror's argument exactly_once: flowform "
                        + "writes it after every worker runs enabled.\n\n" + Rule.REQUIRED_AFTER_ENABLED.citation(), at);
            } else if (!source && k.equals(ConnectorRules.EXACTLY_ONCE_SUPPORT)) {
                s.error("exactly.once.support on the checkpoint connector", "MirrorCheckpointConnector does not implement "
                        + "the preflight API and rejects exactly.once.support=required; exactly-once applies to the source "
                        + "connector only (the mirror's exactly_once).\n\n" + Rule.REQUIRED_SOURCE_ONLY.citation(), at);
            }
        }
        return config;
    }

    private Endpoint endpoint(Blocks.Block block, String role, ManageMode mode, Evaluator eval, Sink s, Set<String> sensitive,
                              Blocks.Block parent) {
        if (block == null) {
            s.error("Missing required block", "A " + role + " block ({\"alias\": ...}) is required in "
                    + (role.equals("target") ? "a mirrormaker2 block" : "each mirror") + ".", parent.typeRange());
            return null;
        }
        Blocks.Content content = Blocks.decode(block, ENDPOINT, s);
        Arguments args = new Arguments(content, eval::eval, s);
        String alias = args.string("alias");
        if (alias == null) {
            s.error("Missing required argument", "The argument \"alias\" is required in " + role + ".", block.typeRange());
        }
        if (mode == ManageMode.OWN && args.unset("bootstrap_servers")) {
            s.error("Missing required argument", "The argument \"bootstrap_servers\" is required in " + role + " when the "
                    + "mirrormaker2 has manage = \"own\" (the default).", block.typeRange());
        }
        Map<String, String> config = args.stringMap("config", sensitive);
        Map<String, String> out = config == null ? Map.of() : new LinkedHashMap<>(config);
        for (String k : out.keySet()) {
            if (k.equals(EosMode.CONFIG_KEY)) {
                s.error("Conflicting configuration key", "Set \"" + EosMode.CONFIG_KEY + "\" with the argument "
                        + "exactly_once_source_support: flowform sequences its changes (preparing, roll, enabled, roll).",
                        args.valueRange("config"));
            } else if (k.endsWith("isolation.level")) {
                s.error("isolation.level where MirrorMaker 2 drops it", "\"" + k + "\" in the " + role + " cluster's config "
                        + "becomes " + role + ".cluster." + k + ", which MirrorMaker 2 silently drops: only client connection "
                        + "keys of a cluster entry reach the source consumer. Use the mirror's exactly_once (it sets "
                        + ConnectorRules.SOURCE_ISOLATION_LEVEL + "=read_committed in sourceConnector.config).\n\n"
                        + Rule.READ_COMMITTED.citation(), args.valueRange("config"));
            }
        }
        return new Endpoint(alias, args.string("bootstrap_servers"), out);
    }
}
