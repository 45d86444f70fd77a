package dev.flowform.config.lang;

import dev.flowform.diag.Suggestions;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A type constraint ({@code string}, {@code number}, {@code bool}, {@code any}, {@code list(T)}, {@code map(T)},
 * {@code object({...})} with {@code optional(T)}), converting values by Terraform's rules; unlike Terraform, an
 * undeclared object attribute is an error (docs/configuration.md, "Variables").
 *
 * @param element    the element type of a list or map, else null
 * @param attributes the attribute types of an object, in declaration order, else null
 * @param optional   the attributes of an object that may be omitted, else null
 */
public record VarType(Kind kind, VarType element, Map<String, VarType> attributes, Set<String> optional) {

    /**
     * The kinds of type: any value (kept as given), string, number, bool, a list of one element type, a map from
     * string keys to one element type, an object with named, individually typed attributes.
     */
    public enum Kind {
        ANY, STRING, NUMBER, BOOL, LIST, MAP, OBJECT
    }

    /** Any value, kept as given. */
    public static final VarType ANY = new VarType(Kind.ANY, null);
    /** {@code string}. */
    public static final VarType STRING = new VarType(Kind.STRING, null);
    /** {@code number}. */
    public static final VarType NUMBER = new VarType(Kind.NUMBER, null);
    /** {@code bool}. */
    public static final VarType BOOL = new VarType(Kind.BOOL, null);
    /** {@code list(string)}. */
    public static final VarType LIST_OF_STRING = new VarType(Kind.LIST, STRING);

    /** Deepest nesting of type expressions accepted, e.g. {@code list(list(...))}. */
    public static final int MAX_DEPTH = 16;

    /** Checks a collection type has an element type and an object type its attributes. */
    public VarType {
        Objects.requireNonNull(kind, "kind");
        if ((kind == Kind.LIST || kind == Kind.MAP) != (element != null)) {
            throw new IllegalArgumentException("element type is required exactly for list and map");
        }
        if ((kind == Kind.OBJECT) != (attributes != null)) {
            throw new IllegalArgumentException("attribute types are required exactly for object");
        }
        attributes = attributes == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        optional = attributes == null ? null : Set.copyOf(optional == null ? Set.of() : optional);
    }

    /** A type without attributes. */
    public VarType(Kind kind, VarType element) {
        this(kind, element, null, null);
    }

    /** @return an object type with these attributes (in order), of which {@code optional} may be omitted */
    public static VarType object(Map<String, VarType> attributes, Set<String> optional) {
        return new VarType(Kind.OBJECT, null, attributes, optional);
    }

    /** @return true for list, map and object types, whose values are given as JSON on the command line */
    public boolean isComplex() {
        return kind == Kind.LIST || kind == Kind.MAP || kind == Kind.OBJECT;
    }

