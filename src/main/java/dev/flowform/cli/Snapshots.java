package dev.flowform.cli;

import dev.flowform.model.SecretKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Prepares live objects for the state's resource snapshots: volatile metadata dropped, secret values
 * replaced by the environment's salted hash (so drift stays detectable without storing the secret).
 */
final class Snapshots {

    /** kubectl's copy of the whole last-applied object, secrets included; never stored. */
    static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private Snapshots() {
    }

    /**
     * @param raw     the object as JSON-like maps
     * @param hash    the state's secret hasher
     * @param secrets secret strings known to this run (sensitive variables, live and desired secret values)
     * @return a copy with {@code metadata.managedFields} and the last-applied annotation removed, every
     *         value of a sensitive key (any depth) hashed, and every other string that contains a known
     *         secret hashed as a whole
     */
    static Map<String, Object> secretFree(Map<String, Object> raw, UnaryOperator<String> hash, Set<String> secrets) {
        Map<String, Object> copy = scrubMap(raw, hash, secrets);
        if (copy.get("metadata") instanceof Map<?, ?> md) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) md);
            m.remove("managedFields");
            if (m.get("annotations") instanceof Map<?, ?> a) {
                @SuppressWarnings("unchecked")
                Map<String, Object> annotations = new LinkedHashMap<>((Map<String, Object>) a);
                annotations.remove(LAST_APPLIED);
                m.put("annotations", annotations);
            }
            copy.put("metadata", m);
        }
        return copy;
    }

    private static Map<String, Object> scrubMap(Map<?, ?> m, UnaryOperator<String> hash, Set<String> secrets) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String key = String.valueOf(e.getKey());
            Object v = e.getValue();
            if (SecretKeys.isSensitive(key) && v != null && !(v instanceof Map) && !(v instanceof List)) {
                out.put(key, hash.apply(String.valueOf(v)));
            } else {
                out.put(key, scrub(v, hash, secrets));
            }
        }
        return out;
    }

    private static Object scrub(Object v, UnaryOperator<String> hash, Set<String> secrets) {
        if (v instanceof Map<?, ?> m) {
            return scrubMap(m, hash, secrets);
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(scrub(x, hash, secrets)));
            return out;
        }
        if (v instanceof String s) {
            for (String secret : secrets) {
                if (secret.length() >= 4 && s.contains(secret)) {
                    return hash.apply(s);
                }
            }
        }
        return v;
    }
}
