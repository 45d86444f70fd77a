package dev.flowform.config.lang;

import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Sink;
import dev.flowform.diag.SourceRange;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates located JSON as expressions (HCL JSON "full expression mode") or literals: every string is a
 * {@link Template}; a template of exactly one reference yields that value (Terraform's unwrapping), else a string,
 * sensitive when any reference is. Never throws: problems go to the {@link Sink} and the value is null.
 */
public final class Evaluator {

    /** Resolves references such as {@code var.name}. */
    public interface Scope {
        /**
         * @return the value of {@code reference} used at {@code at}, or null when it is unknown (already reported to
         *         {@code sink}, here or earlier, e.g. an undeclared variable)
         */
        Value resolve(Template.Reference reference, SourceRange at, Sink sink);
    }

    private final Scope scope;
    private final Sink sink;

    /** An evaluator whose {@code scope} resolves references and whose {@code sink} receives problems. */
    public Evaluator(Scope scope, Sink sink) {
        this.scope = scope;
        this.sink = sink;
    }

    /** @return the value of {@code node} evaluated as an expression, or null when it could not be computed */
    public Value eval(ConfigNode node) {
        if (node instanceof ConfigNode.StringNode s) {
            return template(s);
        }
        if (node instanceof ConfigNode.ArrayNode a) {
            List<Value> items = new ArrayList<>();
            boolean failed = false;
            for (ConfigNode item : a.items()) {
                Value v = eval(item);
                failed |= v == null;
                items.add(v);
            }
            return failed ? null : new Value.ListValue(items, a.range(), false);
        }
        if (node instanceof ConfigNode.ObjectNode o) {
            List<Value.Member> members = new ArrayList<>();
            boolean failed = !checkObjectKeys(o, sink, true);
            for (ConfigNode.Entry e : o.entries()) {
                Value v = eval(e.value());
                failed |= v == null;
                if (v != null) {
                    members.add(new Value.Member(e.key(), e.keyRange(), v));
                }
            }
            return failed ? null : new Value.ObjectValue(members, o.range(), false);
        }
        return Value.literal(node);
    }

    private Value template(ConfigNode.StringNode node) {
        Template.Parsed parsed = Template.parse(node.value());
        if (parsed.problem() != null) {
            sink.error(parsed.problem().summary(), parsed.problem().detail(), node.range());
            return null;
        }
        Template template = parsed.template();
        String[] misspelt = Template.misspeltReference(node.value());
        if (misspelt != null) {
            sink.warning("Interpolation passed through verbatim", misspelt[0] + " is not one of flowform's references, so it "
                    + "is kept as text (like a config provider placeholder). Did you mean " + misspelt[1] + ".*? Write $${ "
                    + "to keep such text without this warning.", node.range());
        }
        if (!template.hasReferences()) {
            return new Value.StringValue(((Template.Literal) template.parts().get(0)).text(), node.range(), false);
        }
        if (template.isSingleReference()) {
            Value v = scope.resolve((Template.Reference) template.parts().get(0), node.range(), sink);
            return v == null ? null : v.relocate(node.range(), false);
        }
        StringBuilder out = new StringBuilder();
        boolean sensitive = false;
        boolean failed = false;
        for (Template.Part part : template.parts()) {
            if (part instanceof Template.Literal literal) {
                out.append(literal.text());
                continue;
            }
            Template.Reference ref = (Template.Reference) part;
            Value v = scope.resolve(ref, node.range(), sink);
            if (v == null) {
                failed = true;
                continue;
            }
            sensitive |= v.anySensitive();
            if (v instanceof Value.StringValue s) {
                out.append(s.value());
            } else if (v instanceof Value.NumberValue n) {
                out.append(Numbers.format(n.value()));
            } else if (v instanceof Value.BoolValue b) {
                out.append(b.value());
            } else if (v instanceof Value.NullValue) {
                sink.error("Invalid template interpolation value", "${" + ref.text()
                        + "} is null, which cannot be part of a string. Give it a value, or use it as the whole string "
                        + "so the argument is left unset.", node.range());
                failed = true;
            } else {
                sink.error("Invalid template interpolation value", "${" + ref.text() + "} is a " + v.kind()
                        + ", which cannot be part of a string. Use it as the whole string (\"${" + ref.text()
                        + "}\") to pass the " + v.kind() + " itself.", node.range());
                failed = true;
            }
        }
        return failed ? null : new Value.StringValue(out.toString(), node.range(), sensitive);
    }

    /**
     * Evaluates {@code node} in literal mode: strings are taken as written and flowform references
     * are an error ("Variables not allowed").
     *
     * @param where how the place is called in the error, e.g. {@code an environment block}
     * @return the literal value, or null when a reference was found
     */
    public static Value literal(ConfigNode node, String where, Sink sink) {
        return checkLiteral(node, where, sink) ? Value.literal(node) : null;
    }

    private static boolean checkLiteral(ConfigNode node, String where, Sink sink) {
        if (node instanceof ConfigNode.StringNode s) {
            String reference = Template.firstReference(s.value());
            if (reference != null) {
                sink.error("Variables not allowed", "References such as " + reference + " cannot be used in " + where
                        + ": its values are literal, read before variables are. Write $${ for a literal ${.", s.range());
                return false;
            }
            return true;
        }
        boolean ok = true;
        if (node instanceof ConfigNode.ArrayNode a) {
            for (ConfigNode item : a.items()) {
                ok &= checkLiteral(item, where, sink);
            }
        } else if (node instanceof ConfigNode.ObjectNode o) {
            ok = checkObjectKeys(o, sink, false);
            for (ConfigNode.Entry e : o.entries()) {
                ok &= checkLiteral(e.value(), where, sink);
            }
        }
        return ok;
    }

    /**
     * Reports repeated keys in an object used as a value (the HCL JSON spec makes them an error there,
     * unlike in block bodies) and, when asked, warns about {@code "//"} keys, which are only comments
     * in block bodies.
     *
     * @return false when a key is repeated
     */
    public static boolean checkObjectKeys(ConfigNode.ObjectNode o, Sink sink, boolean warnComments) {
        Map<String, SourceRange> seen = new HashMap<>();
        boolean ok = true;
        for (ConfigNode.Entry e : o.entries()) {
            SourceRange first = seen.putIfAbsent(e.key(), e.keyRange());
            if (first != null) {
                sink.error("Duplicate object attribute", "An attribute named \"" + e.key() + "\" was already defined at "
                        + first + ".", e.keyRange());
                ok = false;
            } else if (warnComments && e.key().equals("//")) {
                sink.warning("Comment key in an object value", "\"//\" is a comment only directly inside a block; inside "
                        + "an object value it is an ordinary key and is kept as data.", e.keyRange());
            }
        }
        return ok;
    }
}
