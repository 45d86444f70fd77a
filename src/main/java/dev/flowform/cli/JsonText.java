package dev.flowform.cli;

import dev.flowform.config.syntax.ConfigNode;
import dev.flowform.config.syntax.Formatter;
import dev.flowform.config.syntax.JsonSourceParser;
import dev.flowform.config.syntax.SourceText;
import dev.flowform.diag.Diagnostics;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * JSON text for the commands' output: plain Java data (maps, lists, strings, numbers, booleans,
 * null) written compactly with Jackson, or laid out like {@code flowform fmt} lays out
 * configuration files (two-space indentation, short scalar arrays on one line).
 */
final class JsonText {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private JsonText() {
    }

    /** @return {@code value} as compact JSON */
    static String compact(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /** @return the string a JSON string literal denotes */
    static String string(String json) {
        return MAPPER.readValue(json, String.class);
    }

    /** @return plain data (maps with String keys, lists, scalars) as indented JSON in {@code fmt}'s layout, no newline */
    static String pretty(Object value) {
        StringBuilder out = new StringBuilder();
        pretty(value, 0, 0, out);
        return out.toString();
    }

    private static void pretty(Object value, int indent, int column, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String pad = "  ".repeat(indent + 1);
                out.append(pad);
                int start = out.length();
                Formatter.string(String.valueOf(e.getKey()), out);
                out.append(": ");
                pretty(e.getValue(), indent + 1, pad.length() + out.length() - start, out);
                out.append(++i < map.size() ? ",\n" : "\n");
            }
            out.append("  ".repeat(indent)).append('}');
        } else if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                out.append("[]");
                return;
            }
            boolean scalars = list.stream().noneMatch(v -> v instanceof Map || v instanceof List);
            if (scalars) {
                StringBuilder inline = new StringBuilder("[");
                for (int i = 0; i < list.size(); i++) {
                    inline.append(i == 0 ? "" : ", ");
                    pretty(list.get(i), 0, 0, inline);
                }
                inline.append(']');
                if (column + inline.length() + 1 <= Formatter.WIDTH) {
                    out.append(inline);
                    return;
                }
            }
            out.append("[\n");
            String pad = "  ".repeat(indent + 1);
            for (int i = 0; i < list.size(); i++) {
                out.append(pad);
                pretty(list.get(i), indent + 1, pad.length(), out);
                out.append(i < list.size() - 1 ? ",\n" : "\n");
            }
            out.append("  ".repeat(indent)).append(']');
        } else if (value instanceof String s) {
            Formatter.string(s, out);
        } else {
            out.append(compact(value));
        }
    }

    /** @return the JSON text {@code json} re-laid out as indented JSON, or unchanged when it does not parse */
    static String prettyText(String json) {
        ConfigNode node = JsonSourceParser.parseValue(new SourceText("value", json), new Diagnostics());
        return node == null ? json : Formatter.formatValue(node);
    }
}
