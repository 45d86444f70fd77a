package dev.flowform.cli;

import dev.flowform.model.SecretKeys;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Prepares live objects for the state's resource snapshots: volatile metadata dropped, secret values
 * replaced by the environment's salted hash (so drift stays detectable without storing the secret).
 */
final class Snapshots {
    private Snapshots() {
    }

    /**
     * @param raw  the object as JSON-like maps
     * @param hash the state's secret hasher
     * @return a copy with {@code metadata.managedFields} removed and every sensitive {@code spec.config} value hashed
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> secretFree(Map<String, Object> raw, UnaryOperator<String> hash) {
        Map<String, Object> copy = new LinkedHashMap<>(raw);
        if (copy.get("metadata") instanceof Map<?, ?> md) {
            Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) md);
            m.remove("managedFields");
            copy.put("metadata", m);
        }
        if (copy.get("spec") instanceof Map<?, ?> spec && spec.get("config") instanceof Map<?, ?> cfg) {
            Map<String, Object> s = new LinkedHashMap<>((Map<String, Object>) spec);
            Map<String, Object> c = new LinkedHashMap<>();
            ((Map<String, Object>) cfg).forEach((k, v) -> c.put(k, SecretKeys.isSensitive(k) && v != null
                    ? hash.apply(String.valueOf(v)) : v));
            s.put("config", c);
            copy.put("spec", s);
        }
        return copy;
    }
}
