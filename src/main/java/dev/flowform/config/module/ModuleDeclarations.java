package dev.flowform.config.module;

import dev.flowform.config.lang.Arguments;
import dev.flowform.config.lang.Evaluator;
import dev.flowform.config.lang.ValidationExpression;
import dev.flowform.config.lang.Value;
import dev.flowform.config.lang.VarType;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Names;
import dev.flowform.config.syntax.Sink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decodes what one module instance declares: its {@code variable}, {@code locals} and {@code output} blocks.
 * Variable blocks are literal (their values are read before any expression is evaluated); a {@code validation}
 * condition is parsed here and must refer to its own variable (Terraform's rule). Problems go to the sink,
 * tagged with the declaration's address.
 */
final class ModuleDeclarations {

    private static final Blocks.Schema VARIABLE = new Blocks.Schema("variable",
            List.of("type", "default", "description", "sensitive", "nullable"), List.of("validation"),
            Map.of("ephemeral", "\"ephemeral\" is not supported in this version of flowform: flowform keeps no variable "
                    + "values in its state anyway."));
    private static final Blocks.Schema VALIDATION = new Blocks.Schema("validation",
            List.of("condition", "error_message"), List.of(), Map.of());
    private static final Blocks.Schema OUTPUT = new Blocks.Schema("output",
            List.of("value", "description", "sensitive"), List.of(),
            Map.of("depends_on", "\"depends_on\" is not supported in this version of flowform: outputs depend on what their "
                            + "value refers to.",
                    "precondition", "Output preconditions are not supported in this version of flowform; use a variable "
                            + "validation instead."));

    /** Names a variable cannot have, because module blocks use them (Terraform reserves the same). */
    static final Set<String> RESERVED_VARIABLE_NAMES = Set.of("source", "version", "providers", "count", "for_each",
            "depends_on", "lifecycle", "locals");

    private final String prefix;
    private final Sink sink;

    /** Declarations of the module with address prefix {@code prefix} ({@code ""} or {@code module.m.}). */
    ModuleDeclarations(String prefix, Sink sink) {
        this.prefix = prefix;
        this.sink = sink;
    }

    /** @return the {@code variable} blocks decoded, by name; invalid, repeated and reserved names are reported and left out */
    Map<String, InputVariables.Declaration> variables(List<Blocks.Block> blocks) {
        Map<String, InputVariables.Declaration> variables = new TreeMap<>();
        for (Blocks.Block b : Names.unique(blocks, Names.IDENTIFIER, "variable", prefix, sink).values()) {
            if (RESERVED_VARIABLE_NAMES.contains(b.name())) {
                sink.error("Invalid variable name", "The variable name \"" + b.name() + "\" is reserved: it has a meaning of "
                        + "its own in module blocks.", b.labelRange());
                continue;
            }
            InputVariables.Declaration d = variable(b);
            variables.put(d.name(), d);
        }
        return variables;
    }

    /** @return the local value definitions of every {@code locals} block, by name, in source order */
    Map<String, ConfigNode.Entry> locals(List<Blocks.Block> blocks) {
        Map<String, ConfigNode.Entry> locals = new LinkedHashMap<>();
        for (Blocks.Block b : blocks) {
            for (ConfigNode.Entry e : b.body().entries()) {
                if (e.key().equals(Blocks.COMMENT)) {
                    continue;
                }
                if (!Names.IDENTIFIER.matcher(e.key()).matches()) {
                    sink.error("Invalid local value name", "\"" + Names.abbreviate(e.key()) + "\" is not a valid local value "
                            + "name: a name must start with a letter or underscore and contain only letters, digits, "
                            + "underscores and dashes.", e.keyRange());
                    continue;
                }
                ConfigNode.Entry first = locals.putIfAbsent(e.key(), e);
                if (first != null) {
                    sink.error("Duplicate local value definition", "A local value named \"" + e.key() + "\" was already "
                            + "defined at " + first.keyRange() + ". Local value names must be unique within a module.",
                            e.keyRange());
                }
            }
        }
        return locals;
    }

    /** @return the {@code output} blocks decoded, by name, in source order */
    Map<String, ModuleInstance.OutputDecl> outputs(List<Blocks.Block> blocks) {
        Map<String, ModuleInstance.OutputDecl> outputs = new LinkedHashMap<>();
        for (Blocks.Block b : Names.unique(blocks, Names.IDENTIFIER, "output", prefix, sink).values()) {
            Sink s = sink.at(prefix + "output." + b.name());
            Blocks.Content content = Blocks.decode(b, OUTPUT, s);
            Arguments args = new Arguments(content, n -> Evaluator.literal(n, "an output's description", s), s);
            String description = content.attributes().containsKey("description")
                    ? args.strictString("description", "") : null;
            Boolean sensitive = args.bool("sensitive");
            ConfigNode.Entry value = content.attributes().get("value");
            if (value == null) {
                s.error("Missing required argument", "The argument \"value\" is required in an output block: it is what the "
                        + "output shows.", b.labelRange());
            }
            outputs.put(b.name(), new ModuleInstance.OutputDecl(b.name(), b, value == null ? null : value.value(), description,
                    Boolean.TRUE.equals(sensitive)));
        }
        return outputs;
    }

    private InputVariables.Declaration variable(Blocks.Block b) {
        long errorsBefore = sink.errorCount();
        Sink s = sink.at(prefix + "var." + b.name());
        Blocks.Content content = Blocks.decode(b, VARIABLE, s);
        Arguments args = new Arguments(content, n -> Evaluator.literal(n, "a variable block", s), s);
        VarType type = VarType.ANY;
        String typeText = args.strictString("type", "write the type as a string, e.g. \"number\" or \"list(string)\"");
        if (typeText != null) {
            VarType.Parsed parsed = VarType.parse(typeText);
            if (parsed.type() == null) {
                s.error("Invalid type specification", parsed.error(), content.attributes().get("type").value().range());
            } else {
                type = parsed.type();
            }
        }
        args.strictString("description", "");
        Boolean sensitive = args.bool("sensitive");
        Boolean nullable = args.bool("nullable");
        Value defaultValue = defaultValue(content.attributes().get("default"), type, s);
        List<InputVariables.Validation> validations = new ArrayList<>();
        for (Blocks.Block v : content.nested("validation")) {
            InputVariables.Validation validation = validation(b.name(), v, s);
            if (validation != null) {
                validations.add(validation);
            }
        }
        boolean failed = sink.errorCount() > errorsBefore || !Names.IDENTIFIER.matcher(b.name()).matches();
        return new InputVariables.Declaration(b.name(), b, type, defaultValue, Boolean.TRUE.equals(sensitive),
                nullable == null || nullable, validations, failed);
    }

    /** @return the {@code default} converted to the type, or null when absent or wrong (reported) */
    private static Value defaultValue(ConfigNode.Entry defaultEntry, VarType type, Sink s) {
        if (defaultEntry == null) {
            return null;
        }
        Value literal = Evaluator.literal(defaultEntry.value(), "a variable block", s);
        if (literal == null) {
            return null;
        }
        VarType.Converted c = type.convert(literal);
        if (c.error() != null) {
            s.error("Invalid default value for variable", "This default value does not fit the variable's type "
                    + type.describe() + ": " + c.error() + ".", defaultEntry.value().range());
            return null;
        }
        return c.value();
    }

    private InputVariables.Validation validation(String variable, Blocks.Block block, Sink s) {
        Blocks.Content content = Blocks.decode(block, VALIDATION, s);
        ConfigNode.Entry condition = content.attributes().get("condition");
        ConfigNode.Entry message = content.attributes().get("error_message");
        boolean ok = true;
        for (String required : List.of("condition", "error_message")) {
            if (!content.attributes().containsKey(required)) {
                s.error("Missing required argument", "The argument \"" + required + "\" is required in a validation block: "
                        + "{\"condition\": \"${length(var." + variable + ") > 0}\", \"error_message\": \"...\"}.", block.body().range());
                ok = false;
            }
        }
        String messageText = null;
        if (message != null) {
            if (message.value() instanceof ConfigNode.StringNode str && !str.value().isBlank()) {
                messageText = str.value();
            } else {
                s.error("Invalid validation error message", "The error_message must be a non-empty string that tells the user "
                        + "what a valid value looks like.", message.value().range());
                ok = false;
            }
        }
        ValidationExpression parsed = condition == null ? null : condition(variable, condition, s);
        return ok && parsed != null ? new InputVariables.Validation(parsed, messageText, condition.value().range()) : null;
    }

    /** @return the parsed condition, or null when it is not a string, does not parse or ignores its variable (reported) */
    private static ValidationExpression condition(String variable, ConfigNode.Entry condition, Sink s) {
        if (!(condition.value() instanceof ConfigNode.StringNode str)) {
            s.error("Invalid validation condition", "The condition must be a string holding an expression, e.g. "
                    + "\"${var." + variable + " >= 1}\"; got " + condition.value().kind() + ".", condition.value().range());
            return null;
        }
        ValidationExpression.Parsed p = ValidationExpression.parse(str.value());
        if (p.condition() == null) {
            s.error("Invalid validation condition", p.error() + " See \"Variable validation\" in docs/configuration.md for "
                    + "the condition language.", str.range());
            return null;
        }
        if (!p.condition().variables().contains(variable)) {
            s.error("Invalid validation condition", "The condition for variable \"" + variable + "\" must refer to var."
                    + variable + " in order to test incoming values.", str.range());
            return null;
        }
        return p.condition();
    }
}
