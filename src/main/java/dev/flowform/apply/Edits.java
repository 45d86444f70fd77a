package dev.flowform.apply;

import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Applies {@link FieldEdit}s to an object held as JSON-like maps. */
public final class Edits {
    private Edits() {
    }

    /**
     * Applies the edits in place.
     *
     * @param object the object (nested maps are replaced by mutable copies where edited)
     * @param edits  the edits
     * @return true when at least one value actually changed
     * @throws IllegalArgumentException when a path crosses a non-object value
     */
    @SuppressWarnings("unchecked")
    public static boolean apply(Map<String, Object> object, List<FieldEdit> edits) {
        boolean changed = false;
        for (FieldEdit e : edits) {
            Map<String, Object> parent = object;
            List<String> path = e.path();
            for (int i = 0; i < path.size() - 1; i++) {
                Object child = parent.get(path.get(i));
                if (child == null) {
                    if (e.remove()) {
                        parent = null;
                        break;
                    }
                    child = new LinkedHashMap<String, Object>();
                } else if (!(child instanceof Map)) {
                    throw new IllegalArgumentException("cannot edit " + String.join(".", path) + ": "
                            + path.get(i) + " is not an object");
                } else {
                    child = new LinkedHashMap<>((Map<String, Object>) child);
                }
                parent.put(path.get(i), child);
                parent = (Map<String, Object>) child;
            }
            if (parent == null) {
                continue;
            }
            String leaf = e.key();
            if (e.remove()) {
                changed |= parent.containsKey(leaf);
                parent.remove(leaf);
            } else {
                Object old = parent.get(leaf);
                if (old == null || !Json.sameValue(old, e.value())) {
                    changed = true;
                }
                parent.put(leaf, e.value());
            }
        }
        return changed;
    }
}
