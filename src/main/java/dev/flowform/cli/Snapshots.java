package dev.flowform.cli;

import dev.flowform.plan.Drift;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Prepares live objects for the state's resource snapshots: volatile metadata dropped, secret values
 * replaced by the environment's salted hash (so drift stays detectable without storing the secret).
 * The base rule lives in {@link Drift#secretFree}, so drift compares exactly what is stored; on top of
 * it, kubectl's last-applied annotation (a full copy of the object, ignored by drift) is dropped, and any
 * other string that contains a secret known to the run (a sensitive variable set in a key that does not
 * look secret, say) is stored as the hash of the whole string, which drift compares by hashing the live
 * value.
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
     * @return {@link Drift#secretFree}'s copy, without the last-applied annotation, and with every string that
     *         contains a known secret replaced by its hash
     */
    static Map<String, Object> secretFree(Map<String, Object> raw, UnaryOperator<String> hash, Set<String> secrets) {
        Map<String, Object> copy = scrubMap(Drift.secretFree(raw, hash), hash, secrets);
        if (copy.get("metadata") instanceof Map<?, ?> md && md.get("annotations") instanceof Map<?, ?> a) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) md);
            @SuppressWarnings("unchecked")
            Map<String, Object> annotations = new LinkedHashMap<>((Map<String, Object>) a);
            annotations.remove(LAST_APPLIED);
            m.put("annotations", annotations);
            copy.put("metadata", m);
        }
        return copy;
    }

    private static Map<String, Object> scrubMap(Map<?, ?> m, UnaryOperator<String> hash, Set<String> secrets) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(String.valueOf(k), scrub(v, hash, secrets)));
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
