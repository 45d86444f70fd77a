package dev.flowform.config.syntax;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import dev.flowform.diag.SourceRange;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.json.JsonFactory;

/**
 * Parses strict RFC 8259 JSON into a located {@link ConfigNode} tree with Jackson's streaming parser, keeping repeated
 * property names. Bad input (invalid UTF-8, syntax, numbers over {@value #MAX_NUMBER_LENGTH} characters, names over
 * {@value #MAX_NAME_LENGTH}, nesting over {@value #MAX_DEPTH}) is one located error and stops that file. Pure.
 */
public final class JsonSourceParser {

    /** Deepest nesting of objects and arrays accepted; the root object is level 1. */
    public static final int MAX_DEPTH = 64;

    /** Longest property name accepted, in characters. */
    public static final int MAX_NAME_LENGTH = 1000;

    /** Longest number literal accepted, in characters. */
    public static final int MAX_NUMBER_LENGTH = 1000;

    /** Summary of every syntax diagnostic. */
    public static final String SYNTAX_ERROR = "Invalid JSON syntax";

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH + 16)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxNameLength(MAX_NAME_LENGTH)
                    .build())
            .build();

    private JsonSourceParser() {
    }

    /** What the root object of a configuration file holds, for the error when the root is not an object. */
    public static final String CONFIGURATION_ROOT = "whose properties are block types";

    /** {@link #parse(String, Path, byte[], String)} for a configuration file, whose root holds block types. */
    public static ParsedFile parse(String filename, Path baseDir, byte[] content) {
        return parse(filename, baseDir, content, CONFIGURATION_ROOT);
    }

    /**
     * Decodes and parses one JSON file whose root must be an object.
     *
     * @param filename  the name diagnostics show
     * @param baseDir   the folder relative paths in the file resolve against, or null
     * @param content   the raw bytes (UTF-8; a leading byte order mark is ignored)
     * @param rootHolds completes "The root of ... must be a JSON object ..." in the error for another root, e.g.
     *                  {@code "whose properties are variable names"}
     * @return the parsed file; its {@code root} is null when there were errors
     */
    public static ParsedFile parse(String filename, Path baseDir, byte[] content, String rootHolds) {
        Diagnostics diags = new Diagnostics();
        String text = decodeUtf8(filename, content, diags);
        if (text == null) {
            return new ParsedFile(filename, baseDir, null, null, diags);
        }
        return parseText(filename, baseDir, text, rootHolds);
    }

    /** {@link #parse(String, Path, byte[])} for text already decoded. */
    public static ParsedFile parseText(String filename, Path baseDir, String text) {
        return parseText(filename, baseDir, text, CONFIGURATION_ROOT);
    }

    private static ParsedFile parseText(String filename, Path baseDir, String text, String rootHolds) {
        SourceText source = new SourceText(filename, stripBom(text));
        Diagnostics diags = new Diagnostics();
        ConfigNode root = parseValue(source, diags);
        if (root != null && !(root instanceof ConfigNode.ObjectNode)) {
            diags.add(Diagnostic.error(SYNTAX_ERROR,
                    "The root of " + (rootHolds.equals(CONFIGURATION_ROOT) ? "a configuration file" : "this file")
                            + " must be a JSON object " + rootHolds + ", got " + root.kind() + ".",
                    root.range()));
            root = null;
        }
        return new ParsedFile(filename, baseDir, source, (ConfigNode.ObjectNode) root, diags);
    }

    /**
     * Parses one JSON value of any kind (used for values given on the command line), syntax errors to {@code diags}.
     *
     * @return the value, or null when the text is not exactly one JSON value
     */
    public static ConfigNode parseValue(SourceText source, Diagnostics diags) {
        if (source.text().isBlank()) {
            diags.add(Diagnostic.error(SYNTAX_ERROR,
                    "The file is empty; a configuration file holds one JSON object, at least {}.",
                    source.point(0)));
            return null;
        }
        try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), source.text())) {
            TreeReader reader = new TreeReader(parser, source);
            ConfigNode value = reader.read(reader.next(), 1);
            JsonToken extra = reader.next();
            if (extra != null) {
                throw reader.stop("Extra characters after the end of the JSON value: a file holds exactly one value.",
                        source.point(reader.offset(parser.currentTokenLocation())));
            }
            return value;
        } catch (Stop stop) {
            diags.add(stop.diagnostic);
        } catch (JacksonException e) {
            diags.add(syntaxError(e, source));
        }
        return null;
    }

    /**
     * Jackson's syntax error as a diagnostic. The two commonest slips of hand-edited JSON get their own message at the
     * place to edit: a trailing comma (Jackson reports the {@code "}"} or {@code "]"} after it, "was expecting
     * double-quote") points at the comma, and a missing comma (Jackson reports the next value's first character) points
     * just after the value that needs it.
     */
    private static Diagnostic syntaxError(JacksonException e, SourceText source) {
        String text = source.text();
        TokenStreamLocation loc = e.getLocation();
        int offset = loc != null && loc.getCharOffset() >= 0 ? (int) Math.min(loc.getCharOffset(), text.length())
                : text.length();
        int before = offset - 1;
        while (before >= 0 && Character.isWhitespace(text.charAt(before))) {
            before--;
        }
        char here = offset < text.length() ? text.charAt(offset) : 0;
        if ((here == '}' || here == ']') && before >= 0 && text.charAt(before) == ',') {
            return Diagnostic.error(SYNTAX_ERROR, "Trailing comma before \"" + here + "\": JSON allows no comma after the "
                    + (here == '}' ? "last property of an object" : "last element of a list") + "; remove it.",
                    source.point(before));
        }
        String original = String.valueOf(e.getOriginalMessage());
        if (original.contains("was expecting comma to separate") && before >= 0) {
            return Diagnostic.error(SYNTAX_ERROR, "Missing comma after this value: the " + (original.contains("Object")
                    ? "properties of an object" : "elements of a list") + " are separated by \",\".", source.point(before + 1));
        }
        return Diagnostic.error(SYNTAX_ERROR, cleanMessage(e.getOriginalMessage()), source.point(offset));
    }

    private static String decodeUtf8(String filename, byte[] content, Diagnostics diags) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(content);
        CharBuffer out = CharBuffer.allocate(content.length + 1);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int bad = in.position();
            String before = stripBom(new String(content, 0, bad, StandardCharsets.UTF_8));
            SourceText prefix = new SourceText(filename, before);
            StringBuilder bytes = new StringBuilder();
            for (int i = bad; i < Math.min(content.length, bad + result.length()); i++) {
                bytes.append(bytes.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "0x%02X", content[i] & 0xFF));
            }
            diags.add(Diagnostic.error("Invalid UTF-8",
                    "Configuration files must be UTF-8 encoded; found the invalid byte sequence " + bytes + " here.",
                    prefix.point(before.length())));
            return null;
        }
        out.flip();
        return out.toString();
    }

    private static String stripBom(String text) {
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** Drops Jackson's implementation hints so the message reads as plain JSON advice. */
    public static String cleanMessage(String message) {
        if (message == null || message.isBlank()) {
            return "The file is not valid JSON.";
        }
        String m = message.strip();
        int newline = m.indexOf('\n');
        if (newline > 0) {
            m = m.substring(0, newline).strip();
        }
        m = m.replaceAll("\\s*\\(start marker at \\[.*\\]\\)", "")
                .replace("Unexpected end-of-input: expected close marker for Object",
                        "Unexpected end of file: an object is not closed with \"}\"")
                .replace("Unexpected end-of-input: expected close marker for Array",
                        "Unexpected end of file: a list is not closed with \"]\"")
                .replace("Unexpected end-of-input", "Unexpected end of file")
                .replaceAll("\\s*\\(code \\d+\\)", "")
                .replaceAll(": enable `[^`]*` to allow", "")
                .replaceAll(", from `[^`]*`", "")
                .replace("(CTRL-CHAR)", "control character")
                .replaceAll("^Name length \\(\\d+\\) exceeds the maximum allowed \\((\\d+)\\)",
                        "A property name is longer than the maximum of $1 characters");
        m = m.isEmpty() ? "The file is not valid JSON." : Character.toUpperCase(m.charAt(0)) + m.substring(1);
        return m.endsWith(".") ? m : m + ".";
    }

    /** Aborts the parse of one file with one diagnostic. */
    private static final class Stop extends RuntimeException {
        private final transient Diagnostic diagnostic;

        Stop(Diagnostic diagnostic) {
            super(diagnostic.summary(), null, false, false);
            this.diagnostic = diagnostic;
        }
    }

    /** Builds the tree from the token stream; one instance per parse. */
    private static final class TreeReader {
        private final JsonParser parser;
        private final SourceText source;

        TreeReader(JsonParser parser, SourceText source) {
            this.parser = parser;
            this.source = source;
        }

        /**
         * Advances the parser. Jackson reports some errors (stream constraints such as an overlong
         * number) without a location; those are located at the token being read.
         */
        JsonToken next() {
            try {
                return parser.nextToken();
            } catch (JacksonException e) {
                TokenStreamLocation loc = e.getLocation();
                if (loc != null && loc.getCharOffset() >= 0) {
                    throw e;
                }
                throw stop(cleanMessage(e.getOriginalMessage()), source.point(offset(parser.currentTokenLocation())));
            }
        }

        long offset(TokenStreamLocation location) {
            return location == null ? 0 : Math.max(0, location.getCharOffset());
        }

        Stop stop(String detail, SourceRange at) {
            return new Stop(Diagnostic.error(SYNTAX_ERROR, detail, at));
        }

        ConfigNode read(JsonToken token, int depth) {
            long start = offset(parser.currentTokenLocation());
            if (token == null) {
                throw stop("Unexpected end of file: a value was expected.", source.point(source.text().length()));
            }
            switch (token) {
                case START_OBJECT:
                    checkDepth(depth, start);
                    return readObject(start, depth);
                case START_ARRAY:
                    checkDepth(depth, start);
                    return readArray(start, depth);
                case VALUE_STRING: {
                    String value = parser.getString();
                    return new ConfigNode.StringNode(value, source.range(start, stringEnd(start)));
                }
                case VALUE_NUMBER_INT:
                case VALUE_NUMBER_FLOAT: {
                    String literal = parser.getString();
                    SourceRange range = source.range(start, start + literal.length());
                    if (literal.length() > MAX_NUMBER_LENGTH) {
                        throw stop("The number is " + literal.length() + " characters long; at most " + MAX_NUMBER_LENGTH
                                + " are accepted.", range);
                    }
                    try {
                        return new ConfigNode.NumberNode(new BigDecimal(literal), literal, range);
                    } catch (NumberFormatException | ArithmeticException e) {
                        throw stop("The number " + abbreviate(literal) + " is out of range: its exponent is too large.", range);
                    }
                }
                case VALUE_TRUE:
                    return new ConfigNode.BoolNode(true, source.range(start, start + 4));
                case VALUE_FALSE:
                    return new ConfigNode.BoolNode(false, source.range(start, start + 5));
                case VALUE_NULL:
                    return new ConfigNode.NullNode(source.range(start, start + 4));
                default:
                    throw stop("Unexpected " + token + ": a value was expected.", source.point(start));
            }
        }

        private void checkDepth(int depth, long start) {
            if (depth > MAX_DEPTH) {
                throw new Stop(Diagnostic.error("Nesting too deep",
                        "Configuration values may nest at most " + MAX_DEPTH + " objects or arrays deep.",
                        source.point(start)));
            }
        }

        private ConfigNode.ObjectNode readObject(long start, int depth) {
            List<ConfigNode.Entry> entries = new ArrayList<>();
            while (true) {
                JsonToken token = next();
                if (token == JsonToken.END_OBJECT) {
                    long end = offset(parser.currentTokenLocation()) + 1;
                    return new ConfigNode.ObjectNode(entries, source.range(start, end));
                }
                if (token != JsonToken.PROPERTY_NAME) {
                    throw stop("Unexpected end of file inside an object.", source.point(source.text().length()));
                }
                String key = parser.currentName();
                long keyStart = offset(parser.currentTokenLocation());
                SourceRange keyRange = source.range(keyStart, stringEnd(keyStart));
                ConfigNode value = read(next(), depth + 1);
                entries.add(new ConfigNode.Entry(key, keyRange, value));
            }
        }

        private ConfigNode.ArrayNode readArray(long start, int depth) {
            List<ConfigNode> items = new ArrayList<>();
            while (true) {
                JsonToken token = next();
                if (token == JsonToken.END_ARRAY) {
                    long end = offset(parser.currentTokenLocation()) + 1;
                    return new ConfigNode.ArrayNode(items, source.range(start, end));
                }
                items.add(read(token, depth + 1));
            }
        }

        /** @return the offset just after the closing quote of the string literal starting at {@code start} */
        private long stringEnd(long start) {
            String text = source.text();
            int i = (int) start + 1;
            while (i < text.length()) {
                char c = text.charAt(i);
                if (c == '\\') {
                    i += 2;
                } else if (c == '"') {
                    return i + 1;
                } else {
                    i++;
                }
            }
            return text.length();
        }

        private static String abbreviate(String literal) {
            return literal.length() <= 40 ? literal : literal.substring(0, 37) + "...";
        }
    }
}
