package dev.flowform.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The predicate language of variable {@code validation} conditions: a small, side-effect-free
 * subset of Terraform's expression syntax that yields true or false.
 *
 * <p>Grammar (precedence from loosest to tightest; {@code &&} and {@code ||} short-circuit):
 * <pre>
 * condition  := or
 * or         := and ( "||" and )*
 * and        := not ( "&amp;&amp;" not )*
 * not        := "!" not | comparison
 * comparison := primary [ ( "==" | "!=" | "&lt;" | "&lt;=" | "&gt;" | "&gt;=" ) primary ]
 * primary    := number | string | true | false | null | list | reference | call | "(" condition ")"
 * list       := "[" [ condition ( "," condition )* ] "]"
 * reference  := var.NAME ( "." ATTRIBUTE )* | environment.name | environment.namespace
 * call       := FUNCTION "(" [ condition ( "," condition )* ] ")"
 * </pre>
 * Strings are written in double quotes (JSON escapes) or, to spare escaping inside JSON, in single
 * quotes ({@code \'} and {@code \\} escape). Numbers are JSON numbers, optionally negative. The
 * whole condition may be wrapped in {@code ${ }} as Terraform's JSON syntax writes it.
 *
 * <p>Semantics: {@code ==} and {@code !=} compare values of any type (a number never equals a
 * string, numbers compare by value); the ordering operators take numbers; {@code !}, {@code &&}
 * and {@code ||} take bools. Functions (Terraform's names and meaning):
 * {@code length(string|list|object)} (characters are Unicode code points),
 * {@code contains(list, value)}, {@code strcontains(string, substring)},
 * {@code startswith(string, prefix)}, {@code endswith(string, suffix)},
 * {@code regex(pattern, string)} (the first match; an error when nothing matches; Java
 * {@link Pattern} syntax), {@code can(expression)} (true when the expression evaluates without an
 * error, so {@code can(regex("^[a-z]+$", var.name))} is a regular-expression match),
 * {@code lower(string)} and {@code upper(string)}. The result of the condition must be a bool.
 */
final class Condition {

    /** Longest condition accepted, in characters. */
    static final int MAX_LENGTH = 4000;

    /** Deepest nesting of parentheses, lists and calls accepted. */
    static final int MAX_DEPTH = 32;

    /** Function names with their number of arguments. */
    static final Map<String, Integer> FUNCTIONS = functions();

    private final Node root;
    private final Set<String> variables;

    private Condition(Node root, Set<String> variables) {
        this.root = root;
        this.variables = variables;
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
        return java.util.Collections.unmodifiableMap(f);
    }

    /**
     * A reference in a condition.
     *
     * @param root  {@code var} or {@code environment}
     * @param names the dotted names after the root (at least one)
     */
    record Ref(String root, List<String> names) {
        /** @return the reference as written, e.g. {@code var.replicas} */
        String text() {
            return root + "." + String.join(".", names);
        }
    }

    /**
     * The outcome of parsing.
     *
     * @param condition the condition, or null on error
     * @param error     what is wrong, or null
     */
    record Parsed(Condition condition, String error) {
    }

    /**
     * The outcome of evaluating.
     *
     * @param value the result, or null on error
     * @param error what went wrong, or null
     */
    record Result(Boolean value, String error) {
    }

    /** @return the names of the variables the condition refers to ({@code var.NAME}) */
    Set<String> variables() {
        return variables;
    }

    /**
     * Parses a condition.
     *
     * @param text the condition as written, with or without a {@code ${ }} wrapper
     * @return the condition, or the reason it cannot be parsed
     */
    static Parsed parse(String text) {
        String body = text.strip();
        if (body.startsWith("${") && body.endsWith("}")) {
            body = body.substring(2, body.length() - 1);
        } else if (body.startsWith("${")) {
            return new Parsed(null, "The condition starts with ${ but does not end with the closing }.");
        }
        if (body.length() > MAX_LENGTH) {
            return new Parsed(null, "The condition is " + body.length() + " characters long; at most " + MAX_LENGTH
                    + " are accepted.");
        }
        if (body.isBlank()) {
            return new Parsed(null, "The condition is empty; write an expression such as \"${var.replicas >= 1}\".");
        }
        try {
            Parser p = new Parser(body);
            Node node = p.or(0);
            p.skipSpace();
            if (p.pos < body.length()) {
                throw p.error("unexpected \"" + abbreviate(body.substring(p.pos)) + "\"");
            }
            return new Parsed(new Condition(node, java.util.Collections.unmodifiableSet(p.variables)), null);
        } catch (Problem e) {
            return new Parsed(null, e.getMessage());
        }
    }

    /**
     * Evaluates the condition.
     *
     * @param resolve gives the value of a reference; returns null when the reference does not exist
     *                (the caller checked references beforehand, so this is only a safety net)
     * @return true or false, or the error that stopped evaluation
     */
    Result evaluate(Function<Ref, Value> resolve) {
        try {
            Value v = eval(root, resolve);
            if (v instanceof Value.BoolValue b) {
                return new Result(b.value(), null);
            }
            return new Result(null, "The condition must produce true or false, but it produced " + describe(v) + ".");
        } catch (Problem e) {
            return new Result(null, e.getMessage());
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Syntax tree

    private sealed interface Node permits Literal, Reference, Call, ListNode, Binary, Not {
    }

    private record Literal(Value value) implements Node {
    }

    private record Reference(Ref ref) implements Node {
    }

    private record Call(String function, List<Node> args) implements Node {
    }

    private record ListNode(List<Node> items) implements Node {
    }

    private record Binary(String op, Node left, Node right) implements Node {
    }

    private record Not(Node operand) implements Node {
    }

    /** A parse or evaluation error; carries only a message. */
    private static final class Problem extends RuntimeException {
        Problem(String message) {
            super(message, null, false, false);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Parser

    private static final class Parser {
        private final String text;
        private int pos;
        private final Set<String> variables = new TreeSet<>();

        Parser(String text) {
            this.text = text;
        }

        Problem error(String what) {
            return new Problem("Invalid condition at character " + (pos + 1) + ": " + what + ".");
        }

        void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        boolean accept(String token) {
            skipSpace();
            if (text.startsWith(token, pos)) {
                pos += token.length();
                return true;
            }
            return false;
        }

        void expect(String token) {
            if (!accept(token)) {
                throw error("expected \"" + token + "\"" + (pos < text.length() ? ", found \""
                        + abbreviate(text.substring(pos)) + "\"" : " before the end"));
            }
        }

        Node or(int depth) {
            Node left = and(depth);
            while (accept("||")) {
                left = new Binary("||", left, and(depth));
            }
            return left;
        }

        Node and(int depth) {
            Node left = not(depth);
            while (accept("&&")) {
                left = new Binary("&&", left, not(depth));
            }
            return left;
        }

        Node not(int depth) {
            skipSpace();
            if (text.startsWith("!", pos) && !text.startsWith("!=", pos)) {
                pos++;
                if (depth > MAX_DEPTH) {
                    throw error("the condition nests more than " + MAX_DEPTH + " levels deep");
                }
                return new Not(not(depth + 1));
            }
            return comparison(depth);
        }

        Node comparison(int depth) {
            Node left = primary(depth);
            for (String op : List.of("==", "!=", "<=", ">=", "<", ">")) {
                if (accept(op)) {
                    return new Binary(op, left, primary(depth));
                }
            }
            return left;
        }

        Node primary(int depth) {
            if (depth > MAX_DEPTH) {
                throw error("the condition nests more than " + MAX_DEPTH + " levels deep");
            }
            skipSpace();
            if (pos >= text.length()) {
                throw error("a value was expected before the end");
            }
            char c = text.charAt(pos);
            if (c == '(') {
                pos++;
                Node inner = or(depth + 1);
                expect(")");
                return inner;
            }
            if (c == '[') {
                pos++;
                List<Node> items = new ArrayList<>();
                if (!accept("]")) {
                    do {
                        items.add(or(depth + 1));
                    } while (accept(","));
                    expect("]");
                }
                return new ListNode(items);
            }
            if (c == '"' || c == '\'') {
                return new Literal(new Value.StringValue(string(c), null, false));
            }
            if (c == '-' || Character.isDigit(c)) {
                return new Literal(new Value.NumberValue(number(), null, false));
            }
            if (Character.isLetter(c) || c == '_') {
                String word = identifier();
                switch (word) {
                    case "true":
                        return new Literal(new Value.BoolValue(true, null, false));
                    case "false":
                        return new Literal(new Value.BoolValue(false, null, false));
                    case "null":
                        return new Literal(new Value.NullValue(null, false));
                    default:
                        break;
                }
                skipSpace();
                if (pos < text.length() && text.charAt(pos) == '(') {
                    pos++;
                    return call(word, depth);
                }
                return reference(word);
            }
            throw error("unexpected \"" + abbreviate(text.substring(pos)) + "\"");
        }

        private Node call(String function, int depth) {
            Integer arity = FUNCTIONS.get(function);
            if (arity == null) {
                throw error("there is no function named \"" + abbreviate(function) + "\"; the functions are "
                        + String.join(", ", FUNCTIONS.keySet()) + Suggestions.closest(function, FUNCTIONS.keySet())
                        .map(s -> " (did you mean \"" + s + "\"?)").orElse(""));
            }
            List<Node> args = new ArrayList<>();
            if (!accept(")")) {
                do {
                    args.add(or(depth + 1));
                } while (accept(","));
                expect(")");
            }
            if (args.size() != arity) {
                throw error(function + "() takes " + arity + (arity == 1 ? " argument" : " arguments") + ", got " + args.size());
            }
            return new Call(function, args);
        }

        private Node reference(String root) {
            List<String> names = new ArrayList<>();
            while (pos < text.length() && text.charAt(pos) == '.') {
                pos++;
                String name = identifier();
                if (name.isEmpty()) {
                    throw error("a name was expected after \".\"");
                }
                names.add(name);
            }
            if (root.equals("var") || root.equals("environment")) {
                if (names.isEmpty()) {
                    throw error("\"" + root + "\" must be followed by a name, e.g. " + root + (root.equals("var") ? ".replicas" : ".name"));
                }
                if (root.equals("environment") && (names.size() != 1 || !Evaluation.ENVIRONMENT_ATTRIBUTES.contains(names.get(0)))) {
                    throw error("environment has the attributes " + String.join(" and ", Evaluation.ENVIRONMENT_ATTRIBUTES)
                            + " only");
                }
                if (root.equals("var")) {
                    variables.add(names.get(0));
                }
                return new Reference(new Ref(root, names));
            }
            if (root.equals("local") || root.equals("module")) {
                throw error("a validation condition may refer to var.* and environment.* only, not " + root + ".*");
            }
            throw error("\"" + abbreviate(root) + "\" is not a value: write var.NAME, a string in quotes, a number, true, false "
                    + "or null");
        }

        private String identifier() {
            int start = pos;
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
                    || (pos > start && text.charAt(pos) == '-'))) {
                pos++;
            }
            return text.substring(start, pos);
        }

        private BigDecimal number() {
            int start = pos;
            if (text.charAt(pos) == '-') {
                pos++;
            }
            while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.'
                    || text.charAt(pos) == 'e' || text.charAt(pos) == 'E'
                    || ((text.charAt(pos) == '+' || text.charAt(pos) == '-') && (text.charAt(pos - 1) == 'e' || text.charAt(pos - 1) == 'E')))) {
                pos++;
            }
            String literal = text.substring(start, pos);
            BigDecimal n = Numbers.parse(literal);
            if (n == null) {
                pos = start;
                throw error("\"" + abbreviate(literal) + "\" is not a number");
            }
            return n;
        }

        private String string(char quote) {
            int start = pos;
            pos++;
            StringBuilder out = new StringBuilder();
            while (pos < text.length()) {
                char c = text.charAt(pos++);
                if (c == quote) {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (pos >= text.length()) {
                    break;
                }
                char e = text.charAt(pos++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case '\\', '"', '\'', '/' -> out.append(e);
                    case 'u' -> {
                        if (pos + 4 > text.length()) {
                            throw error("\\u must be followed by four hex digits");
                        }
                        try {
                            out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw error("\\u must be followed by four hex digits");
                        }
                        pos += 4;
                    }
                    default -> throw error("unknown escape \\" + e + " in a string");
                }
            }
            pos = start;
            throw error("the string has no closing " + quote);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Evaluation

    private Value eval(Node n, Function<Ref, Value> resolve) {
        if (n instanceof Literal l) {
            return l.value();
        }
        if (n instanceof Reference r) {
            Value v = resolve.apply(r.ref());
            if (v == null) {
                throw new Problem(r.ref().text() + " has no value.");
            }
            return v;
        }
        if (n instanceof ListNode l) {
            List<Value> items = new ArrayList<>();
            for (Node item : l.items()) {
                items.add(eval(item, resolve));
            }
            return new Value.ListValue(items, null, false);
        }
        if (n instanceof Not not) {
            return new Value.BoolValue(!bool(eval(not.operand(), resolve), "!"), null, false);
        }
        if (n instanceof Binary b) {
            return binary(b, resolve);
        }
        return call((Call) n, resolve);
    }

    private Value binary(Binary b, Function<Ref, Value> resolve) {
        String op = b.op();
        if (op.equals("&&") || op.equals("||")) {
            boolean left = bool(eval(b.left(), resolve), op);
            if (op.equals("&&") ? !left : left) {
                return new Value.BoolValue(left, null, false);
            }
            return new Value.BoolValue(bool(eval(b.right(), resolve), op), null, false);
        }
        Value left = eval(b.left(), resolve);
        Value right = eval(b.right(), resolve);
        if (op.equals("==") || op.equals("!=")) {
            boolean same = same(left, right);
            return new Value.BoolValue(op.equals("==") == same, null, false);
        }
        if (!(left instanceof Value.NumberValue l) || !(right instanceof Value.NumberValue r)) {
            throw new Problem("The operator " + op + " compares numbers, but got " + describe(left) + " and " + describe(right) + ".");
        }
        int cmp = l.value().compareTo(r.value());
        boolean result = switch (op) {
            case "<" -> cmp < 0;
            case "<=" -> cmp <= 0;
            case ">" -> cmp > 0;
            default -> cmp >= 0;
        };
        return new Value.BoolValue(result, null, false);
    }

    private static boolean bool(Value v, String op) {
        if (v instanceof Value.BoolValue b) {
            return b.value();
        }
        throw new Problem("The operator " + op + " takes true or false, but got " + describe(v) + ".");
    }

    private Value call(Call c, Function<Ref, Value> resolve) {
        String f = c.function();
        if (f.equals("can")) {
            try {
                eval(c.args().get(0), resolve);
                return new Value.BoolValue(true, null, false);
            } catch (Problem e) {
                return new Value.BoolValue(false, null, false);
            }
        }
        List<Value> args = new ArrayList<>();
        for (Node a : c.args()) {
            args.add(eval(a, resolve));
        }
        switch (f) {
            case "length": {
                Value v = args.get(0);
                if (v instanceof Value.StringValue s) {
                    return number(s.value().codePointCount(0, s.value().length()));
                }
                if (v instanceof Value.ListValue l) {
                    return number(l.items().size());
                }
                if (v instanceof Value.ObjectValue o) {
                    return number(o.members().size());
                }
                throw new Problem("length() takes a string, list or object, but got " + describe(v) + ".");
            }
            case "contains": {
                if (!(args.get(0) instanceof Value.ListValue l)) {
                    throw new Problem("contains() takes a list as its first argument, but got " + describe(args.get(0))
                            + (args.get(0) instanceof Value.StringValue ? "; use strcontains(string, substring) for strings" : "")
                            + ".");
                }
                return new Value.BoolValue(l.items().stream().anyMatch(item -> same(item, args.get(1))), null, false);
            }
            case "strcontains":
                return new Value.BoolValue(str(args.get(0), f, 1).contains(str(args.get(1), f, 2)), null, false);
            case "startswith":
                return new Value.BoolValue(str(args.get(0), f, 1).startsWith(str(args.get(1), f, 2)), null, false);
            case "endswith":
                return new Value.BoolValue(str(args.get(0), f, 1).endsWith(str(args.get(1), f, 2)), null, false);
            case "lower":
                return new Value.StringValue(str(args.get(0), f, 1).toLowerCase(java.util.Locale.ROOT), null, false);
            case "upper":
                return new Value.StringValue(str(args.get(0), f, 1).toUpperCase(java.util.Locale.ROOT), null, false);
            case "regex": {
                String pattern = str(args.get(0), f, 1);
                String subject = str(args.get(1), f, 2);
                Matcher m;
                try {
                    m = Pattern.compile(pattern).matcher(subject);
                } catch (PatternSyntaxException e) {
                    throw new Problem("regex(): the pattern is not a valid regular expression: " + e.getDescription() + ".");
                }
                if (!m.find()) {
                    throw new Problem("regex(): the pattern did not match; wrap the call in can(...) to test for a match.");
                }
                return new Value.StringValue(m.group(), null, false);
            }
            default:
                throw new Problem("Unknown function " + f + ".");
        }
    }

    private static Value number(long n) {
        return new Value.NumberValue(BigDecimal.valueOf(n), null, false);
    }

    private static String str(Value v, String function, int position) {
        if (v instanceof Value.StringValue s) {
            return s.value();
        }
        if (v instanceof Value.NumberValue || v instanceof Value.BoolValue) {
            return ((Value.StringValue) VarType.STRING.convert(v).value()).value();
        }
        throw new Problem(function + "() takes a string as argument " + position + ", but got " + describe(v) + ".");
    }

    /** Structural equality: same kind and same content; numbers by value. */
    static boolean same(Value a, Value b) {
        if (a instanceof Value.NumberValue x && b instanceof Value.NumberValue y) {
            return x.value().compareTo(y.value()) == 0;
        }
        if (a instanceof Value.ListValue x && b instanceof Value.ListValue y) {
            if (x.items().size() != y.items().size()) {
                return false;
            }
            for (int i = 0; i < x.items().size(); i++) {
                if (!same(x.items().get(i), y.items().get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a instanceof Value.ObjectValue x && b instanceof Value.ObjectValue y) {
            if (x.members().size() != y.members().size()) {
                return false;
            }
            Map<String, Value> other = new LinkedHashMap<>();
            y.members().forEach(m -> other.put(m.key(), m.value()));
            return x.members().stream().allMatch(m -> other.containsKey(m.key()) && same(m.value(), other.get(m.key())));
        }
        if (a.getClass() != b.getClass()) {
            return false;
        }
        return java.util.Objects.equals(a.toJava(), b.toJava());
    }

    /** @return the kind of a value for messages, never its content (it may be sensitive) */
    private static String describe(Value v) {
        return v instanceof Value.NullValue ? "null" : "a " + v.kind();
    }

    private static String abbreviate(String s) {
        return s.length() <= 30 ? s : s.substring(0, 27) + "...";
    }
}
