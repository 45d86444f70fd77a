package dev.flowform.config.lang;

import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.Suggestions;
import dev.flowform.diag.SourceRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Typed access to the arguments of one decoded block body.
 *
 * <p>Each getter evaluates the argument (as an expression or as a literal, depending on the block),
 * converts it to the type the argument needs, reports a located error when it cannot, and returns
 * null when the argument is absent, null, or wrong. It also remembers which arguments carried a
 * sensitive value, so callers can mark the configuration keys those values flow into.
 */
public final class Arguments {

    private final Blocks.Content content;
    private final Function<ConfigNode, Value> evaluate;
    private final Sink sink;
    private final Set<String> sensitive = new TreeSet<>();
    private final Map<String, Value> evaluated = new LinkedHashMap<>();
    private final Set<String> nulls = new TreeSet<>();

    /** Arguments of {@code content}, read with {@code evaluate} (null when it failed, already reported). */
    public Arguments(Blocks.Content content, Function<ConfigNode, Value> evaluate, Sink sink) {
        this.content = content;
        this.evaluate = evaluate;
        this.sink = sink;
    }

    /** @return true when the argument is written (whatever its value) */
    public boolean has(String name) {
        return content.attributes().containsKey(name);
    }

    /** @return where the argument's value is written, or null when absent */
    public SourceRange valueRange(String name) {
        ConfigNode.Entry e = content.attributes().get(name);
        return e == null ? null : e.value().range();
    }

    /** @return the names of arguments whose value was (or contained) a sensitive value */
    public Set<String> sensitiveArguments() {
        return Collections.unmodifiableSet(sensitive);
    }

    /**
     * @return true when the argument is not written or its value is null (Terraform treats both as
     *     "not set"); false when it has a value or its evaluation failed (already reported)
     */
    public boolean unset(String name) {
        if (!has(name)) {
            return true;
        }
        value(name);
        return nulls.contains(name);
    }

    /** @return the evaluated argument, or null when absent, null or failed; evaluated once */
    public Value value(String name) {
        ConfigNode.Entry e = content.attributes().get(name);
        if (e == null) {
            return null;
        }
        if (evaluated.containsKey(name)) {
            return evaluated.get(name);
        }
        Value v = evaluate.apply(e.value());
        if (v instanceof Value.NullValue) {
            nulls.add(name);
            v = null;
        }
        if (v != null && v.anySensitive()) {
            sensitive.add(name);
        }
        evaluated.put(name, v);
        return v;
    }

    private Value convert(String name, Value v, VarType type) {
        VarType.Converted c = type.convert(v);
        if (c.error() != null) {
            typeError(name, c.error(), v.range());
            return null;
        }
        return c.value();
    }

    private void typeError(String name, String error, SourceRange at) {
        sink.error("Incorrect attribute value type", "Inappropriate value for argument \"" + name + "\": " + error + ".", at);
    }

    /** @return the argument as a string (numbers and bools convert) */
    public String string(String name) {
        Value v = value(name);
        Value s = v == null ? null : convert(name, v, VarType.STRING);
        return s instanceof Value.StringValue str ? str.value() : null;
    }

    /** @return the argument, which must be written as a string (no conversion from numbers) */
    public String strictString(String name, String hint) {
        Value v = value(name);
        if (v == null) {
            return null;
        }
        if (v instanceof Value.StringValue s) {
            return s.value();
        }
        typeError(name, "expected string, got " + v.kind() + (hint.isEmpty() ? "" : " (" + hint + ")"), v.range());
        return null;
    }

    /** @return the argument as a bool ({@code "true"} and {@code "false"} convert) */
    public Boolean bool(String name) {
        Value v = value(name);
        Value b = v == null ? null : convert(name, v, VarType.BOOL);
        return b instanceof Value.BoolValue bool ? bool.value() : null;
    }

    /** @return the argument as a whole number of at least {@code min} and at most {@code max} */
    public Long whole(String name, long min, long max) {
        Value v = value(name);
        Value n = v == null ? null : convert(name, v, VarType.NUMBER);
        if (!(n instanceof Value.NumberValue number)) {
            return null;
        }
        Long exact = Numbers.exactLong(number.value());
        if (exact == null || exact < min || exact > max) {
            String range = max == Long.MAX_VALUE ? "of at least " + min : "between " + min + " and " + max;
            sink.error("Invalid value for argument", "\"" + name + "\" must be a whole number " + range + ", got "
                    + (number.sensitive() ? "a sensitive value" : Numbers.format(number.value())) + ".", number.range());
            return null;
        }
        return exact;
    }

