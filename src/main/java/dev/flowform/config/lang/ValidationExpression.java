package dev.flowform.config.lang;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A parsed variable {@code validation} condition: a side-effect-free subset of Terraform's expressions yielding a
 * bool (comparisons, {@code !}, {@code &&}, {@code ||}, lists, references and Terraform's functions {@code length},
 * {@code contains}, {@code regex}, {@code can}, ...), read by {@link ValidationExpressionParser} and computed by
 * {@link ValidationExpressionEvaluator} (docs/configuration.md, "Variable validation").
 */
public final class ValidationExpression {

    /** Longest condition accepted, in characters. */
    public static final int MAX_LENGTH = 4000;

    /** Deepest nesting of parentheses, lists and calls accepted. */
    public static final int MAX_DEPTH = 32;

    /** Function names with their number of arguments. */
    public static final Map<String, Integer> FUNCTIONS = functions();

    private final Node root;
    private final Set<String> variables;

    ValidationExpression(Node root, Set<String> variables) {
        this.root = root;
        this.variables = Collections.unmodifiableSet(variables);
    }

    private static Map<String, Integer> functions() {
        Map<String, Integer> f = new LinkedHashMap<>();
        f.put("length", 1);
        f.put("contains", 2);
        f.put("strcontains", 2);
        f.put("startswith", 2);
        f.put("endswith", 2);
        f.put("regex", 2);
        f.put("can", 1);
        f.put("lower", 1);
        f.put("upper", 1);
        return Collections.unmodifiableMap(f);
    }

    /** A reference in a condition: its root ({@code var} or {@code environment}) and the dotted names after it. */
    public record Ref(String root, List<String> names) {
        /** @return the reference as written, e.g. {@code var.replicas} */
        public String text() {
            return root + "." + String.join(".", names);
        }
    }

    /** The outcome of parsing: the condition, or null and what is wrong. */
    public record Parsed(ValidationExpression condition, String error) {
    }

    /** The outcome of evaluating: the result, or null and what went wrong. */
    public record Result(Boolean value, String error) {
    }

    /** @return the names of the variables the condition refers to ({@code var.NAME}), sorted */
    public Set<String> variables() {
        return variables;
    }

    /** @return the condition {@code text} (with or without a {@code ${ }} wrapper), or why it cannot be parsed */
    public static Parsed parse(String text) {
        return ValidationExpressionParser.parse(text);
    }

    /**
     * @param resolve gives the value of a reference, or null when it does not exist (checked beforehand: a safety net)
     * @return the condition's value, true or false, or the error that stopped evaluation
     */
    public Result evaluate(Function<Ref, Value> resolve) {
        return new ValidationExpressionEvaluator(resolve).evaluate(root);
    }

    // ---------------------------------------------------------------------------------------------
    // Syntax tree, shared by the parser and the evaluator

    /** A node of the syntax tree. */
    sealed interface Node permits Literal, Reference, Call, ListNode, Binary, Not {
    }

    /** A constant. */
    record Literal(Value value) implements Node {
    }

    /** {@code var.NAME...} or {@code environment.ATTRIBUTE}. */
    record Reference(Ref ref) implements Node {
    }

    /** A function call; the arity is checked when parsing. */
    record Call(String function, List<Node> args) implements Node {
    }

    /** A list literal. */
    record ListNode(List<Node> items) implements Node {
    }

    /** A binary operator: {@code || && == != < <= > >=}. */
    record Binary(String op, Node left, Node right) implements Node {
    }

    /** {@code !operand}. */
    record Not(Node operand) implements Node {
    }

    /** A parse or evaluation error; carries only a message. */
    static final class Problem extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Problem(String message) {
            super(message, null, false, false);
        }
    }

    /** @return {@code s} cut to 30 characters for messages */
    static String abbreviate(String s) {
        return s.length() <= 30 ? s : s.substring(0, 27) + "...";
    }
}
