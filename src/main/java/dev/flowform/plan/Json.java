package dev.flowform.plan;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * Small JSON helpers for plan values: rendering a value the way the plan shows it, and comparing
 * JSON-like values (maps, lists, strings, numbers, booleans) semantically.
 */
public final class Json {

    /** Shared mapper (thread-safe once configured). */
    public static final JsonMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    /** @return {@code value} as compact JSON text, e.g. {@code "read_committed"}, {@code 3}, {@code {"a":1}} */
    public static String render(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /**
     * Compares two JSON-like values; numbers compare by value ({@code 3} equals {@code 3.0} and
     * {@code "3"} does not), maps by entries regardless of order.
     *
     * @return true when both denote the same JSON value
     */
    public static boolean sameValue(Object a, Object b) {
        return normalize(a).equals(normalize(b));
    }

    private static Object normalize(Object v) {
        if (v instanceof Number n) {
            return new BigDecimal(n.toString()).stripTrailingZeros();
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            new java.util.TreeMap<>(m).forEach((k, x) -> out.put(String.valueOf(k), normalize(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(normalize(x)));
            return out;
        }
        return v == null ? "\u0000null" : v;
    }
}
