package dev.flowform.config.module;

import dev.flowform.config.lang.Evaluator;
import dev.flowform.config.lang.ValidationExpression;
import dev.flowform.config.lang.Value;
import dev.flowform.config.lang.VarType;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.JsonSourceParser;
import dev.flowform.config.syntax.ParsedFile;
import dev.flowform.config.syntax.Sink;
import dev.flowform.config.syntax.SourceText;
import dev.flowform.diag.Suggestions;
import dev.flowform.diag.Diagnostics;
import dev.flowform.diag.SourceRange;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The values of the root module's input variables for one run, by Terraform's precedence (default, the environment's
 * {@code variables}, {@code FLOWFORM_VAR_<name>}, {@code --var-file}, {@code --var}), converted to the variable's type;
 * a value that cannot be is reported where given and leaves the variable unknown (docs/configuration.md, "Variables").
 */
public final class InputVariables {

    /** Prefix of process environment variables that set input variables, like Terraform's {@code TF_VAR_}. */
    public static final String ENV_PREFIX = "FLOWFORM_VAR_";

    /** One {@code validation} rule of a variable: its condition, the message when it is false, where it is written. */
    public record Validation(ValidationExpression condition, String errorMessage, SourceRange conditionRange) {
    }

    /**
     * A declared variable.
     *
     * @param type         the type constraint ({@link VarType#ANY} when {@code type} is omitted)
     * @param defaultValue the default converted to the type, or null when there is none (a {@code null}
     *                     default is a {@link Value.NullValue})
     * @param sensitive    {@code sensitive = true}
     * @param nullable     {@code nullable} (default true)
     * @param validations  the {@code validation} rules that parsed
     * @param failed       the declaration has an error, so the value is unknown
     */
    public record Declaration(String name, Blocks.Block block, VarType type, Value defaultValue, boolean sensitive,
                       boolean nullable, List<Validation> validations, boolean failed) {
        /** Copies the validations. */
        public Declaration {
            validations = List.copyOf(validations);
        }

        /** @return the default when it can stand in for a value: present and, when not nullable, not null */
        public Value usableDefault() {
            if (defaultValue == null || (!nullable && defaultValue instanceof Value.NullValue)) {
                return null;
            }
            return defaultValue;
        }
    }

    /**
     * One source of values, e.g. an environment's {@code variables}: how messages name it ({@code environment "prod"}),
     * the converted values it sets, and the names whose values could not be converted (already reported).
     */
    public record Source(String origin, Map<String, Value> values, Set<String> failed) {
    }

    private final Map<String, Value> values;
    private final Map<String, String> origins;

    private InputVariables(Map<String, Value> values, Map<String, String> origins) {
        this.values = values;
        this.origins = origins;
    }

    /**
     * Resolves every declared variable.
     *
     * @param sources       the sources of values, lowest precedence first
     * @param howToSet      the end of the "set it with ..." hint for variables without a value
     * @param reportMissing whether to report variables with no value (false when the environment could not be chosen,
     *                      since its values are unknown)
     * @return the resolved values
     */
    public static InputVariables resolve(Map<String, Declaration> declarations, List<Source> sources, String howToSet,
                                  boolean reportMissing, Sink sink) {
        Map<String, Value> values = new LinkedHashMap<>();
        Map<String, String> origins = new LinkedHashMap<>();
        for (Declaration d : declarations.values()) {
            if (d.failed()) {
                continue;
            }
            Value value = d.defaultValue();
            String origin = "the default";
            boolean fromDefault = true;
            boolean failed = false;
            for (Source source : sources) {
                if (source.failed().contains(d.name())) {
                    failed = true;
                    value = null;
                    origin = source.origin();
                    fromDefault = false;
                } else if (source.values().containsKey(d.name())) {
                    failed = false;
                    value = source.values().get(d.name());
                    origin = source.origin();
                    fromDefault = false;
                }
            }
            if (value instanceof Value.NullValue && !d.nullable()) {
                Value fallback = d.usableDefault();
                if (fallback != null) {
                    value = fallback;
                    origin = "the default";
                } else if (fromDefault) {
                    // a null default on a variable that is not nullable makes the variable required
                    value = null;
                } else {
                    sink.error("Invalid value for input variable", "The value of variable \"" + d.name() + "\" from " + origin
                            + " is null, but the variable is declared with nullable = false and has no default to use instead.",
                            value.range() != null ? value.range() : d.block().labelRange());
                    failed = true;
                    value = null;
                }
            }
            if (value != null) {
                values.put(d.name(), d.sensitive() ? value.relocate(value.range(), true) : value);
                origins.put(d.name(), origin);
            } else if (!failed && reportMissing) {
                sink.error("No value for required variable", "The input variable \"" + d.name() + "\" has no default and no "
                        + "value was given. Set it with --var " + d.name() + "=... or " + howToSet + " (or with a --var-file, "
                        + "or the environment variable " + ENV_PREFIX + d.name() + ").", d.block().labelRange());
            }
        }
        return new InputVariables(values, origins);
    }