    /** @return the argument, which must be one of {@code allowed} */
    public String oneOf(String name, List<String> allowed) {
        Value v = value(name);
        Value s = v == null ? null : convert(name, v, VarType.STRING);
        if (!(s instanceof Value.StringValue str)) {
            return null;
        }
        if (!allowed.contains(str.value())) {
            String given = str.sensitive() ? "A sensitive value" : "\"" + str.value() + "\"";
            sink.error("Invalid value for argument", given + " is not a valid value for \"" + name + "\": expected one of "
                    + quoted(allowed) + "." + (str.sensitive() ? "" : Suggestions.didYouMean(str.value(), allowed)), str.range());
            return null;
        }
        return str.value();
    }

    /** @return the argument as a list of strings; a single string is a one-element list */
    public List<String> stringList(String name) {
        Value v = value(name);
        if (v == null) {
            return null;
        }
        Value converted = convert(name, v instanceof Value.ListValue ? v : new Value.ListValue(List.of(v), v.range(), false),
                VarType.LIST_OF_STRING);
        if (!(converted instanceof Value.ListValue list)) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (Value item : list.items()) {
            if (item instanceof Value.NullValue) {
                typeError(name, "null is not allowed in a list of strings", item.range());
                return null;
            }
            out.add(((Value.StringValue) item).value());
        }
        return out;
    }

    /**
     * Reads an object of scalar values as configuration entries: strings as they are, numbers
     * without trailing zeros, bools as {@code true}/{@code false}.
     *
     * @param sensitiveKeys receives the keys whose values were sensitive
     * @return the entries in source order, or null when absent or wrong
     */
    public Map<String, String> stringMap(String name, Set<String> sensitiveKeys) {
        Value v = value(name);
        if (v == null) {
            return null;
        }
        if (!(v instanceof Value.ObjectValue object)) {
            typeError(name, "expected object, got " + v.kind(), v.range());
            return null;
        }
        return entries(name, object, sensitiveKeys);
    }

    /** Converts the members of an object of scalars into configuration entries; null on error. */
    public Map<String, String> entries(String name, Value.ObjectValue object, Set<String> sensitiveKeys) {
        Map<String, String> out = new LinkedHashMap<>();
        boolean failed = false;
        for (Value.Member m : object.members()) {
            Value item = m.value();
            if (item instanceof Value.NullValue) {
                sink.error("Invalid value for argument", "The key \"" + m.key() + "\" of \"" + name + "\" is null; remove the key "
                        + "instead.", item.range());
                failed = true;
                continue;
            }
            if (item instanceof Value.ListValue || item instanceof Value.ObjectValue) {
                typeError(name, "the key \"" + m.key() + "\" must be a string, number or bool, got " + item.kind(), item.range());
                failed = true;
                continue;
            }
            out.put(m.key(), ((Value.StringValue) VarType.STRING.convert(item).value()).value());
            if (item.anySensitive()) {
                sensitiveKeys.add(m.key());
            }
        }
        return failed ? null : out;
    }

    /** @return the argument as an object, or null when absent or wrong */
    public Value.ObjectValue object(String name) {
        Value v = value(name);
        if (v == null) {
            return null;
        }
        if (v instanceof Value.ObjectValue object) {
            return object;
        }
        typeError(name, "expected object, got " + v.kind(), v.range());
        return null;
    }

    /** @return the argument as raw JSON data (an object), or null when absent or wrong */
    public Map<String, Object> raw(String name) {
        Value.ObjectValue object = object(name);
        if (object == null) {
            return null;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) object.toJava();
        return map;
    }

    /** @return the values in double quotes, separated by commas, for messages: {@code "a", "b"} */
    public static String quoted(List<String> values) {
        List<String> out = new ArrayList<>();
        for (String v : values) {
            out.add("\"" + v + "\"");
        }
        return String.join(", ", out);
    }
}
