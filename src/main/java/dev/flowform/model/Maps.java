package dev.flowform.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Defensive-copy helpers for the immutable records of this package (null-tolerant, order-keeping). */
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

    /** @return an unmodifiable sorted copy; {@code null} becomes an empty set */
    public static Set<String> sortedSet(Set<String> s) {
        return s == null ? Set.of() : Collections.unmodifiableSet(new TreeSet<>(s));
    }
}