    /** @return the value of {@code name}, or null when it is unknown (no value, or a failed one) */
    public Value value(String name) {
        return values.get(name);
    }

    /** @return where the value of {@code name} came from, e.g. {@code the default} or {@code --var}; null when unknown */
    public String origin(String name) {
        return origins.get(name);
    }

    /** @return the values environment {@code environmentName}'s {@code variables} object sets (null: none), checked */
    public static Source fromEnvironment(Map<String, Declaration> declarations, String environmentName, Value.ObjectValue variables,
                                  Sink sink) {
        String origin = "environment \"" + environmentName + "\"";
        Map<String, Value> values = new LinkedHashMap<>();
        Set<String> failed = new TreeSet<>();
        if (variables == null) {
            return new Source(origin, values, failed);
        }
        for (Value.Member m : variables.members()) {
            Declaration d = declarations.get(m.key());
            if (d == null) {
                sink.error("Value for undeclared variable", "Environment \"" + environmentName + "\" sets the variable \""
                        + m.key() + "\", which is not declared." + Suggestions.didYouMean(m.key(), declarations.keySet())
                        + " Declare it with {\"variable\": {\"" + m.key() + "\": {}}}.", m.keyRange());
                continue;
            }
            convertInto(d, m.value(), "Environment \"" + environmentName + "\" sets \"" + m.key() + "\" to", values, failed, sink);
        }
        return new Source(origin, values, failed);
    }

    /**
     * @return the values of one {@code --var-file} (a JSON object of variable values, like Terraform's
     *         {@code .tfvars.json}), checked; a value for an undeclared variable is only a warning, as in Terraform,
     *         since variable files are often shared between configurations
     */
    public static Source fromVarFile(Map<String, Declaration> declarations, ParsedFile file, Sink sink) {
        String origin = "--var-file " + file.filename();
        Map<String, Value> values = new LinkedHashMap<>();
        Set<String> failed = new TreeSet<>();
        Map<String, SourceRange> seen = new TreeMap<>();
        for (ConfigNode.Entry e : file.root().entries()) {
            if (e.key().equals(Blocks.COMMENT)) {
                continue;
            }
            SourceRange first = seen.putIfAbsent(e.key(), e.keyRange());
            if (first != null) {
                sink.error("Duplicate variable value", "The variable \"" + e.key() + "\" was already set at " + first
                        + " in this file.", e.keyRange());
                continue;
            }
            Declaration d = declarations.get(e.key());
            if (d == null) {
                sink.warning("Value for undeclared variable", "The variable file sets \"" + e.key() + "\", which is not "
                        + "declared; the value is ignored." + Suggestions.didYouMean(e.key(), declarations.keySet()), e.keyRange());
                continue;
            }
            Value literal = Evaluator.literal(e.value(), "a variable file", sink);
            if (literal == null) {
                failed.add(e.key());
                continue;
            }
            convertInto(d, literal, "The variable file sets \"" + e.key() + "\" to", values, failed, sink);
        }
        return new Source(origin, values, failed);
    }

