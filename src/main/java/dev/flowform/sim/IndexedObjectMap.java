package dev.flowform.sim;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.crud.AttributeType;
import io.fabric8.mockwebserver.crud.Value;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;

/**
 * The embedded API server's object store: the mock's map from attributes to JSON, also indexed by resource,
 * namespace and name as a real API server's storage is keyed, so one namespace's list does not test every object.
 * Iteration order is the mock's (insertion, an update moving to the end) in every bucket; thread-safe like the mock's
 * synchronized map. While a key with the mock's wildcard {@code *} is stored, {@link #candidates} answers null.
 */
final class IndexedObjectMap extends AbstractMap<AttributeSet, String> {
    static final String PLURAL = "plural";
    static final String NAMESPACE = "namespace";
    static final String NAME = "name";
    private static final String WILDCARD = "*";

    private final Map<AttributeSet, String> objects = new LinkedHashMap<>();
    private final Map<String, Set<AttributeSet>> byPlural = new HashMap<>();
    private final Map<String, Set<AttributeSet>> byNamespace = new HashMap<>();
    private final Map<String, Set<AttributeSet>> byName = new HashMap<>();
    private int unindexed;

    @Override
    public synchronized String put(AttributeSet key, String value) {
        String previous = objects.remove(key);
        if (previous != null) {
            unindex(key);
        }
        objects.put(key, value);
        index(key);
        return previous;
    }

    @Override
    public synchronized String remove(Object key) {
        String previous = objects.remove(key);
        if (previous != null) {
            unindex((AttributeSet) key);
        }
        return previous;
    }

    @Override
    public synchronized void clear() {
        objects.clear();
        byPlural.clear();
        byNamespace.clear();
        byName.clear();
        unindexed = 0;
    }

    @Override
    public synchronized String get(Object key) {
        return objects.get(key);
    }

    @Override
    public synchronized boolean containsKey(Object key) {
        return objects.containsKey(key);
    }

    @Override
    public synchronized int size() {
        return objects.size();
    }

    /**
     * A snapshot of the entries in iteration order; changing it does not change the map (the mock only streams the
     * entry set, and writes through {@link #put}/{@link #remove}). The snapshot is an array, not a hash set: the
     * keys are distinct already, and hashing an {@link AttributeSet} walks all of its attributes, which made every
     * full scan of the mock (a watch's initial events, a delete) cost more than the scan itself.
     *
     * @return the entries, unmodifiable
     */
    @Override
    public synchronized Set<Entry<AttributeSet, String>> entrySet() {
        List<Entry<AttributeSet, String>> copy = new ArrayList<>(objects.size());
        objects.forEach((k, v) -> copy.add(new SimpleImmutableEntry<>(k, v)));
        return new Snapshot(copy);
    }

    /** An unmodifiable set over a list of distinct entries, as {@link #entrySet()} returns it. */
    private static final class Snapshot extends AbstractSet<Entry<AttributeSet, String>> {
        private final List<Entry<AttributeSet, String>> entries;

        Snapshot(List<Entry<AttributeSet, String>> entries) {
            this.entries = Collections.unmodifiableList(entries);
        }

        @Override
        public Iterator<Entry<AttributeSet, String>> iterator() {
            return entries.iterator();
        }

        @Override
        public int size() {
            return entries.size();
        }

        @Override
        public Spliterator<Entry<AttributeSet, String>> spliterator() {
            return Spliterators.spliterator(entries, Spliterator.DISTINCT | Spliterator.ORDERED);
        }
    }

    /**
     * The stored objects that could match {@code query}, in iteration order: those of its resource, narrowed to
     * its namespace and name when it names them exactly. Callers still test each candidate with
     * {@link AttributeSet#matches}.
     *
     * @param query the attributes of a request path (as fabric8's attribute extractor reads them)
     * @return the candidate entries (a copy), or {@code null} when the query names no single resource or a
     *         stored key cannot be indexed: then every object is a candidate
     */
    synchronized List<Entry<AttributeSet, String>> candidates(AttributeSet query) {
        String plural = exact(query, PLURAL);
        if (plural == null || unindexed > 0) {
            return null;
        }
        String namespace = exact(query, NAMESPACE);
        String name = exact(query, NAME);
        Collection<AttributeSet> keys;
        if (namespace != null && name != null) {
            keys = byName.get(bucket(plural, namespace, name));
        } else if (namespace != null) {
            keys = byNamespace.get(bucket(plural, namespace));
        } else {
            keys = byPlural.get(plural);
        }
        if (keys == null) {
            return List.of();
        }
        List<Entry<AttributeSet, String>> out = new ArrayList<>(keys.size());
        for (AttributeSet key : keys) {
            out.add(new SimpleImmutableEntry<>(key, objects.get(key)));
        }
        return out;
    }

    private void index(AttributeSet key) {
        String plural = stored(key, PLURAL);
        String namespace = stored(key, NAMESPACE);
        String name = stored(key, NAME);
        if (WILDCARD.equals(plural) || WILDCARD.equals(namespace) || WILDCARD.equals(name)) {
            unindexed++;
            return;
        }
        if (plural == null) {
            return;
        }
        byPlural.computeIfAbsent(plural, k -> new LinkedHashSet<>()).add(key);
        if (namespace != null) {
            byNamespace.computeIfAbsent(bucket(plural, namespace), k -> new LinkedHashSet<>()).add(key);
            if (name != null) {
                byName.computeIfAbsent(bucket(plural, namespace, name), k -> new LinkedHashSet<>()).add(key);
            }
        }
    }

    private void unindex(AttributeSet key) {
        String plural = stored(key, PLURAL);
        String namespace = stored(key, NAMESPACE);
        String name = stored(key, NAME);
        if (WILDCARD.equals(plural) || WILDCARD.equals(namespace) || WILDCARD.equals(name)) {
            unindexed--;
            return;
        }
        if (plural == null) {
            return;
        }
        drop(byPlural, plural, key);
        if (namespace != null) {
            drop(byNamespace, bucket(plural, namespace), key);
            if (name != null) {
                drop(byName, bucket(plural, namespace, name), key);
            }
        }
    }

    private static void drop(Map<String, Set<AttributeSet>> index, String bucket, AttributeSet key) {
        Set<AttributeSet> keys = index.get(bucket);
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            index.remove(bucket);
        }
    }

    private static String bucket(String... parts) {
        return String.join("\u0000", parts);
    }

    /** The single value of a stored key's attribute (any type), or null when absent or not single. */
    private static String stored(AttributeSet key, String attribute) {
        Attribute a = key.getAttribute(attribute);
        if (a == null || a.getValues().size() != 1) {
            return a == null ? null : WILDCARD;
        }
        return String.valueOf(a.getValues().get(0));
    }

    /** The value a query requires exactly (type WITH, one value, not the wildcard), or null. */
    private static String exact(AttributeSet query, String attribute) {
        Attribute a = query.getAttribute(attribute);
        if (a == null || a.getType() != AttributeType.WITH || a.getValues().size() != 1) {
            return null;
        }
        Value v = a.getValues().get(0);
        String s = String.valueOf(v);
        return WILDCARD.equals(s) ? null : s;
    }
}
