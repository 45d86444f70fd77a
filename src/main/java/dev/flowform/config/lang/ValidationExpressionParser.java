package dev.flowform.config.lang;

import dev.flowform.config.lang.ValidationExpression.Binary;
import dev.flowform.config.lang.ValidationExpression.Call;
import dev.flowform.config.lang.ValidationExpression.ListNode;
import dev.flowform.config.lang.ValidationExpression.Literal;
import dev.flowform.config.lang.ValidationExpression.Node;
import dev.flowform.config.lang.ValidationExpression.Not;
import dev.flowform.config.lang.ValidationExpression.Problem;
import dev.flowform.config.lang.ValidationExpression.Ref;
import dev.flowform.config.lang.ValidationExpression.Reference;
import dev.flowform.diag.Suggestions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the text of a validation condition into a {@link ValidationExpression} (recursive descent over the
 * grammar documented there). Every reference to {@code var.NAME} is collected so the caller can check that it
 * names a declared variable. Errors name the 1-based character where reading stopped.
 */
final class ValidationExpressionParser {

    private static final int MAX_LENGTH = ValidationExpression.MAX_LENGTH;
    private static final int MAX_DEPTH = ValidationExpression.MAX_DEPTH;

    private final String text;
    private int pos;
    private final Set<String> variables = new TreeSet<>();

    private ValidationExpressionParser(String text) {
        this.text = text;
    }

    /** @return the condition {@code text} (with or without {@code ${ }}), or the reason it cannot be parsed */
    static ValidationExpression.Parsed parse(String text) {
        String body = text.strip();
        if (body.startsWith("${") && body.endsWith("}")) {
            body = body.substring(2, body.length() - 1);
        } else if (body.startsWith("${")) {
            return new ValidationExpression.Parsed(null, "The condition starts with ${ but does not end with the closing }.");
        }
        if (body.length() > MAX_LENGTH) {
            return new ValidationExpression.Parsed(null, "The condition is " + body.length() + " characters long; at most "
                    + MAX_LENGTH + " are accepted.");
        }
        if (body.isBlank()) {
            return new ValidationExpression.Parsed(null, "The condition is empty; write an expression such as "
                    + "\"${var.replicas >= 1}\".");
        }
        try {
            ValidationExpressionParser p = new ValidationExpressionParser(body);
            Node node = p.or(0);
            p.skipSpace();
            if (p.pos < body.length()) {
                throw p.error("unexpected \"" + abbreviate(body.substring(p.pos)) + "\"");
            }
            return new ValidationExpression.Parsed(new ValidationExpression(node, p.variables), null);
        } catch (Problem e) {
            return new ValidationExpression.Parsed(null, e.getMessage());
        }
    }

    private static String abbreviate(String s) {
        return ValidationExpression.abbreviate(s);
    }

    private Problem error(String what) {
        return new Problem("Invalid condition at character " + (pos + 1) + ": " + what + ".");
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean accept(String token) {
        skipSpace();
        if (text.startsWith(token, pos)) {
            pos += token.length();
            return true;
        }
        return false;
    }

    private void expect(String token) {
        if (!accept(token)) {
            throw error("expected \"" + token + "\"" + (pos < text.length() ? ", found \""
                    + abbreviate(text.substring(pos)) + "\"" : " before the end"));
        }
    }

    private Node or(int depth) {
        Node left = and(depth);
        while (accept("||")) {
            left = new Binary("||", left, and(depth));
        }
        return left;
    }

    private Node and(int depth) {
        Node left = not(depth);
        while (accept("&&")) {
            left = new Binary("&&", left, not(depth));
        }
        return left;
    }

    private Node not(int depth) {
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

    private Node comparison(int depth) {
        Node left = primary(depth);
        for (String op : List.of("==", "!=", "<=", ">=", "<", ">")) {
            if (accept(op)) {
                return new Binary(op, left, primary(depth));
            }
        }
        return left;
    }

    private Node primary(int depth) {
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
            return new ListNode(items("]", depth));
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
        Integer arity = ValidationExpression.FUNCTIONS.get(function);
        if (arity == null) {
            throw error("there is no function named \"" + abbreviate(function) + "\"; the functions are "
                    + String.join(", ", ValidationExpression.FUNCTIONS.keySet()) + Suggestions.closest(function, ValidationExpression.FUNCTIONS.keySet())
                    .map(s -> " (did you mean \"" + s + "\"?)").orElse(""));
        }
        List<Node> args = items(")", depth);
        if (args.size() != arity) {
            throw error(function + "() takes " + arity + (arity == 1 ? " argument" : " arguments") + ", got " + args.size());
        }
        return new Call(function, args);
    }

    /** @return the comma-separated expressions up to {@code close}, which is read too */
    private List<Node> items(String close, int depth) {
        List<Node> items = new ArrayList<>();
        if (!accept(close)) {
            do {
                items.add(or(depth + 1));
            } while (accept(","));
            expect(close);
        }
        return items;
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
