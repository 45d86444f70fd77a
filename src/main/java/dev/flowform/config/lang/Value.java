package dev.flowform.config.lang;

import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.diag.SourceRange;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The result of evaluating an expression: a typed value that remembers where it came from and
 * whether it carries a sensitive variable's content (Terraform's "sensitive mark").
 *
 * <p>{@link ConfigNode} is what was written; {@code Value} is what it means once templates and
 * references are resolved. A reference written as a whole string ({@code "${var.replicas}"}) yields
 * the variable's value relocated to the place of use, so type errors point at that place. Ranges are
 * null only for values given on the command line.
 */
public sealed interface Value permits Value.StringValue, Value.NumberValue, Value.BoolValue, Value.NullValue,
        Value.ListValue, Value.ObjectValue {

    /** @return where the value was written or used, or null for command-line values */
    SourceRange range();

    /** @return true when this value itself is marked sensitive */
    boolean sensitive();

    /** @return the kind in the words diagnostics use: string, number, bool, null, list or object */
    String kind();

    /** @return a copy located at {@code at} everywhere, marked sensitive everywhere when {@code mark} is set */
    Value relocate(SourceRange at, boolean mark);

    /** @return true when this value or anything inside it is marked sensitive */
    default boolean anySensitive() {
        if (sensitive()) {
            return true;
        }
        if (this instanceof ListValue list) {
            return list.items().stream().anyMatch(Value::anySensitive);
        }
        if (this instanceof ObjectValue object) {
            return object.members().stream().anyMatch(m -> m.value().anySensitive());
        }
        return false;
    }

    /**
     * @return the value as plain Java data for raw JSON output: String, Long / BigInteger / BigDecimal,
     *     Boolean, null, unmodifiable List and insertion-ordered unmodifiable Map
     */
    default Object toJava() {
        if (this instanceof StringValue s) {
            return s.value();
        }
        if (this instanceof NumberValue n) {
            return Numbers.toJava(n.value());
        }
        if (this instanceof BoolValue b) {
            return b.value();
        }
        if (this instanceof ListValue list) {
            return list.items().stream().map(Value::toJava).toList();
        }
        if (this instanceof ObjectValue object) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Member m : object.members()) {
                out.put(m.key(), m.value().toJava());
            }
            return Collections.unmodifiableMap(out);
        }
        return null;
    }

    /** @return the literal meaning of {@code node}: strings are not templates */
    public static Value literal(ConfigNode node) {
        if (node instanceof ConfigNode.StringNode s) {
            return new StringValue(s.value(), s.range(), false);
        }
        if (node instanceof ConfigNode.NumberNode n) {
            return new NumberValue(n.value(), n.range(), false);
        }
        if (node instanceof ConfigNode.BoolNode b) {
            return new BoolValue(b.value(), b.range(), false);
        }
        if (node instanceof ConfigNode.ArrayNode a) {
            return new ListValue(a.items().stream().map(Value::literal).toList(), a.range(), false);
        }
        if (node instanceof ConfigNode.ObjectNode o) {
            return new ObjectValue(o.entries().stream().map(e -> new Member(e.key(), e.keyRange(), literal(e.value())))
                    .toList(), o.range(), false);
        }
        return new NullValue(node.range(), false);
    }

    /** A string; {@code range} and {@code sensitive} as in {@link Value}. */
    public record StringValue(String value, SourceRange range, boolean sensitive) implements Value {
        /** Checks the value is present. */
        public StringValue {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String kind() {
            return "string";
        }

        @Override
        public Value relocate(SourceRange at, boolean mark) {
            return new StringValue(value, at, sensitive || mark);
        }
    }

    /** A number of arbitrary size and precision; {@code range} and {@code sensitive} as in {@link Value}. */
    public record NumberValue(BigDecimal value, SourceRange range, boolean sensitive) implements Value {
        /** Checks the value is present. */
        public NumberValue {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String kind() {
            return "number";
        }

        @Override
        public Value relocate(SourceRange at, boolean mark) {
            return new NumberValue(value, at, sensitive || mark);
        }
    }

    /** A boolean; {@code range} and {@code sensitive} as in {@link Value}. */
    public record BoolValue(boolean value, SourceRange range, boolean sensitive) implements Value {
        @Override
        public String kind() {
            return "bool";
        }

        @Override
        public Value relocate(SourceRange at, boolean mark) {
            return new BoolValue(value, at, sensitive || mark);
        }
    }

    /** Null: "not set"; an argument whose value is null is treated as absent. */
    public record NullValue(SourceRange range, boolean sensitive) implements Value {
        @Override
        public String kind() {
            return "null";
        }

        @Override
        public Value relocate(SourceRange at, boolean mark) {
            return new NullValue(at, sensitive || mark);
        }
    }

    /** A list (a JSON array); {@code range} and {@code sensitive} as in {@link Value}. */
    public record ListValue(List<Value> items, SourceRange range, boolean sensitive) implements Value {
        /** Copies the items. */
        public ListValue {
            items = List.copyOf(items);
        }

        @Override
        public String kind() {
            return "list";
        }

        @Override
        public Value relocate(SourceRange at, boolean mark) {
            return new ListValue(items.stream().map(item -> item.relocate(at, mark)).toList(), at, sensitive || mark);
        }
    }

    /** An object (a JSON object used as a value), members in source order; other components as in {@link Value}. */
    public record ObjectValue(List<Member> members, SourceRange range, boolean sensitive) implements Value {
        /** Copies the members. */
        public ObjectValue {
            members = List.copyOf(members);
        }

        @Override
        public String kind() {
            return "object";
        }

        @Override
        public Value relocate(SourceRange at, boolean mark) {
            List<Member> moved = members.stream().map(m -> new Member(m.key(), at, m.value().relocate(at, mark))).toList();
            return new ObjectValue(moved, at, sensitive || mark);
        }
    }

    /** One attribute of an {@link ObjectValue}: its name, where the name is written (or null), and its value. */
    public record Member(String key, SourceRange keyRange, Value value) {
        /** Checks the key and value are present. */
        public Member {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }
    }
}
