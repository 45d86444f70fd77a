package dev.flowform.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Defensive-copy helpers for the immutable records of this package (null-tolerant, order-keeping), and a JSON reader's cast. */
public final class Maps {
    private Maps() {
    }

    /** @return an unmodifiable copy keeping insertion order; {@code null} becomes an empty map */
    public static <V> Map<String, V> copy(Map<String, V> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }

    /** @return an unmodifiable copy sorted by key; {@code null} becomes an empty map */
    public static <V> Map<String, V> sorted(Map<String, V> m) {
        return m == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(m));
    }

    /** @return {@code o}, a JSON object as Jackson or a YAML parser reads it, as a map; anything else as an empty map */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** @return an unmodifiable sorted copy; {@code null} becomes an empty set */
    public static Set<String> sortedSet(Set<String> s) {
        return s == null ? Set.of() : Collections.unmodifiableSet(new TreeSet<>(s));
    }
}
