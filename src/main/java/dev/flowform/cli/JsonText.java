package dev.flowform.cli;

import dev.flowform.config.ConfigNode;
import dev.flowform.config.Formatter;
import dev.flowform.config.JsonSourceParser;
import dev.flowform.config.SourceText;
import dev.flowform.diag.Diagnostics;
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

    /** @return {@code value} as indented JSON, without a final newline */
    static String pretty(Object value) {
        return prettyText(compact(value));
    }

    /** @return the JSON text {@code json} re-laid out as indented JSON, or unchanged when it does not parse */
    static String prettyText(String json) {
        ConfigNode node = JsonSourceParser.parseValue(new SourceText("value", json), new Diagnostics());
        return node == null ? json : Formatter.formatValue(node);
    }
}
