package dev.flowform.config.imports;

import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.diag.SourceRange;
import java.util.ArrayList;
import java.util.List;

/** Builds the {@link ConfigNode} tree of a generated file, in the order properties are added. */
final class Node {

    private static final SourceRange GENERATED = SourceRange.at("(import)", 1, 1);

    private final List<ConfigNode.Entry> entries = new ArrayList<>();

    /** @return this object with {@code key: value} (a string) added */
    Node put(String key, String value) {
        return put(key, new ConfigNode.StringNode(value, GENERATED));
    }

    /** @return this object with {@code key: value} (a bool) added */
    Node put(String key, boolean value) {
        return put(key, new ConfigNode.BoolNode(value, GENERATED));
    }

    /** @return this object with {@code key: value} (a whole number) added */
    Node put(String key, long value) {
        return put(key, new ConfigNode.NumberNode(java.math.BigDecimal.valueOf(value), Long.toString(value), GENERATED));
    }

    /** @return this object with {@code key: value} (an object) added */
    Node put(String key, Node value) {
        return put(key, value.build());
    }

    /** @return this object with {@code key: [items...]} (an array of objects) added */
    Node put(String key, List<Node> items) {
        return put(key, new ConfigNode.ArrayNode(items.stream().map(n -> (ConfigNode) n.build()).toList(), GENERATED));
    }

    private Node put(String key, ConfigNode value) {
        entries.add(new ConfigNode.Entry(key, GENERATED, value));
        return this;
    }

    /** @return true when nothing was added */
    boolean isEmpty() {
        return entries.isEmpty();
    }

    /** @return the object node */
    ConfigNode.ObjectNode build() {
        return new ConfigNode.ObjectNode(entries, GENERATED);
    }
}
