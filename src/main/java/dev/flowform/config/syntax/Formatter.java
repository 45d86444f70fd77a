package dev.flowform.config.syntax;

import java.util.List;

/**
 * The canonical layout of a configuration file for {@code flowform fmt}, idempotent: two-space indentation, one
 * property per line in the order written, short scalar arrays on one line up to {@value #WIDTH} characters, numbers as
 * written, strings with the shortest JSON escapes, {@code \n} line ends and one final newline (docs/configuration.md,
 * "validate and fmt"). Pure.
 */
public final class Formatter {

    /** Longest line an array is kept on, in characters. */
    public static final int WIDTH = 100;

    private Formatter() {
    }

    /** @return the file whose parsed root object is {@code root}, in canonical layout, ending with one newline */
    public static String format(ConfigNode.ObjectNode root) {
        StringBuilder out = new StringBuilder();
        value(root, 0, 0, out);
        out.append('\n');
        return out.toString();
    }

    /** @return any parsed JSON value in the layout of {@link #format}, starting at column 0, without a final newline */
    public static String formatValue(ConfigNode value) {
        StringBuilder out = new StringBuilder();
        value(value, 0, 0, out);
        return out.toString();
    }

    /**
     * @param indent the indentation of the line the value starts on, in levels
     * @param column the column the value starts at (for the width of one-line arrays)
     */
    private static void value(ConfigNode node, int indent, int column, StringBuilder out) {
        if (node instanceof ConfigNode.ObjectNode o) {
            if (o.entries().isEmpty()) {
                out.append("{}");
                return;
            }
            out.append("{\n");
            List<ConfigNode.Entry> entries = o.entries();
            for (int i = 0; i < entries.size(); i++) {
                ConfigNode.Entry e = entries.get(i);
                String pad = "  ".repeat(indent + 1);
                out.append(pad);
                int start = out.length();
                string(e.key(), out);
                out.append(": ");
                value(e.value(), indent + 1, pad.length() + out.length() - start, out);
                out.append(i < entries.size() - 1 ? ",\n" : "\n");
            }
            out.append("  ".repeat(indent)).append('}');
        } else if (node instanceof ConfigNode.ArrayNode a) {
            if (a.items().isEmpty()) {
                out.append("[]");
                return;
            }
            String inline = inline(a);
            if (inline != null && column + inline.length() + 1 <= WIDTH) {
                out.append(inline);
                return;
            }
            out.append("[\n");
            String pad = "  ".repeat(indent + 1);
            for (int i = 0; i < a.items().size(); i++) {
                out.append(pad);
                value(a.items().get(i), indent + 1, pad.length(), out);
                out.append(i < a.items().size() - 1 ? ",\n" : "\n");
            }
            out.append("  ".repeat(indent)).append(']');
        } else if (node instanceof ConfigNode.StringNode s) {
            string(s.value(), out);
        } else if (node instanceof ConfigNode.NumberNode n) {
            out.append(n.literal());
        } else if (node instanceof ConfigNode.BoolNode b) {
            out.append(b.value());
        } else {
            out.append("null");
        }
    }

    /** @return the array on one line when all its items are scalars, else null */
    private static String inline(ConfigNode.ArrayNode a) {
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < a.items().size(); i++) {
            ConfigNode item = a.items().get(i);
            if (item instanceof ConfigNode.ObjectNode || item instanceof ConfigNode.ArrayNode) {
                return null;
            }
            if (i > 0) {
                out.append(", ");
            }
            value(item, 0, 0, out);
        }
        return out.append(']').toString();
    }

    /** Writes {@code s} to {@code out} as a JSON string literal, quotes included, with {@link #format}'s escapes. */
    public static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    boolean pairedHigh = Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1));
                    boolean pairedLow = Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
                    if (c < 0x20 || c == 0x7F || c == '\u2028' || c == '\u2029'
                            || (Character.isSurrogate(c) && !pairedHigh && !pairedLow)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
