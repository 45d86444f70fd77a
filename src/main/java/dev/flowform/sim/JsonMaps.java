package dev.flowform.sim;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Small helpers for the JSON-like maps the simulator reads and writes (Jackson 3). */
final class JsonMaps {
    /** One fabric8 serializer for every client and typed conversion, so Jackson's (de)serializer caches are shared. */
    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    /** Plain Jackson 3 mapper for maps and lists only (persist file, canonical JSON). */
    static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private JsonMaps() {
    }

    /** @return {@code value} as a map, or null when it is not one */
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    }

    /** @return {@code value} as a list, or an empty list when it is not one */
    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        return value instanceof List<?> l ? (List<Object>) l : List.of();
    }

    /** @return the value at {@code path} below {@code root}, or null when any step is missing */
    static Object at(Map<String, Object> root, String... path) {
        Object cur = root;
        for (String p : path) {
            Map<String, Object> m = map(cur);
            if (m == null) {
                return null;
            }
            cur = m.get(p);
        }
        return cur;
    }

    /** @return the string at {@code path}, or null */
    static String str(Map<String, Object> root, String... path) {
        Object v = at(root, path);
        return v == null ? null : v.toString();
    }

    /** @return the number at {@code path} as a long, or null when absent or not numeric */
    static Long lng(Map<String, Object> root, String... path) {
        Object v = at(root, path);
        if (v instanceof Number n) {
            return n.longValue();
        }
        if (v != null) {
            try {
                return Long.parseLong(v.toString().trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** @return a deep, mutable copy of {@code value} (maps keep their order) */
    @SuppressWarnings("unchecked")
    static <T> T deepCopy(T value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            m.forEach((k, v) -> copy.put(String.valueOf(k), deepCopy(v)));
            return (T) copy;
        }
        if (value instanceof List<?> l) {
            List<Object> copy = new ArrayList<>();
            l.forEach(v -> copy.add(deepCopy(v)));
            return (T) copy;
        }
        return value;
    }

    /** @return {@code value} with every map's keys sorted, for order-independent hashing and comparison */
    static Object canonical(Object value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> sorted = new TreeMap<>();
            m.forEach((k, v) -> sorted.put(String.valueOf(k), canonical(v)));
            return sorted;
        }
        if (value instanceof List<?> l) {
            List<Object> copy = new ArrayList<>();
            l.forEach(v -> copy.add(canonical(v)));
            return copy;
        }
        return value;
    }

    /** @return compact JSON of {@link #canonical(Object)} */
    static String canonicalJson(Object value) {
        return MAPPER.writeValueAsString(canonical(value));
    }

    /** @return {@code value} (e.g. a fabric8 model object) converted to JSON-like maps */
    static Map<String, Object> toMap(Object value) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = SERIALIZATION.convertValue(value, Map.class);
        return m;
    }

    /** @return {@code map} converted to {@code type} (e.g. a fabric8 model class) */
    static <T> T convert(Object map, Class<T> type) {
        return SERIALIZATION.convertValue(map, type);
    }
}
