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
import dev.flowform.config.lang.ValidationExpression.Result;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Computes a {@link ValidationExpression} for the values its references have (the semantics documented there).
 * Messages name the kinds of the values involved, never their content, since a value may be sensitive.
 */
final class ValidationExpressionEvaluator {

    private final Function<Ref, Value> resolve;

    /** @param resolve gives the value of a reference, or null when it has none */
    ValidationExpressionEvaluator(Function<Ref, Value> resolve) {
        this.resolve = resolve;
    }

    /** @return the condition's bool, or the error that stopped evaluation */
    Result evaluate(Node root) {
        try {
            Value v = eval(root);
            if (v instanceof Value.BoolValue b) {
                return new Result(b.value(), null);
            }
            return new Result(null, "The condition must produce true or false, but it produced " + describe(v) + ".");
        } catch (Problem e) {
            return new Result(null, e.getMessage());
        }
    }

    private Value eval(Node n) {
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
                items.add(eval(item));
            }
            return new Value.ListValue(items, null, false);
        }
        if (n instanceof Not not) {
            return bool(!bool(eval(not.operand()), "!"));
        }
        if (n instanceof Binary b) {
            return binary(b);
        }
        return call((Call) n);
    }

    private Value binary(Binary b) {
        String op = b.op();
        if (op.equals("&&") || op.equals("||")) {
            boolean left = bool(eval(b.left()), op);
            if (op.equals("&&") ? !left : left) {
                return bool(left);
            }
            return bool(bool(eval(b.right()), op));
        }
        Value left = eval(b.left());
        Value right = eval(b.right());
        if (op.equals("==") || op.equals("!=")) {
            return bool(op.equals("==") == same(left, right));
        }
        if (!(left instanceof Value.NumberValue l) || !(right instanceof Value.NumberValue r)) {
            throw new Problem("The operator " + op + " compares numbers, but got " + describe(left) + " and " + describe(right) + ".");
        }
        int cmp = l.value().compareTo(r.value());
        return bool(switch (op) {
            case "<" -> cmp < 0;
            case "<=" -> cmp <= 0;
            case ">" -> cmp > 0;
            default -> cmp >= 0;
        });
    }

    private static boolean bool(Value v, String op) {
        if (v instanceof Value.BoolValue b) {
            return b.value();
        }
        throw new Problem("The operator " + op + " takes true or false, but got " + describe(v) + ".");
    }

    private Value call(Call c) {
        String f = c.function();
        if (f.equals("can")) {
            try {
                eval(c.args().get(0));
                return bool(true);
            } catch (Problem e) {
                return bool(false);
            }
        }
        List<Value> args = new ArrayList<>();
        for (Node a : c.args()) {
            args.add(eval(a));
        }
        return switch (f) {
            case "length" -> length(args.get(0));
            case "contains" -> contains(args.get(0), args.get(1));
            case "strcontains" -> bool(str(args.get(0), f, 1).contains(str(args.get(1), f, 2)));
            case "startswith" -> bool(str(args.get(0), f, 1).startsWith(str(args.get(1), f, 2)));
            case "endswith" -> bool(str(args.get(0), f, 1).endsWith(str(args.get(1), f, 2)));
            case "lower" -> new Value.StringValue(str(args.get(0), f, 1).toLowerCase(Locale.ROOT), null, false);
            case "upper" -> new Value.StringValue(str(args.get(0), f, 1).toUpperCase(Locale.ROOT), null, false);
            case "regex" -> regex(str(args.get(0), f, 1), str(args.get(1), f, 2));
            default -> throw new Problem("Unknown function " + f + ".");
        };
    }

    private static Value length(Value v) {
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

    private static Value contains(Value list, Value item) {
        if (!(list instanceof Value.ListValue l)) {
            throw new Problem("contains() takes a list as its first argument, but got " + describe(list)
                    + (list instanceof Value.StringValue ? "; use strcontains(string, substring) for strings" : "")
                    + ".");
        }
        return bool(l.items().stream().anyMatch(x -> same(x, item)));
    }

    /** Terraform's {@code regex}: the first match, or an error when there is none. */
    private static Value regex(String pattern, String subject) {
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

    private static Value bool(boolean b) {
        return new Value.BoolValue(b, null, false);
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
        return Objects.equals(a.toJava(), b.toJava());
    }

    /** @return the kind of a value for messages, never its content (it may be sensitive) */
    private static String describe(Value v) {
        return v instanceof Value.NullValue ? "null" : "a " + v.kind();
    }
}
