package dev.flowform.config;

import dev.flowform.diag.SourceRange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One module instance: the root configuration folder, or a folder instantiated by a {@code module}
 * block (possibly inside another module). It owns the instance's declarations (variables, locals,
 * outputs, module calls, and the blocks that become Kubernetes objects) and is the
 * {@link Evaluator.Scope} its expressions are evaluated in.
 *
 * <p>References: {@code var.NAME} (this instance's variables: the root's come from
 * {@link InputVariables}, a child's from the calling block's arguments, evaluated in the caller),
 * {@code local.NAME}, {@code module.CALL.OUTPUT} (an output of a child instance) and
 * {@code environment.name} / {@code environment.namespace}. Further dotted names read attributes
 * of object values: {@code var.cluster.bootstrap}. Locals, outputs and child variables are
 * computed on demand through the shared {@link Evaluation}, which detects reference cycles.
 */
final class ModuleInstance implements Evaluator.Scope {

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

    /**
     * An {@code output} block.
     *
     * @param name        the label
     * @param block       the block
     * @param value       the {@code value} expression, or null when missing (reported)
     * @param description the {@code description}, or null
     * @param sensitive   {@code sensitive = true}
     */
    record OutputDecl(String name, Blocks.Block block, ConfigNode value, String description, boolean sensitive) {
    }

    final String name;
    final String prefix;
    final ModuleInstance parent;
    final Blocks.Block call;
    final Map<String, ConfigNode.Entry> arguments;
    final Map<String, List<Blocks.Block>> blocks;
    final Map<String, InputVariables.Declaration> variables = new TreeMap<>();
    final Map<String, ConfigNode.Entry> locals = new LinkedHashMap<>();
    final Map<String, OutputDecl> outputs = new LinkedHashMap<>();
    final Map<String, ModuleInstance> children = new LinkedHashMap<>();

    private final Sink sink;
    private boolean broken;
    private Evaluation evaluation;
    private InputVariables rootValues;

    /**
     * @param name      the module call's name, or null for the root
     * @param parent    the calling instance, or null for the root
     * @param call      the {@code module} block, or null for the root
     * @param arguments the call's arguments other than {@code source}, by name
     * @param blocks    this instance's blocks by type
     * @param sink      receives problems
     */
    ModuleInstance(String name, ModuleInstance parent, Blocks.Block call, Map<String, ConfigNode.Entry> arguments,
                   Map<String, List<Blocks.Block>> blocks, Sink sink) {
        this.name = name;
        this.parent = parent;
        this.call = call;
        this.prefix = parent == null ? "" : parent.prefix + "module." + name + ".";
        this.arguments = arguments;
        this.blocks = blocks;
        this.sink = sink;
    }

    /**
     * Marks an instance whose folder could not be read (already reported): references to its outputs
     * are then unknown without further errors.
     */
    void markBroken() {
        broken = true;
    }

