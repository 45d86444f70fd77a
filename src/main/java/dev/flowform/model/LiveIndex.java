package dev.flowform.model;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.function.Function;

/**
 * An immutable list that also finds its elements by key in constant time: what {@link LiveState} keeps its
 * clusters and connectors in, so that looking one up per desired object does not make planning quadratic in
 * the number of objects (500 Connect clusters hold 6,000 connectors). Equal to any list with the same elements.
 *
 * @param <T> the element type
 */
final class LiveIndex<T> extends AbstractList<T> implements RandomAccess {

    private final List<T> items;
    private final Map<String, T> byKey = new HashMap<>();
    private final Map<String, List<T>> byGroup = new HashMap<>();

    /**
     * @param items the elements, copied; no nulls
     * @param key   the unique key of an element; the first element wins when two share a key
     * @param group the group key of an element (null for none), e.g. the Connect cluster a connector is labelled for
     */
    LiveIndex(List<T> items, Function<T, String> key, Function<T, String> group) {
        this.items = List.copyOf(items);
        for (T t : this.items) {
            byKey.putIfAbsent(key.apply(t), t);
            String g = group.apply(t);
            if (g != null) {
                byGroup.computeIfAbsent(g, k -> new ArrayList<>()).add(t);
            }
        }
        byGroup.replaceAll((k, v) -> List.copyOf(v));
    }

    /** @return the first element with {@code key}, or null */
    T byKey(String key) {
        return byKey.get(key);
    }

    /** @return the elements of {@code group}, in list order */
    List<T> byGroup(String group) {
        return byGroup.getOrDefault(group, List.of());
    }

    @Override
    public T get(int index) {
        return items.get(index);
    }

    @Override
    public int size() {
        return items.size();
    }
}
