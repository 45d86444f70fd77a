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

    /** One property of a JSON object: its unescaped name, where the name is written (quotes included), its value. */
    public record Entry(String key, SourceRange keyRange, ConfigNode value) {
        /** Checks the components are present. */
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(keyRange, "keyRange");
            Objects.requireNonNull(value, "value");
        }
    }

    /** A JSON object: its properties in the order written, repeated names included. */
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

    /** A JSON array: its elements in order. */
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

    /** A JSON string, unescaped (a template, when evaluated as an expression); its range includes the quotes. */
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

    /** A JSON number: its exact value and, for formatting, the literal as written (e.g. {@code 1.50}, {@code 1e3}). */
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

    /** {@code true} or {@code false}. */
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

    /** {@code null}. */
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