    /** @return the type as Terraform writes it, e.g. {@code list(string)} or {@code object({a=number})} */
    @Override
    public String toString() {
        return switch (kind) {
            case LIST -> "list(" + element + ")";
            case MAP -> "map(" + element + ")";
            case OBJECT -> {
                List<String> parts = new ArrayList<>();
                attributes.forEach((k, t) -> parts.add(k + "=" + (optional.contains(k) ? "optional(" + t + ")" : t)));
                yield "object({" + String.join(", ", parts) + "})";
            }
            default -> kind.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /**
     * The outcome of parsing a type expression.
     *
     * @param type  the type, or null on error
     * @param error why the expression is not a supported type, or null
     */
    public record Parsed(VarType type, String error) {
    }

    private static final String KINDS = "string, number, bool, any, list(T), map(T) or object({name = T, ...})";

    /** Parses a type expression such as {@code list(string)} or {@code object({name = string})}. */
    public static Parsed parse(String text) {
        Parser p = new Parser(text);
        try {
            VarType t = p.type(1);
            p.skipSpace();
            if (p.pos != text.length()) {
                return new Parsed(null, "Unexpected \"" + abbreviate(text.substring(p.pos)) + "\" after the type.");
            }
            return new Parsed(t, null);
        } catch (IllegalArgumentException e) {
            return new Parsed(null, e.getMessage());
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
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

        String word() {
            skipSpace();
            int start = pos;
            while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
                    || (pos > start && text.charAt(pos) == '-'))) {
                pos++;
            }
            return text.substring(start, pos);
        }

        VarType type(int depth) {
            if (depth > MAX_DEPTH) {
                throw new IllegalArgumentException("The type nests more than " + MAX_DEPTH + " levels deep.");
            }
            String word = word();
            return switch (word) {
                case "string" -> STRING;
                case "number" -> NUMBER;
                case "bool" -> BOOL;
                case "any" -> ANY;
                case "list", "map" -> {
                    expect('(');
                    VarType element = type(depth + 1);
                    expect(')');
                    yield new VarType(word.equals("list") ? Kind.LIST : Kind.MAP, element);
                }
                case "object" -> object(depth);
                case "optional" -> throw new IllegalArgumentException("optional(T) may only mark an attribute of an object "
                        + "type, e.g. object({port = optional(number)}).");
                case "tuple", "set" ->
                        throw new IllegalArgumentException("The type " + word + "(...) is not supported; use " + KINDS + ".");
                case "" -> throw new IllegalArgumentException("A type is required "
                        + (pos == 0 ? "here" : "at position " + (pos + 1)) + ": " + KINDS + ".");
                default -> throw new IllegalArgumentException("\"" + abbreviate(word) + "\" is not a type: use " + KINDS + "."
                        + Suggestions.didYouMean(word, List.of("string", "number", "bool", "any", "list", "map", "object")));
            };
        }

        private VarType object(int depth) {
            expect('(');
            expect('{');
            Map<String, VarType> attributes = new LinkedHashMap<>();
            Set<String> optional = new java.util.TreeSet<>();
            skipSpace();
            while (pos < text.length() && text.charAt(pos) != '}') {
                String name = word();
                if (name.isEmpty() || !Character.isLetter(name.charAt(0)) && name.charAt(0) != '_') {
                    throw new IllegalArgumentException("Expected an attribute name at position " + (pos + 1)
                            + " of the type, e.g. object({name = string}).");
                }
                skipSpace();
                if (pos < text.length() && (text.charAt(pos) == '=' || text.charAt(pos) == ':')) {
                    pos++;
                } else {
                    throw new IllegalArgumentException("Expected \"=\" after the attribute name \"" + name + "\" at position "
                            + (pos + 1) + " of the type.");
                }
                int save = pos;
                boolean isOptional = word().equals("optional");
                VarType t;
                if (isOptional) {
                    expect('(');
                    t = type(depth + 1);
                    expect(')');
                } else {
                    pos = save;
                    t = type(depth + 1);
                }
                if (attributes.putIfAbsent(name, t) != null) {
                    throw new IllegalArgumentException("The attribute \"" + name + "\" is declared twice in the object type.");
                }
                if (isOptional) {
                    optional.add(name);
                }
                skipSpace();
                if (pos < text.length() && text.charAt(pos) == ',') {
                    pos++;
                    skipSpace();
                } else {
                    break;
                }
            }
            expect('}');
            expect(')');
            return VarType.object(attributes, optional);
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
    public record Converted(Value value, String error) {
        /** @return a successful conversion to {@code v} */
        public static Converted ok(Value v) {
            return new Converted(v, null);
        }

        /** @return a failed conversion, {@code error} saying why */
        public static Converted fail(String error) {
            return new Converted(null, error);
        }
    }

    /** Converts {@code v} to this type (Terraform's conversion rules). */
    public Converted convert(Value v) {
        if (v instanceof Value.NullValue || kind == Kind.ANY) {
            return Converted.ok(v);
        }
        Converted c = switch (kind) {
            case STRING -> asString(v);
            case NUMBER -> asNumber(v);
            case BOOL -> asBool(v);
            case LIST -> v instanceof Value.ListValue list ? convertList(list) : null;
            case MAP -> v instanceof Value.ObjectValue object ? convertMap(object) : null;
            case OBJECT -> v instanceof Value.ObjectValue object ? convertObject(object) : null;
            default -> null;
        };
        return c != null ? c : Converted.fail("expected " + describe() + ", got " + v.kind());
    }

    /** @return numbers and bools as strings, or null when {@code v} does not convert */
    private static Converted asString(Value v) {
        if (v instanceof Value.StringValue) {
            return Converted.ok(v);
        }
        if (v instanceof Value.NumberValue n) {
            return Converted.ok(new Value.StringValue(Numbers.format(n.value()), n.range(), n.sensitive()));
        }
        if (v instanceof Value.BoolValue b) {
            return Converted.ok(new Value.StringValue(Boolean.toString(b.value()), b.range(), b.sensitive()));
        }
        return null;
    }

    /** @return a string that spells a number as that number, or null when {@code v} is neither */
    private static Converted asNumber(Value v) {
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
        return null;
    }

    /** @return {@code "true"} and {@code "false"} as bools, or null when {@code v} is neither bool nor string */
    private static Converted asBool(Value v) {
        if (v instanceof Value.BoolValue) {
            return Converted.ok(v);
        }
        if (v instanceof Value.StringValue s && (s.value().equals("true") || s.value().equals("false"))) {
            return Converted.ok(new Value.BoolValue(s.value().equals("true"), s.range(), s.sensitive()));
        }
        if (v instanceof Value.StringValue) {
            return Converted.fail("expected bool, got string (only \"true\" and \"false\" convert)");
        }
        return null;
    }

    private Converted convertList(Value.ListValue list) {
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

    private Converted convertMap(Value.ObjectValue object) {
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

    private Converted convertObject(Value.ObjectValue object) {
        Map<String, Value.Member> given = new LinkedHashMap<>();
        for (Value.Member m : object.members()) {
            if (!attributes.containsKey(m.key())) {
                return Converted.fail("attribute \"" + m.key() + "\" is not declared in the type " + describe()
                        + Suggestions.closest(m.key(), attributes.keySet()).map(c -> " (did you mean \"" + c + "\"?)").orElse(""));
            }
            given.put(m.key(), m);
        }
        List<Value.Member> members = new ArrayList<>();
        for (Map.Entry<String, VarType> a : attributes.entrySet()) {
            Value.Member m = given.get(a.getKey());
            if (m == null) {
                if (!optional.contains(a.getKey())) {
                    return Converted.fail("attribute \"" + a.getKey() + "\" is required");
                }
                members.add(new Value.Member(a.getKey(), null, new Value.NullValue(object.range(), object.sensitive())));
                continue;
            }
            Converted c = a.getValue().convert(m.value());
            if (c.error() != null) {
                return Converted.fail("attribute \"" + a.getKey() + "\": " + c.error());
            }
            members.add(new Value.Member(a.getKey(), m.keyRange(), c.value()));
        }
        return Converted.ok(new Value.ObjectValue(members, object.range(), object.sensitive()));
    }

    /** @return the type as messages name it: objects by their attributes only when short */
    public String describe() {
        String full = toString();
        return kind == Kind.OBJECT && full.length() > 60 ? "object" : full;
    }
}
