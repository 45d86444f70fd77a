package dev.flowform.config.module;

import dev.flowform.config.lang.Arguments;
import dev.flowform.config.lang.Template;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Names;
import dev.flowform.config.syntax.ParsedFile;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.Suggestions;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the module instances of one configuration: the root folder's instance, then one instance per
 * {@code module} block, recursively (Terraform's module tree). A module's {@code source} is a literal local
 * folder path relative to the declaring file; the folder is read through a {@link ModuleReader}, so building
 * the tree does no I/O itself. A module whose folder is already being instantiated is a source cycle; depth and
 * instance count are bounded. A call whose instance cannot be built is kept as a broken instance so that
 * references to its outputs stay silent instead of adding follow-on errors.
 */
public final class ModuleTree {

    /** Block types with their number of labels. */
    public static final Map<String, Integer> BLOCK_TYPES = labelCounts(
            "variable", 1, "locals", 0, "environment", 1, "connect_cluster", 1, "replication_flow", 1, "module", 1,
            "output", 1, "backend", 1, "mirrormaker2", 1);

    /** Deepest nesting of module calls accepted (the root is depth 0). */
    public static final int MAX_MODULE_DEPTH = 16;

    /** Most module instances one configuration may create. */
    public static final int MAX_MODULE_INSTANCES = 500;

    private static final Map<String, String> MODULE_META_ARGUMENTS = Map.of(
            "count", "\"count\" is not supported in this version of flowform: write one module block per instance.",
            "for_each", "\"for_each\" is not supported in this version of flowform: write one module block per instance.",
            "version", "\"version\" applies to registry modules, which flowform does not use: a module source is a local folder.",
            "providers", "flowform has no providers: a module uses the environment's cluster.",
            "depends_on", "\"depends_on\" is not supported in this version of flowform: order comes from the values a module "
                    + "uses.");

    /** The {@code source} and the other arguments of one {@code module} block. */
    private record Call(Blocks.Block block, ConfigNode.Entry source, Map<String, ConfigNode.Entry> arguments) {
    }

    private final Sink sink;
    private final ModuleReader reader;
    private final Path workingDir;
    private final List<ModuleInstance> instances = new ArrayList<>();

    /**
     * A tree reading module folders with {@code reader}; a module source whose declaring text came from no file
     * resolves against {@code workingDir} (absolute: the process's, which the caller reads).
     */
    public ModuleTree(Sink sink, ModuleReader reader, Path workingDir) {
        this.sink = sink;
        this.reader = reader;
        this.workingDir = workingDir;
    }

    private static Map<String, Integer> labelCounts(Object... typesAndCounts) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < typesAndCounts.length; i += 2) {
            out.put((String) typesAndCounts[i], (Integer) typesAndCounts[i + 1]);
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * @return the root module's instance, its variables, locals and outputs declared, from the configuration folder's
     *         files (parsed without syntax errors, in name order)
     */
    public ModuleInstance root(List<ParsedFile> files) {
        ModuleInstance root = new ModuleInstance(null, null, null, Map.of(), collect(files, true), sink);
        instances.add(root);
        root.declare();
        return root;
    }

    /**
     * Instantiates the module blocks below {@code root}, recursively, then checks the references of the root's
     * validation conditions; {@code rootKey} identifies the configuration folder for cycle detection (its real path).
     */
    public void instantiate(ModuleInstance root, String rootKey) {
        instantiate(root, new ArrayList<>(List.of(rootKey)), new ArrayList<>(List.of(".")), 0);
        root.checkValidationReferences();
    }

    /** @return every instance built, the root first, then in the order the calls were read (read-only) */
    public List<ModuleInstance> instances() {
        return Collections.unmodifiableList(instances);
    }

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

    /**
     * Instantiates the module blocks of {@code parent} (at {@code depth}, root 0), recursively; {@code keys} are the
     * folders of the instances from the root to {@code parent}, for cycle detection, as messages show them in
     * {@code displays}.
     */
    private void instantiate(ModuleInstance parent, List<String> keys, List<String> displays, int depth) {
        for (Blocks.Block block : Names.unique(parent.blocks("module"), Names.IDENTIFIER, "module", parent.prefix, sink)
                .values()) {
            Sink s = sink.at(parent.prefix + "module." + block.name());
            Call call = call(block, s);
            if (call == null) {
                continue;
            }
            ModuleReader.Folder folder = folder(block, call.source(), s, depth);
            if (folder == null || cycle(call, folder, keys, displays, s) || syntaxErrors(folder)) {
                addBroken(parent, call);
                continue;
            }
            ModuleInstance child = new ModuleInstance(block.name(), parent, block, call.arguments(),
                    collect(folder.files(), false), sink);
            parent.addChild(child);
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

    /** @return the call's source and arguments, or null when it has no source (reported) */
    private static Call call(Blocks.Block block, Sink s) {
        ConfigNode.Entry sourceEntry = null;
        Map<String, ConfigNode.Entry> arguments = new LinkedHashMap<>();
        for (ConfigNode.Entry e : block.body().entries()) {
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
                    + "folder, relative to this file, e.g. \"./modules/mm2-eos-flow\".", block.labelRange());
            return null;
        }
        return new Call(block, sourceEntry, arguments);
    }

    /** @return true, after reporting it, when {@code folder} is already being instantiated */
    private static boolean cycle(Call call, ModuleReader.Folder folder, List<String> keys, List<String> displays, Sink s) {
        int cycleAt = keys.indexOf(folder.key());
        if (cycleAt < 0) {
            return false;
        }
        List<String> chain = new ArrayList<>(displays.subList(cycleAt, displays.size()));
        chain.add(folder.display());
        s.error("Module source cycle", "Module \"" + call.block().name() + "\" has the source \""
                + ((ConfigNode.StringNode) call.source().value()).value() + "\", the folder " + folder.display()
                + ", which is already being instantiated: " + String.join(" → ", chain)
                + ". A module cannot contain itself, directly or through other modules.", call.source().value().range());
        return true;
    }

    /** @return true when a file of the folder has syntax errors, which are reported */
    private boolean syntaxErrors(ModuleReader.Folder folder) {
        boolean syntaxErrors = false;
        for (ParsedFile f : folder.files()) {
            f.diagnostics().forEach(d -> sink.error(d.summary(), d.detail(), d.range()));
            syntaxErrors |= !f.ok();
        }
        return syntaxErrors;
    }

    /** Records a module call whose instance could not be built, so references to it stay silent. */
    private void addBroken(ModuleInstance parent, Call call) {
        ModuleInstance broken = new ModuleInstance(call.block().name(), parent, call.block(), call.arguments(), Map.of(),
                sink);
        broken.markBroken();
        parent.addChild(broken);
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
        Path base = call.file().baseDir() != null ? call.file().baseDir() : workingDir;
        Path path;
        try {
            path = base.resolve(text).normalize();
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
}
