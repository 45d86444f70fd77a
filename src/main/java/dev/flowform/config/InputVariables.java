package dev.flowform.config;

import dev.flowform.diag.Diagnostics;
import dev.flowform.diag.SourceRange;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The values of the input variables for one run, and the {@link Evaluator.Scope} that resolves
 * {@code ${var.name}} against them.
 *
 * <p>Each variable's value comes from the highest-precedence source that sets it, lowest first:
 * the {@code default}, the selected environment's {@code variables}, then {@code --var} on the
 * command line. Every value is converted to the variable's type; a value that cannot be converted is
 * reported where it was given and leaves the variable unknown, so references to it fail quietly
 * instead of reporting the same problem again.
 */
final class InputVariables implements Evaluator.Scope {

    /**
     * A declared variable.
     *
     * @param name         the label
     * @param block        the block, for locations
     * @param type         the type constraint ({@link VarType#ANY} when {@code type} is omitted)
     * @param defaultValue the default converted to the type, or null when there is none
     * @param sensitive    {@code sensitive = true}
     * @param failed       the declaration has an error, so the value is unknown
     */
    record Declaration(String name, Blocks.Block block, VarType type, Value defaultValue, boolean sensitive, boolean failed) {
    }

    /**
     * One source of values, e.g. an environment's {@code variables}.
     *
     * @param values the converted values it sets
     * @param failed the names it sets to values that could not be converted (already reported)
     */
    record Source(Map<String, Value> values, Set<String> failed) {
    }

    private final Map<String, Declaration> declarations;
    private final Map<String, Value> values;

    private InputVariables(Map<String, Declaration> declarations, Map<String, Value> values) {
        this.declarations = declarations;
        this.values = values;
    }

    /**
     * Resolves every declared variable.
     *
     * @param declarations       the variables by name
     * @param environment        the selected environment's values, or null when none is selected
     * @param environmentName    the selected environment's name, or null
     * @param cliValues          {@code --var name=value} pairs
     * @param reportMissing      whether to report variables with no value (false when the environment could not be chosen,
     *                           since its values are unknown)
     * @param sink               receives problems
     * @return the resolved values
     */
    static InputVariables resolve(Map<String, Declaration> declarations, Source environment, String environmentName,
                                  Map<String, String> cliValues, boolean reportMissing, Sink sink) {
        Source cli = fromCommandLine(declarations, cliValues, sink);
        Map<String, Value> values = new LinkedHashMap<>();
        for (Declaration d : declarations.values()) {
            if (d.failed()) {
                continue;
            }
            Value value = d.defaultValue();
            boolean failed = false;
            for (Source source : environment == null ? List.of(cli) : List.of(environment, cli)) {
                if (source.failed().contains(d.name())) {
                    failed = true;
                    value = null;
                } else if (source.values().containsKey(d.name())) {
                    failed = false;
                    value = source.values().get(d.name());
                }
            }
            if (value != null) {
                values.put(d.name(), d.sensitive() ? value.relocate(value.range(), true) : value);
            } else if (!failed && reportMissing) {
                String where = environmentName == null ? "an environment's variables"
                        : "the variables of environment \"" + environmentName + "\"";
                sink.error("No value for required variable", "The input variable \"" + d.name() + "\" has no default and no "
                        + "value was given. Set it with --var " + d.name() + "=... or in " + where + ".", d.block().labelRange());
            }
        }
        return new InputVariables(declarations, values);
    }

    /**
     * Checks and converts the values one environment sets.
     *
     * @param environmentName the environment's name, for messages
     * @param variables       its {@code variables} object (literal), or null when absent
     * @return the source, with the names whose values failed
     */
    static Source fromEnvironment(Map<String, Declaration> declarations, String environmentName, Value.ObjectValue variables,
                                  Sink sink) {
        Map<String, Value> values = new LinkedHashMap<>();
        Set<String> failed = new TreeSet<>();
        if (variables == null) {
            return new Source(values, failed);
        }
        for (Value.Member m : variables.members()) {
            Declaration d = declarations.get(m.key());
            if (d == null) {
                sink.error("Value for undeclared variable", "Environment \"" + environmentName + "\" sets the variable \""
                        + m.key() + "\", which is not declared." + Suggestions.didYouMean(m.key(), declarations.keySet())
                        + " Declare it with {\"variable\": {\"" + m.key() + "\": {}}}.", m.keyRange());
                continue;
            }
            VarType.Converted c = d.type().convert(m.value());
            if (c.error() != null) {
                sink.error("Invalid value for input variable", "Environment \"" + environmentName + "\" sets \"" + m.key()
                        + "\" to a value that does not fit its type " + d.type() + ": " + c.error() + ".", m.value().range());
                failed.add(m.key());
            } else {
                values.put(m.key(), c.value());
            }
        }
        return new Source(values, failed);
    }

