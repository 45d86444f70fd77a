package dev.flowform.config.module;

import dev.flowform.config.lang.Arguments;
import dev.flowform.config.lang.Evaluation;
import dev.flowform.config.lang.Evaluator;
import dev.flowform.config.lang.Template;
import dev.flowform.config.lang.ValidationExpression;
import dev.flowform.config.lang.Value;
import dev.flowform.config.lang.VarType;
import dev.flowform.config.syntax.Blocks;
import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Names;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.Suggestions;
import dev.flowform.diag.SourceRange;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One module instance (the root folder, or a folder a {@code module} block instantiates): its declarations, and the
 * {@link Evaluator.Scope} of its expressions ({@code var.}, {@code local.}, {@code module.CALL.OUTPUT},
 * {@code environment.}), values computed on demand through the shared {@link Evaluation}.
 */
public final class ModuleInstance implements Evaluator.Scope {

    /** An {@code output} block; {@code value} (the expression) and {@code description} are null when not written. */
    public record OutputDecl(String name, Blocks.Block block, ConfigNode value, String description, boolean sensitive) {
    }

    /**
     * The address prefix of everything declared in this instance: {@code ""} for the root,
     * {@code module.a.module.b.} for a nested instance. Immutable.
     */
    public final String prefix;

    private final String name;
    private final ModuleInstance parent;
    private final Blocks.Block call;
    private final Map<String, ConfigNode.Entry> arguments;
    private final Map<String, List<Blocks.Block>> blocks;
    private final Sink sink;
    private final Map<String, ModuleInstance> children = new LinkedHashMap<>();
    private Map<String, InputVariables.Declaration> variables = Map.of();
    private Map<String, ConfigNode.Entry> locals = Map.of();
    private Map<String, OutputDecl> outputs = Map.of();
    private boolean broken;
    private Evaluation evaluation;
    private InputVariables rootValues;

    /**
     * An instance made by the {@code module} block {@code call} named {@code name} in {@code parent} (all three null
     * for the root), with the call's arguments other than {@code source} and this instance's blocks by type.
     */
    ModuleInstance(String name, ModuleInstance parent, Blocks.Block call, Map<String, ConfigNode.Entry> arguments,
                   Map<String, List<Blocks.Block>> blocks, Sink sink) {
        this.name = name;
        this.parent = parent;
        this.call = call;
        this.prefix = parent == null ? "" : parent.prefix + "module." + name + ".";
        this.arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
        this.blocks = Collections.unmodifiableMap(new LinkedHashMap<>(blocks));
        this.sink = sink;
    }

    /**
     * Marks an instance whose folder could not be read (already reported): references to its outputs
     * are then unknown without further errors.
     */
    void markBroken() {
        broken = true;
    }

    /** Records the instance a {@code module} block of this instance created. */
    void addChild(ModuleInstance child) {
        children.put(child.name, child);
    }

    /** @return the address of this instance ({@code module.a.module.b}), or {@code ""} for the root */
    public String address() {
        return prefix.isEmpty() ? "" : prefix.substring(0, prefix.length() - 1);
    }

    /** @return the blocks of {@code type}, in source order, possibly none */
    public List<Blocks.Block> blocks(String type) {
        return blocks.getOrDefault(type, List.of());
    }

    /** @return the declared variables by name (read-only; empty before {@link ModuleTree} declared them) */
    public Map<String, InputVariables.Declaration> variables() {
        return Collections.unmodifiableMap(variables);
    }

    /** @return the declared outputs by name, in source order (read-only) */
    public Map<String, OutputDecl> outputs() {
        return Collections.unmodifiableMap(outputs);
    }

    // ---------------------------------------------------------------------------------------------
    // Declarations