    private static void convertInto(Declaration d, Value raw, String what, Map<String, Value> values, Set<String> failed,
                                    Sink sink) {
        VarType.Converted c = d.type().convert(raw);
        if (c.error() != null) {
            sink.error("Invalid value for input variable", what + " a value that does not fit its type " + d.type().describe()
                    + ": " + c.error() + ".", raw.range());
            failed.add(d.name());
        } else {
            values.put(d.name(), c.value());
        }
    }

    /**
     * @return the values of the {@code FLOWFORM_VAR_<name>} variables of the process {@code environment}; names match
     *         exactly, undeclared ones are ignored, as Terraform ignores unused {@code TF_VAR_}s
     */
    public static Source fromProcessEnvironment(Map<String, Declaration> declarations, Map<String, String> environment, Sink sink) {
        Map<String, Value> values = new LinkedHashMap<>();
        Set<String> failed = new TreeSet<>();
        for (Map.Entry<String, String> e : new TreeMap<>(environment).entrySet()) {
            if (e.getKey() == null || !e.getKey().startsWith(ENV_PREFIX)) {
                continue;
            }
            String name = e.getKey().substring(ENV_PREFIX.length());
            Declaration d = declarations.get(name);
            if (d == null) {
                continue;
            }
            Value parsed = parseText(d, e.getValue() == null ? "" : e.getValue(), "the environment variable " + e.getKey(), sink);
            if (parsed == null) {
                failed.add(name);
            } else {
                values.put(name, parsed);
            }
        }
        return new Source("environment variable " + ENV_PREFIX + "*", values, failed);
    }

    /** @return the values of the {@code --var name=value} pairs (last per name); an undeclared name is an error */
    public static Source fromCommandLine(Map<String, Declaration> declarations, Map<String, String> cliValues, Sink sink) {
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
            Value parsed = parseText(d, text, "--var " + name, sink);
            if (parsed == null) {
                failed.add(name);
            } else {
                values.put(name, parsed);
            }
        }
        return new Source("--var", values, failed);
    }

    /** Parses a value given as text: JSON for list, map and object types, else the text converted to the type. */
    private static Value parseText(Declaration d, String text, String given, Sink sink) {
        VarType type = d.type();
        Value raw;
        if (type.isComplex()) {
            Diagnostics syntax = new Diagnostics();
            ConfigNode node = JsonSourceParser.parseValue(new SourceText(given, text), syntax);
            if (node == null) {
                String example = type.kind() == VarType.Kind.LIST ? "[\"a\",\"b\"]" : "{\"k\":\"v\"}";
                sink.error("Invalid value for input variable", "The value of " + given + " must be JSON for the type "
                        + type.describe() + ", e.g. " + example + ": " + syntax.list().get(0).detail(), null);
                return null;
            }
            raw = Value.literal(node).relocate(null, false);
        } else {
            raw = new Value.StringValue(text, null, false);
        }
        VarType.Converted c = type.convert(raw);
        if (c.error() != null) {
            sink.error("Invalid value for input variable", "The value of " + given + " does not fit the type "
                    + type.describe() + " of variable \"" + d.name() + "\": " + c.error() + ".", null);
            return null;
        }
        return c.value();
    }

    /**
     * Collects every non-empty string inside {@code v} into {@code out}, so output layers can mask
     * the content of sensitive values wherever it appears.
     */
    public static void collectStrings(Value v, Set<String> out) {
        if (v instanceof Value.StringValue s && !s.value().isEmpty()) {
            out.add(s.value());
        } else if (v instanceof Value.ListValue list) {
            list.items().forEach(item -> collectStrings(item, out));
        } else if (v instanceof Value.ObjectValue object) {
            object.members().forEach(m -> collectStrings(m.value(), out));
        }
    }
}