    private static Source fromCommandLine(Map<String, Declaration> declarations, Map<String, String> cliValues, Sink sink) {
        Map<String, Value> values = new LinkedHashMap<>();
        Set<String> failed = new TreeSet<>();
        Map<String, String> named = new TreeMap<>();
        cliValues.forEach((k, v) -> {
            if (k == null || k.isEmpty()) {
                sink.error("Invalid --var", "Every --var needs a variable name: write --var name=value.", null);
            } else {
                named.put(k, v);
            }
        });
        for (Map.Entry<String, String> e : named.entrySet()) {
            String name = e.getKey();
            String text = e.getValue() == null ? "" : e.getValue();
            Declaration d = declarations.get(name);
            if (d == null) {
                sink.error("Value for undeclared variable", "--var " + name + "=... sets a variable that is not declared."
                        + Suggestions.didYouMean(name, declarations.keySet()) + " Declare it with {\"variable\": {\"" + name
                        + "\": {}}}.", null);
                continue;
            }
            Value parsed = parseCommandLine(d, text, sink);
            if (parsed == null) {
                failed.add(name);
            } else {
                values.put(name, parsed);
            }
        }
        return new Source(values, failed);
    }

    private static Value parseCommandLine(Declaration d, String text, Sink sink) {
        VarType type = d.type();
        Value raw;
        if (type.kind() == VarType.Kind.LIST || type.kind() == VarType.Kind.MAP) {
            Diagnostics syntax = new Diagnostics();
            ConfigNode node = JsonSourceParser.parseValue(new SourceText("--var " + d.name(), text), syntax);
            if (node == null) {
                String example = type.kind() == VarType.Kind.LIST ? "'" + d.name() + "=[\"a\",\"b\"]'" : "'" + d.name() + "={\"k\":\"v\"}'";
                sink.error("Invalid value for input variable", "--var " + d.name() + " must be JSON for the type " + type
                        + ", e.g. --var " + example + ": " + syntax.list().get(0).detail(), null);
                return null;
            }
            raw = Value.literal(node).relocate(null, false);
        } else {
            raw = new Value.StringValue(text, null, false);
        }
        VarType.Converted c = type.convert(raw);
        if (c.error() != null) {
            sink.error("Invalid value for input variable", "The value given with --var " + d.name() + " does not fit its type "
                    + type + ": " + c.error() + ".", null);
            return null;
        }
        return c.value();
    }

    @Override
    public Value resolve(Template.Reference reference, SourceRange at, Sink sink) {
        if (!reference.root().equals("var")) {
            String what = switch (reference.root()) {
                case "local" -> "Local values (local.*) are";
                case "module" -> "Modules (module.*) are";
                default -> "References to the environment (environment.*) are";
            };
            sink.error("Unsupported reference", what + " not supported yet in this version of flowform; only ${var.name} is.", at);
            return null;
        }
        if (reference.names().size() != 1) {
            sink.error("Unsupported expression", "${" + reference.text() + "}: a variable is referenced by its name alone, "
                    + "e.g. ${var." + reference.names().get(0) + "}; attribute access is not supported.", at);
            return null;
        }
        String name = reference.names().get(0);
        if (!declarations.containsKey(name)) {
            sink.error("Reference to undeclared input variable", "An input variable with the name \"" + name
                    + "\" has not been declared." + Suggestions.didYouMean(name, declarations.keySet())
                    + " Declare it with {\"variable\": {\"" + name + "\": {}}}.", at);
            return null;
        }
        return values.get(name);
    }

    /**
     * @return every non-empty string inside the values of sensitive variables, so output layers can
     *     mask them wherever they appear
     */
    Set<String> sensitiveValues() {
        Set<String> out = new TreeSet<>();
        for (Declaration d : declarations.values()) {
            Value v = values.get(d.name());
            if (d.sensitive() && v != null) {
                collectStrings(v, out);
            }
        }
        return out;
    }

    private static void collectStrings(Value v, Set<String> out) {
        if (v instanceof Value.StringValue s && !s.value().isEmpty()) {
            out.add(s.value());
        } else if (v instanceof Value.ListValue list) {
            list.items().forEach(item -> collectStrings(item, out));
        } else if (v instanceof Value.ObjectValue object) {
            object.members().forEach(m -> collectStrings(m.value(), out));
        }
    }
}
