package dev.flowform.apply;

import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies {@link FieldEdit}s to an object held as JSON-like maps; a segment {@code [key=value]} selects a list entry
 * by key (a dotted key walks nested objects), and a path ending at one sets or removes the entry itself
 * (docs/architecture.md, "The planner").
 */
public final class Edits {
    private Edits() {
    }

    /**
     * Applies the edits in place.
     *
     * @param object the object (nested maps and lists are replaced by mutable copies where edited)
     * @param edits  the edits
     * @return true when at least one value actually changed
     * @throws IllegalArgumentException when a path crosses a value of the wrong type, or selects a list entry that
     *                                  does not exist for a set
     */
    public static boolean apply(Map<String, Object> object, List<FieldEdit> edits) {
        boolean changed = false;
        for (FieldEdit e : edits) {
            changed |= edit(object, e, 0);
        }
        return changed;
    }

    /**
     * The scalar values set by {@code edits} that {@code object} does not hold: what an API server did not keep of a
     * write, as it prunes a field its schema does not define (a structural CRD without the field).
     *
     * @param object the object as the server answered the write
     * @param edits  the edits the write carried
     * @return the set edits of a string, number or boolean that the object does not hold, in order (of several edits
     *         of one field, the last)
     */
    public static List<FieldEdit> notKept(Map<String, Object> object, List<FieldEdit> edits) {
        List<FieldEdit> out = new java.util.ArrayList<>();
        for (int i = 0; i < edits.size(); i++) {
            FieldEdit e = edits.get(i);
            int at = i;
            if (edits.subList(at + 1, edits.size()).stream().anyMatch(later -> later.path().equals(e.path()))) {
                continue; // a later edit of the same field decides what the object holds
            }
            boolean scalar = e.value() instanceof String || e.value() instanceof Number || e.value() instanceof Boolean;
            try {
                if (!e.remove() && scalar && edit(new java.util.LinkedHashMap<>(object), e, 0)) {
                    out.add(e);
                }
            } catch (IllegalArgumentException gone) {
                out.add(e); // the list entry the edit selects is not there at all
            }
        }
        return out;
    }

    /**
     * @param selector a path segment
     * @return the key and value of a {@code [key=value]} segment, or null for a plain field name
     */
    public static String[] selector(String selector) {
        if (selector.length() < 4 || selector.charAt(0) != '[' || selector.charAt(selector.length() - 1) != ']') {
            return null;
        }
        int eq = selector.indexOf('=');
        return eq < 2 ? null : new String[] {selector.substring(1, eq), selector.substring(eq + 1, selector.length() - 1)};
    }

    /** Applies {@code e} from path segment {@code i} on, in {@code node}; true when a value changed. */
    @SuppressWarnings("unchecked")
    private static boolean edit(Map<String, Object> node, FieldEdit e, int i) {
        List<String> path = e.path();
        String field = path.get(i);
        if (i == path.size() - 1) {
            return leaf(node, field, e);
        }
        Object child = node.get(field);
        String[] select = selector(path.get(i + 1));
        if (select != null) {
            return inList(node, field, child, select, e, i);
        }
        if (child == null) {
            if (e.remove()) {
                return false;
            }
            child = new LinkedHashMap<String, Object>();
        } else if (!(child instanceof Map)) {
            throw new IllegalArgumentException("cannot edit " + String.join(".", path) + ": " + field + " is not an object");
        } else {
            child = new LinkedHashMap<>((Map<String, Object>) child);
        }
        node.put(field, child);
        return edit((Map<String, Object>) child, e, i + 1);
    }

    /** Edits inside the entry of list {@code field} that {@code select} names. */
    @SuppressWarnings("unchecked")
    private static boolean inList(Map<String, Object> node, String field, Object child, String[] select, FieldEdit e, int i) {
        List<String> path = e.path();
        boolean whole = i + 2 == path.size();
        if (i + 2 > path.size() || (child != null && !(child instanceof List)) || (whole && !e.remove()
                && !(e.value() instanceof Map))) {
            throw new IllegalArgumentException("cannot edit " + String.join(".", path) + ": " + field
                    + " is not a list of objects, or an entry is set to a value that is not an object");
        }
        List<Object> list = child == null ? new ArrayList<>() : new ArrayList<>((List<Object>) child);
        for (int k = 0; k < list.size(); k++) {
            if (list.get(k) instanceof Map<?, ?> entry && select[1].equals(String.valueOf(keyOf(entry, select[0])))) {
                if (whole) {
                    return wholeEntry(node, field, list, k, e);
                }
                Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) entry);
                boolean changed = edit(copy, e, i + 2);
                list.set(k, copy);
                node.put(field, list);
                return changed;
            }
        }
        if (e.remove()) {
            return false;
        }
        if (whole) {
            list.add(e.value());
            node.put(field, list);
            return true;
        }
        throw new IllegalArgumentException("cannot edit " + String.join(".", path) + ": " + field + " has no entry with "
                + select[0] + "=" + select[1]);
    }

    /** Replaces (set) or deletes (remove) entry {@code k} of {@code list}; true when the list changed. */
    private static boolean wholeEntry(Map<String, Object> node, String field, List<Object> list, int k, FieldEdit e) {
        Object old = list.get(k);
        if (e.remove()) {
            list.remove(k);
        } else {
            list.set(k, e.value());
        }
        node.put(field, list);
        return e.remove() || !Json.sameValue(old, e.value());
    }

    /** @return the value at the dotted {@code key} inside {@code entry}, or null when a step is missing */
    private static Object keyOf(Map<?, ?> entry, String key) {
        Object v = entry;
        for (String part : key.split("\\.")) {
            if (!(v instanceof Map<?, ?> m)) {
                return null;
            }
            v = m.get(part);
        }
        return v;
    }

    private static boolean leaf(Map<String, Object> parent, String leaf, FieldEdit e) {
        if (e.remove()) {
            boolean had = parent.containsKey(leaf);
            parent.remove(leaf);
            return had;
        }
        Object old = parent.get(leaf);
        parent.put(leaf, e.value());
        return old == null || !Json.sameValue(old, e.value());
    }
}