    /** @return the address of this instance ({@code module.a.module.b}), or {@code ""} for the root */
    String address() {
        return prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1);
    }

    /** @return the blocks of {@code type}, possibly none */
    List<Blocks.Block> blocks(String type) {
        return blocks.getOrDefault(type, List.of());
    }

    // ---------------------------------------------------------------------------------------------
    // Declarations

    /** Decodes the {@code variable}, {@code locals} and {@code output} blocks. */
    void declare() {
        for (Blocks.Block b : Names.unique(blocks("variable"), Names.IDENTIFIER, "variable", prefix, sink).values()) {
            if (RESERVED_VARIABLE_NAMES.contains(b.name())) {
                sink.error("Invalid variable name", "The variable name \"" + b.name() + "\" is reserved: it has a meaning of "
                        + "its own in module blocks.", b.labelRange());
                continue;
            }
            InputVariables.Declaration d = variable(b);
            variables.put(d.name(), d);
        }
        for (Blocks.Block b : blocks("locals")) {
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
        for (Blocks.Block b : Names.unique(blocks("output"), Names.IDENTIFIER, "output", prefix, sink).values()) {
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
            outputs.put(b.name(), new OutputDecl(b.name(), b, value == null ? null : value.value(), description,
                    Boolean.TRUE.equals(sensitive)));
        }
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
        Value defaultValue = null;
        ConfigNode.Entry defaultEntry = content.attributes().get("default");
        if (defaultEntry != null) {
            Value literal = Evaluator.literal(defaultEntry.value(), "a variable block", s);
            if (literal != null) {
                VarType.Converted c = type.convert(literal);
                if (c.error() != null) {
                    s.error("Invalid default value for variable", "This default value does not fit the variable's type "
                            + type.describe() + ": " + c.error() + ".", defaultEntry.value().range());
                } else {
                    defaultValue = c.value();
                }
            }
        }
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
        Condition parsed = null;
        if (condition != null) {
            if (!(condition.value() instanceof ConfigNode.StringNode str)) {
                s.error("Invalid validation condition", "The condition must be a string holding an expression, e.g. "
                        + "\"${var." + variable + " >= 1}\"; got " + condition.value().kind() + ".", condition.value().range());
                return null;
            }
            Condition.Parsed p = Condition.parse(str.value());
            if (p.condition() == null) {
                s.error("Invalid validation condition", p.error() + " See \"Variable validation\" in the README for the "
                        + "condition language.", str.range());
                return null;
            }
            if (!p.condition().variables().contains(variable)) {
                s.error("Invalid validation condition", "The condition for variable \"" + variable + "\" must refer to var."
                        + variable + " in order to test incoming values.", str.range());
                return null;
            }
            parsed = p.condition();
        }
        return ok && parsed != null ? new InputVariables.Validation(parsed, messageText, condition.value().range()) : null;
    }

    /** Reports references to undeclared variables in validation conditions (after every variable is declared). */
    void checkValidationReferences() {
        for (InputVariables.Declaration d : variables.values()) {
            for (InputVariables.Validation v : d.validations()) {
                for (String ref : v.condition().variables()) {
                    if (!variables.containsKey(ref)) {
                        sink.at(prefix + "var." + d.name()).error("Reference to undeclared input variable", "The condition "
                                + "refers to var." + ref + ", which is not declared." + Suggestions.didYouMean(ref,
                                variables.keySet()), v.conditionRange());
                    }
                }
            }
        }
    }

    /**
     * Checks the arguments of the {@code module} block that instantiated this instance against its
     * variables: every argument must name a variable, and every variable without a default needs one.
     */
    void checkArguments() {
        String address = address();
        for (ConfigNode.Entry e : arguments.values()) {
            if (!variables.containsKey(e.key())) {
                String declared = variables.isEmpty() ? "The module declares no variables."
                        : "The module's variables are " + Arguments.quoted(List.copyOf(variables.keySet())) + ".";
                sink.at(address).error("Unsupported argument", "An argument named \"" + Names.abbreviate(e.key())
                        + "\" is not expected here: module \"" + name + "\" declares no variable of that name. " + declared
                        + Suggestions.didYouMean(e.key(), variables.keySet()), e.keyRange());
            }
        }
        for (InputVariables.Declaration d : variables.values()) {
            if (!arguments.containsKey(d.name()) && d.usableDefault() == null && !d.failed()) {
                sink.at(address).error("Missing required argument", "The argument \"" + d.name() + "\" is required: variable \""
                        + d.name() + "\" of module \"" + name + "\" has no default" + (d.defaultValue() != null
                        ? " that may be used (its default is null and it is not nullable)" : "") + ".", call.labelRange());
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Values

    /** Starts the evaluation phase: values are computed through {@code evaluation} from now on. */
    void evaluateWith(Evaluation evaluation, InputVariables rootValues) {
        this.evaluation = evaluation;
        this.rootValues = rootValues;
    }

    /** @return an evaluator for expressions of this instance whose problems are tagged with {@code address} */
    Evaluator evaluator(String address) {
        return new Evaluator(this, sink.at(address));
    }

    /** @return the value of variable {@code name} (declared), or null when unknown */
    Value variable(String name) {
        InputVariables.Declaration d = variables.get(name);
        if (d == null || d.failed()) {
            return null;
        }
        if (parent == null) {
            return rootValues == null ? null : rootValues.value(name);
        }
        return evaluation.compute(prefix + "var." + name, d.block().labelRange(), () -> argument(d));
    }

    private Value argument(InputVariables.Declaration d) {
        ConfigNode.Entry arg = arguments.get(d.name());
        Value v;
        if (arg == null) {
            v = d.usableDefault();
            if (v == null) {
                return null;
            }
        } else {
            v = parent.evaluator(address()).eval(arg.value());
            if (v == null) {
                return null;
            }
            if (v instanceof Value.NullValue && !d.nullable()) {
                Value fallback = d.usableDefault();
                if (fallback == null) {
                    sink.at(address()).error("Invalid value for module argument", "The argument \"" + d.name() + "\" is null, "
                            + "but variable \"" + d.name() + "\" of module \"" + name + "\" is not nullable and has no default "
                            + "to use instead.", arg.value().range());
                    return null;
                }
                v = fallback;
            }
            VarType.Converted c = d.type().convert(v);
            if (c.error() != null) {
                sink.at(address()).error("Invalid value for module argument", "The argument \"" + d.name() + "\" does not fit "
                        + "the type " + d.type().describe() + " of variable \"" + d.name() + "\": " + c.error() + ".",
                        arg.value().range());
                return null;
            }
            v = c.value();
        }
        return d.sensitive() ? v.relocate(v.range(), true) : v;
    }

    /** @return where the value of variable {@code name} came from, for validation messages */
    String origin(String name) {
        if (parent == null) {
            return rootValues == null ? null : rootValues.origin(name);
        }
        return arguments.containsKey(name) ? "the argument of module \"" + this.name + "\"" : "the default";
    }

    /** @return the value of local {@code name} (declared), or null when unknown */
    Value local(String name) {
        ConfigNode.Entry e = locals.get(name);
        return evaluation.compute(prefix + "local." + name, e.keyRange(),
                () -> evaluator(prefix + "local." + name).eval(e.value()));
    }

    /** @return the value of output {@code name} (declared), marked sensitive when declared so, or null when unknown */
    Value output(String name) {
        OutputDecl o = outputs.get(name);
        String address = (prefix.isEmpty() ? "" : prefix) + "output." + name;
        return evaluation.compute(address, o.block().labelRange(), () -> {
            if (o.value() == null) {
                return null;
            }
            Value v = evaluator(address).eval(o.value());
            if (v == null) {
                return null;
            }
            if (v.anySensitive() && !o.sensitive()) {
                sink.at(address).error("Output refers to sensitive values", "The value of output \"" + name + "\" includes a "
                        + "sensitive value (from a variable declared sensitive). Add \"sensitive\": true to the output block to "
                        + "confirm that it may be passed on; it is then shown as <sensitive> and stored only as a hash.",
                        o.value().range());
                return null;
            }
            return o.sensitive() ? v.relocate(v.range(), true) : v;
        });
    }

    /**
     * Computes every variable, local and output of this instance, and checks the variables'
     * validation rules, so that problems in values nobody refers to are reported too.
     */
    void evaluateAll() {
        for (String v : variables.keySet()) {
            variable(v);
        }
        for (InputVariables.Declaration d : variables.values()) {
            validate(d);
        }
        for (String l : locals.keySet()) {
            local(l);
        }
        for (String o : outputs.keySet()) {
            output(o);
        }
    }

    private void validate(InputVariables.Declaration d) {
        Value value = variable(d.name());
        if (value == null || !evaluation.hasEnvironment()) {
            return;
        }
        Sink s = sink.at(prefix + "var." + d.name());
        for (InputVariables.Validation rule : d.validations()) {
            if (rule.condition().variables().stream().anyMatch(n -> !variables.containsKey(n) || variable(n) == null)) {
                continue;
            }
            Condition.Result r = rule.condition().evaluate(ref -> reference(ref));
            if (r.error() != null) {
                s.error("Invalid validation condition", "The condition could not be evaluated for the value of variable \""
                        + d.name() + "\" from " + origin(d.name()) + ": " + r.error(), rule.conditionRange());
            } else if (!r.value()) {
                SourceRange at = value.range() != null ? value.range() : rule.conditionRange();
                s.error("Invalid value for variable", rule.errorMessage() + "\n\nThe value of variable \"" + d.name()
                        + "\" comes from " + origin(d.name()) + "; it was checked by the validation rule at "
                        + rule.conditionRange() + ".", at);
            }
        }
    }

    private Value reference(Condition.Ref ref) {
        Value v;
        if (ref.root().equals("environment")) {
            v = evaluation.environment(ref.names().get(0), null);
        } else {
            v = variable(ref.names().get(0));
        }
        for (String attribute : ref.names().subList(1, ref.names().size())) {
            if (!(v instanceof Value.ObjectValue o)) {
                return null;
            }
            v = o.members().stream().filter(m -> m.key().equals(attribute)).map(Value.Member::value).findFirst().orElse(null);
        }
        return v;
    }

    // ---------------------------------------------------------------------------------------------
    // Scope

    @Override
    public Value resolve(Template.Reference reference, SourceRange at, Sink s) {
        List<String> names = reference.names();
        String first = names.get(0);
        Value v;
        int used = 1;
        switch (reference.root()) {
            case "var" -> {
                if (!variables.containsKey(first)) {
                    s.error("Reference to undeclared input variable", "An input variable with the name \"" + first
                            + "\" has not been declared" + (parent == null ? "" : " in module \"" + name + "\"") + "."
                            + Suggestions.didYouMean(first, variables.keySet()) + " Declare it with {\"variable\": {\"" + first
                            + "\": {}}}.", at);
                    return null;
                }
                v = variable(first);
            }
            case "local" -> {
                if (!locals.containsKey(first)) {
                    s.error("Reference to undeclared local value", "A local value with the name \"" + first + "\" has not been "
                            + "declared" + (parent == null ? "" : " in module \"" + name + "\"") + "."
                            + Suggestions.didYouMean(first, locals.keySet()) + " Declare it with {\"locals\": {\"" + first
                            + "\": ...}}.", at);
                    return null;
                }
                v = local(first);
            }
            case "module" -> {
                ModuleInstance child = children.get(first);
                if (child == null) {
                    s.error("Reference to undeclared module", "No module call named \"" + first + "\" is declared"
                            + (parent == null ? "" : " in module \"" + name + "\"") + "."
                            + Suggestions.didYouMean(first, children.keySet()), at);
                    return null;
                }
                if (child.broken) {
                    return null;
                }
                if (names.size() < 2) {
                    s.error("Unsupported expression", "${" + reference.text() + "} refers to the whole module; refer to one of "
                            + "its outputs instead, e.g. ${module." + first + "."
                            + (child.outputs.isEmpty() ? "OUTPUT" : child.outputs.keySet().iterator().next()) + "}.", at);
                    return null;
                }
                String output = names.get(1);
                if (!child.outputs.containsKey(output)) {
                    s.error("Unsupported attribute", "Module \"" + first + "\" has no output named \"" + output + "\"."
                            + (child.outputs.isEmpty() ? " It declares no outputs."
                            : Suggestions.didYouMean(output, child.outputs.keySet())
                            + " Its outputs are " + Arguments.quoted(List.copyOf(child.outputs.keySet())) + "."), at);
                    return null;
                }
                v = child.output(output);
                used = 2;
            }
            default -> {
                if (!Evaluation.ENVIRONMENT_ATTRIBUTES.contains(first)) {
                    s.error("Unsupported attribute", "environment has no attribute \"" + first + "\"; its attributes are "
                            + Arguments.quoted(Evaluation.ENVIRONMENT_ATTRIBUTES) + "."
                            + Suggestions.didYouMean(first, Evaluation.ENVIRONMENT_ATTRIBUTES), at);
                    return null;
                }
                if (names.size() > 1) {
                    s.error("Unsupported attribute", "environment." + first + " is a string; it has no attribute \""
                            + names.get(1) + "\".", at);
                    return null;
                }
                return evaluation.environment(first, at);
            }
        }
        return traverse(v, reference, used, at, s);
    }

    /** Reads the attributes after the first {@code used} names of a reference. */
    private static Value traverse(Value v, Template.Reference reference, int used, SourceRange at, Sink s) {
        List<String> names = reference.names();
        for (int i = used; i < names.size() && v != null; i++) {
            String attribute = names.get(i);
            String path = reference.root() + "." + String.join(".", names.subList(0, i));
            if (v instanceof Value.ObjectValue o) {
                Value.Member m = o.members().stream().filter(x -> x.key().equals(attribute)).findFirst().orElse(null);
                if (m == null) {
                    Set<String> keys = new java.util.TreeSet<>();
                    o.members().forEach(x -> keys.add(x.key()));
                    s.error("Unsupported attribute", path + " has no attribute \"" + attribute + "\"."
                            + Suggestions.didYouMean(attribute, keys), at);
                    return null;
                }
                v = o.sensitive() ? m.value().relocate(m.value().range(), true) : m.value();
            } else if (v instanceof Value.NullValue) {
                s.error("Attempt to get attribute from null value", path + " is null, so it has no attribute \"" + attribute
                        + "\".", at);
                return null;
            } else {
                s.error("Unsupported attribute", path + " is a " + v.kind() + "; only objects have attributes such as \""
                        + attribute + "\".", at);
                return null;
            }
        }
        return v;
    }
}