    /** Decodes the {@code variable}, {@code locals} and {@code output} blocks. */
    void declare() {
        ModuleDeclarations declarations = new ModuleDeclarations(prefix, sink);
        variables = declarations.variables(blocks("variable"));
        locals = declarations.locals(blocks("locals"));
        outputs = declarations.outputs(blocks("output"));
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

    /**
     * Starts the evaluation phase: values are computed from now on through {@code evaluation}, which every instance of
     * the configuration shares; {@code rootValues}, the root module's variable values, serve the root instance only.
     */
    public void evaluateWith(Evaluation evaluation, InputVariables rootValues) {
        this.evaluation = evaluation;
        this.rootValues = rootValues;
    }

    /** @return an evaluator for expressions of this instance whose problems are tagged with {@code address} */
    public Evaluator evaluator(String address) {
        return new Evaluator(this, sink.at(address));
    }

    /** @return the value of variable {@code name} (declared), or null when unknown */
    public Value variable(String name) {
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
    private String origin(String name) {
        if (parent == null) {
            return rootValues == null ? null : rootValues.origin(name);
        }
        return arguments.containsKey(name) ? "the argument of module \"" + this.name + "\"" : "the default";
    }

    /** @return the value of local {@code name} (declared), or null when unknown */
    private Value local(String name) {
        ConfigNode.Entry e = locals.get(name);
        return evaluation.compute(prefix + "local." + name, e.keyRange(),
                () -> evaluator(prefix + "local." + name).eval(e.value()));
    }

    /** @return the value of output {@code name} (declared), marked sensitive when declared so, or null when unknown */
    public Value output(String name) {
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
    public void evaluateAll() {
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
            ValidationExpression.Result r = rule.condition().evaluate(this::reference);
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

    private Value reference(ValidationExpression.Ref ref) {
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

    /** Resolves a reference written in an expression of this instance, reporting an undeclared name to {@code s}. */
    @Override
    public Value resolve(Template.Reference reference, SourceRange at, Sink s) {
        String first = reference.names().get(0);
        return switch (reference.root()) {
            case "var" -> traverse(resolveVariable(first, at, s), reference, 1, at, s);
            case "local" -> traverse(resolveLocal(first, at, s), reference, 1, at, s);
            case "module" -> traverse(resolveModuleOutput(reference, at, s), reference, 2, at, s);
            default -> resolveEnvironment(reference, at, s);
        };
    }

    /** @return " in module "NAME"" for a child instance, "" for the root, for messages */
    private String inModule() {
        return parent == null ? "" : " in module \"" + name + "\"";
    }

    private Value resolveVariable(String first, SourceRange at, Sink s) {
        if (!variables.containsKey(first)) {
            s.error("Reference to undeclared input variable", "An input variable with the name \"" + first
                    + "\" has not been declared" + inModule() + "." + Suggestions.didYouMean(first, variables.keySet())
                    + " Declare it with {\"variable\": {\"" + first + "\": {}}}.", at);
            return null;
        }
        return variable(first);
    }

    private Value resolveLocal(String first, SourceRange at, Sink s) {
        if (!locals.containsKey(first)) {
            s.error("Reference to undeclared local value", "A local value with the name \"" + first + "\" has not been "
                    + "declared" + inModule() + "." + Suggestions.didYouMean(first, locals.keySet())
                    + " Declare it with {\"locals\": {\"" + first + "\": ...}}.", at);
            return null;
        }
        return local(first);
    }

    private Value resolveModuleOutput(Template.Reference reference, SourceRange at, Sink s) {
        List<String> names = reference.names();
        String first = names.get(0);
        ModuleInstance child = children.get(first);
        if (child == null) {
            s.error("Reference to undeclared module", "No module call named \"" + first + "\" is declared" + inModule() + "."
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
        return child.output(output);
    }

    private Value resolveEnvironment(Template.Reference reference, SourceRange at, Sink s) {
        List<String> names = reference.names();
        String first = names.get(0);
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

    /** Reads the attributes after the first {@code used} names of a reference. */
    private static Value traverse(Value v, Template.Reference reference, int used, SourceRange at, Sink s) {
        List<String> names = reference.names();
        for (int i = used; i < names.size() && v != null; i++) {
            String attribute = names.get(i);
            String path = reference.root() + "." + String.join(".", names.subList(0, i));
            if (v instanceof Value.ObjectValue o) {
                Value.Member m = o.members().stream().filter(x -> x.key().equals(attribute)).findFirst().orElse(null);
                if (m == null) {
                    Set<String> keys = new TreeSet<>();
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
