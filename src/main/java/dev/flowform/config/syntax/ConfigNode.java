package dev.flowform.config.syntax;

import dev.flowform.diag.SourceRange;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One JSON value of a configuration file exactly as written, located: property order, repeated names, {@code "//"}
 * comments and the spelling of numbers ({@link BigDecimal}) are kept. Immutable.
 */
public sealed interface ConfigNode
        permits ConfigNode.ObjectNode, ConfigNode.ArrayNode, ConfigNode.StringNode, ConfigNode.NumberNode,
        ConfigNode.BoolNode, ConfigNode.NullNode {

    /** @return where the value is written, from its first character to just after its last */
    SourceRange range();

    /** @return the JSON kind in the words diagnostics use: object, list, string, number, bool or null */
    String kind();

    /**
     * One property of a JSON object.
     *
     * @param key      the property name (unescaped)
     * @param keyRange where the name is written, quotes included
     * @param value    the property value
     */
    public record Entry(String key, SourceRange keyRange, ConfigNode value) {
        /** Checks the components are present. */
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(keyRange, "keyRange");
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * A JSON object: its properties in source order, repeated names included.
     *
     * @param entries the properties, in the order written
     * @param range   from the opening to just after the closing brace
     */
    public record ObjectNode(List<Entry> entries, SourceRange range) implements ConfigNode {
        /** Copies the entries. */
        public ObjectNode {
            entries = List.copyOf(entries);
            Objects.requireNonNull(range, "range");
        }

        @Override
        public String kind() {
            return "object";
        }

        /** @return the first property named {@code key}, if any */
        public Optional<Entry> first(String key) {
            return entries.stream().filter(e -> e.key().equals(key)).findFirst();
        }
    }

    /**
     * A JSON array.
     *
     * @param items the elements, in order
     * @param range from the opening to just after the closing bracket
     */
    public record ArrayNode(List<ConfigNode> items, SourceRange range) implements ConfigNode {
        /** Copies the items. */
        public ArrayNode {
            items = List.copyOf(items);
            Objects.requireNonNull(range, "range");
        }

        @Override
        public String kind() {
            return "list";
        }
    }

    /**
     * A JSON string (a template, when evaluated as an expression).
     *
     * @param value the unescaped content
     * @param range the literal, quotes included
     */
    public record StringNode(String value, SourceRange range) implements ConfigNode {
        /** Checks the components are present. */
        public StringNode {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(range, "range");
        }

        @Override
        public String kind() {
            return "string";
        }
    }

    /**
     * A JSON number.
     *
     * @param value   the exact value
     * @param literal the number as written (e.g. {@code 1.50}, {@code 1e3}), for formatting
     * @param range   the literal
     */
    public record NumberNode(BigDecimal value, String literal, SourceRange range) implements ConfigNode {
        /** Checks the components are present. */
        public NumberNode {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(literal, "literal");
            Objects.requireNonNull(range, "range");
        }

        @Override
        public String kind() {
            return "number";
        }
    }

    /**
     * {@code true} or {@code false}.
     *
     * @param value the value
     * @param range the literal
     */
    public record BoolNode(boolean value, SourceRange range) implements ConfigNode {
        /** Checks the range is present. */
        public BoolNode {
            Objects.requireNonNull(range, "range");
        }

        @Override
        public String kind() {
            return "bool";
        }
    }

    /**
     * {@code null}.
     *
     * @param range the literal
     */
    public record NullNode(SourceRange range) implements ConfigNode {
        /** Checks the range is present. */
        public NullNode {
            Objects.requireNonNull(range, "range");
        }

        @Override
        public String kind() {
            return "null";
        }
    }
}
