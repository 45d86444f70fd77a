package dev.flowform.config.syntax;

import dev.flowform.diag.SourceRange;
import dev.flowform.diag.Suggestions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Block structure of the HCL JSON syntax: properties into blocks with labels and bodies, and a body split into
 * arguments and nested blocks by a schema; an array of objects may stand for one object at every level, and
 * {@code "//"} is a comment (HCL JSON spec, "Blocks").
 */
public final class Blocks {

    /** The comment property name. */
    public static final String COMMENT = "//";

    private Blocks() {
    }

    /** One label of a block: its value, and where the property name that gives it is written. */
    public record Label(String name, SourceRange range) {
    }

    /**
     * A block found in a body.
     *
     * @param type      the block type, e.g. {@code connect_cluster}
     * @param typeRange where the type's property name is written
     * @param labels    the labels, outermost first
     * @param file      the file the block is written in
     */
    public record Block(String type, SourceRange typeRange, List<Label> labels, ConfigNode.ObjectNode body, ParsedFile file) {
        /** Copies the labels. */
        public Block {
            labels = List.copyOf(labels);
        }

        /** @return the first label (every top-level block type has exactly one) */
        public String name() {
            return labels.get(0).name();
        }

        /** @return where the innermost label is written, or the type for an unlabelled block */
        public SourceRange labelRange() {
            return labels.isEmpty() ? typeRange : labels.get(labels.size() - 1).range();
        }

        /** @return from the innermost label (or the type) to the end of the body */
        public SourceRange range() {
            SourceRange start = labelRange();
            return new SourceRange(start.filename(), start.start(), body.range().end());
        }
    }

    /**
     * What a body may contain.
     *
     * @param blockName  how the enclosing block is named in messages, e.g. {@code connect_cluster}
     * @param attributes the argument names
     * @param blocks     the nested block types (none takes labels)
     * @param notYet     names that later versions will accept, with why they are refused now
     */
    public record Schema(String blockName, List<String> attributes, List<String> blocks, Map<String, String> notYet) {
        /** Copies the lists. */
        public Schema {
            attributes = List.copyOf(attributes);
            blocks = List.copyOf(blocks);
            notYet = Map.copyOf(notYet);
        }
    }

    /**
     * A decoded body.
     *
     * @param attributes the arguments present, by name, in source order
     * @param blocks     the nested blocks present, by type
     */
    public record Content(Block block, Map<String, ConfigNode.Entry> attributes, Map<String, List<Block>> blocks) {
        /** @return the argument's property, if present */
        public Optional<ConfigNode.Entry> attribute(String name) {
            return Optional.ofNullable(attributes.get(name));
        }

        /** @return the nested blocks of that type, possibly none */
        public List<Block> nested(String type) {
            return blocks.getOrDefault(type, List.of());
        }
    }

    /**
     * Expands one property whose name is a block type ({@code "connect_cluster": {...}}) into blocks.
     *
     * @param labelCount how many label levels the block type has
     * @return the blocks, in source order
     */
    public static List<Block> expand(ConfigNode.Entry entry, int labelCount, ParsedFile file, Sink sink) {
        List<Block> out = new ArrayList<>();
        expand(entry.key(), entry.keyRange(), entry.value(), labelCount, new ArrayList<>(), file, sink, out);
        return out;
    }

    private static void expand(String type, SourceRange typeRange, ConfigNode node, int remaining, List<Label> labels,
                               ParsedFile file, Sink sink, List<Block> out) {
        List<ConfigNode.ObjectNode> objects = objects(node);
        if (objects == null) {
            String what = remaining > 0
                    ? "one property per " + type + " name, whose value is the block body"
                    : "the contents of the " + type + " block";
            sink.error("Incorrect JSON value type", "A JSON object (or a JSON array of objects) is required here, holding "
                    + what + "; got " + node.kind() + ".", node.range());
            return;
        }
        for (ConfigNode.ObjectNode object : objects) {
            if (remaining == 0) {
                out.add(new Block(type, typeRange, labels, object, file));
                continue;
            }
            for (ConfigNode.Entry e : object.entries()) {
                if (e.key().equals(COMMENT)) {
                    continue;
                }
                List<Label> deeper = new ArrayList<>(labels);
                deeper.add(new Label(e.key(), e.keyRange()));
                expand(type, typeRange, e.value(), remaining - 1, deeper, file, sink, out);
            }
        }
    }

    private static List<ConfigNode.ObjectNode> objects(ConfigNode node) {
        if (node instanceof ConfigNode.ObjectNode o) {
            return List.of(o);
        }
        if (node instanceof ConfigNode.ArrayNode a) {
            List<ConfigNode.ObjectNode> out = new ArrayList<>();
            for (ConfigNode item : a.items()) {
                if (!(item instanceof ConfigNode.ObjectNode o)) {
                    return null;
                }
                out.add(o);
            }
            return out;
        }
        return null;
    }

    /**
     * Splits a block body into arguments and nested blocks, reporting unknown and repeated names.
     *
     * @return the content; unknown or repeated properties are left out
     */
    public static Content decode(Block block, Schema schema, Sink sink) {
        Map<String, ConfigNode.Entry> attributes = new LinkedHashMap<>();
        Map<String, List<Block>> blocks = new LinkedHashMap<>();
        for (ConfigNode.Entry e : block.body().entries()) {
            String key = e.key();
            if (key.equals(COMMENT)) {
                continue;
            }
            if (schema.attributes().contains(key)) {
                ConfigNode.Entry first = attributes.putIfAbsent(key, e);
                if (first != null) {
                    sink.error("Duplicate argument", "The argument \"" + key + "\" was already set at " + first.keyRange()
                            + ". Each argument may be set only once.", e.keyRange());
                }
            } else if (schema.blocks().contains(key)) {
                blocks.computeIfAbsent(key, k -> new ArrayList<>()).addAll(expand(e, 0, block.file(), sink));
            } else if (schema.notYet().containsKey(key)) {
                sink.error("Unsupported argument", schema.notYet().get(key), e.keyRange());
            } else {
                TreeSet<String> known = new TreeSet<>(schema.attributes());
                known.addAll(schema.blocks());
                sink.error("Unsupported argument", "An argument named \"" + key + "\" is not expected in a "
                        + schema.blockName() + " block." + Suggestions.didYouMean(key, known), e.keyRange());
            }
        }
        return new Content(block, attributes, blocks);
    }

    /** @return "An" before a vowel, else "A" */
    public static String article(String word) {
        return !word.isEmpty() && "aeiou".indexOf(Character.toLowerCase(word.charAt(0))) >= 0 ? "An" : "A";
    }

    /** @return the only nested block of {@code type}, or null; further ones are reported as duplicates */
    public static Block single(Content content, String type, Sink sink) {
        List<Block> found = content.nested(type);
        for (int i = 1; i < found.size(); i++) {
            Block again = found.get(i);
            SourceRange at = again.typeRange().equals(found.get(0).typeRange()) ? again.body().range() : again.typeRange();
            sink.error("Duplicate " + type + " block", article(type) + " " + type + " block was already declared at "
                    + found.get(0).typeRange() + "; only one is allowed.", at);
        }
        return found.isEmpty() ? null : found.get(0);
    }
}
