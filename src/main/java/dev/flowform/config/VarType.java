package dev.flowform.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A type constraint: the {@code type} of a {@code variable} block, also used for argument types.
 *
 * <p>Written the way Terraform writes them: {@code string}, {@code number}, {@code bool},
 * {@code any}, {@code list(T)}, {@code map(T)}. Conversion follows Terraform's rules: numbers and
 * bools convert to strings, strings that spell a number or {@code true}/{@code false} convert back,
 * lists and maps convert element by element, and {@code null} is a valid value of every type.
 *
 * @param kind    the kind of type
 * @param element the element type of a list or map, else null
 */
record VarType(Kind kind, VarType element) {

    /** The kinds of type. */
    enum Kind {
        /** Any value, kept as given. */
        ANY,
        /** A string. */
        STRING,
        /** A number. */
        NUMBER,
        /** true or false. */
        BOOL,
        /** A list of one element type. */
        LIST,
        /** A map from string keys to one element type. */
        MAP
    }

    static final VarType ANY = new VarType(Kind.ANY, null);
    static final VarType STRING = new VarType(Kind.STRING, null);
    static final VarType NUMBER = new VarType(Kind.NUMBER, null);
    static final VarType BOOL = new VarType(Kind.BOOL, null);
    static final VarType LIST_OF_STRING = new VarType(Kind.LIST, STRING);
    static final VarType MAP_OF_STRING = new VarType(Kind.MAP, STRING);

    /** Checks a collection type has an element type. */
    VarType {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.LIST || kind == Kind.MAP) != (element != null)) {
            throw new IllegalArgumentException("element type is required exactly for list and map");
        }
    }

    @Override
    public String toString() {
        return switch (kind) {
            case LIST -> "list(" + element + ")";
            case MAP -> "map(" + element + ")";
            default -> kind.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /**
     * The outcome of parsing a type expression.
     *
     * @param type  the type, or null on error
     * @param error why the expression is not a supported type, or null
     */
    record Parsed(VarType type, String error) {
    }

    /** Parses a type expression such as {@code list(string)}. */
    static Parsed parse(String text) {
        Parser p = new Parser(text);
        try {
            VarType t = p.type();
            p.skipSpace();
            if (p.pos != text.length()) {
                return new Parsed(null, "Unexpected \"" + text.substring(p.pos) + "\" after the type.");
            }
            return new Parsed(t, null);
        } catch (IllegalArgumentException e) {
            return new Parsed(null, e.getMessage());
        }
    }

    private static final class Parser {
        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text;
        }

        void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        VarType type() {
            skipSpace();
            int start = pos;
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
                pos++;
            }
            String word = text.substring(start, pos);
            switch (word) {
                case "string":
                    return STRING;
                case "number":
                    return NUMBER;
                case "bool":
                    return BOOL;
                case "any":
                    return ANY;
                case "list":
                case "map":
                    expect('(');
                    VarType element = type();
                    expect(')');
                    return new VarType(word.equals("list") ? Kind.LIST : Kind.MAP, element);
                case "object":
                case "tuple":
                case "set":
                case "optional":
                    throw new IllegalArgumentException("The type " + word + "(...) is not supported yet; use string, number, bool, "
                            + "any, list(T) or map(T).");
                case "":
                    throw new IllegalArgumentException("A type is required here: string, number, bool, any, list(T) or map(T).");
                default:
                    throw new IllegalArgumentException("\"" + word + "\" is not a type: use string, number, bool, any, "
                            + "list(T) or map(T)." + Suggestions.didYouMean(word, List.of("string", "number", "bool", "any", "list", "map")));
            }
        }

        void expect(char c) {
            skipSpace();
            if (pos >= text.length() || text.charAt(pos) != c) {
                throw new IllegalArgumentException("Expected \"" + c + "\" at position " + (pos + 1) + " of the type.");
            }
            pos++;
        }
    }

    /**
     * The outcome of a conversion.
     *
     * @param value the converted value, or null on error
     * @param error what is wrong, e.g. {@code expected number, got string}, or null
     */
    record Converted(Value value, String error) {
        static Converted ok(Value v) {
            return new Converted(v, null);
        }

        static Converted fail(String error) {
            return new Converted(null, error);
        }
    }

    /** Converts {@code v} to this type (Terraform's conversion rules). */
    Converted convert(Value v) {
        if (v instanceof Value.NullValue || kind == Kind.ANY) {
            return Converted.ok(v);
        }
        switch (kind) {
            case STRING:
                if (v instanceof Value.StringValue) {
                    return Converted.ok(v);
                }
                if (v instanceof Value.NumberValue n) {
                    return Converted.ok(new Value.StringValue(Numbers.format(n.value()), n.range(), n.sensitive()));
                }
                if (v instanceof Value.BoolValue b) {
                    return Converted.ok(new Value.StringValue(Boolean.toString(b.value()), b.range(), b.sensitive()));
                }
                break;
            case NUMBER:
                if (v instanceof Value.NumberValue) {
                    return Converted.ok(v);
                }
                if (v instanceof Value.StringValue s) {
                    BigDecimal n = Numbers.parse(s.value());
                    if (n != null) {
                        return Converted.ok(new Value.NumberValue(n, s.range(), s.sensitive()));
                    }
                    return Converted.fail("expected number, got string (a string converts only when it spells a number)");
                }
                break;
            case BOOL:
                if (v instanceof Value.BoolValue) {
                    return Converted.ok(v);
                }
                if (v instanceof Value.StringValue s && (s.value().equals("true") || s.value().equals("false"))) {
                    return Converted.ok(new Value.BoolValue(s.value().equals("true"), s.range(), s.sensitive()));
                }
                if (v instanceof Value.StringValue) {
                    return Converted.fail("expected bool, got string (only \"true\" and \"false\" convert)");
                }
                break;
            case LIST:
                if (v instanceof Value.ListValue list) {
                    List<Value> items = new ArrayList<>();
                    for (int i = 0; i < list.items().size(); i++) {
                        Converted c = element.convert(list.items().get(i));
                        if (c.error() != null) {
                            return Converted.fail("element " + i + ": " + c.error());
                        }
                        items.add(c.value());
                    }
                    return Converted.ok(new Value.ListValue(items, list.range(), list.sensitive()));
                }
                break;
            case MAP:
                if (v instanceof Value.ObjectValue object) {
                    List<Value.Member> members = new ArrayList<>();
                    for (Value.Member m : object.members()) {
                        Converted c = element.convert(m.value());
                        if (c.error() != null) {
                            return Converted.fail("attribute \"" + m.key() + "\": " + c.error());
                        }
                        members.add(new Value.Member(m.key(), m.keyRange(), c.value()));
                    }
                    return Converted.ok(new Value.ObjectValue(members, object.range(), object.sensitive()));
                }
                break;
            default:
                break;
        }
        return Converted.fail("expected " + this + ", got " + v.kind());
    }
}
