package dev.flowform.plan;

import java.util.List;

/**
 * Set or remove one field of a Kubernetes object, addressed by path segments; applied by read, edit and write with the
 * object's {@code resourceVersion}, so a concurrent change means a re-read, never a lost update.
 *
 * @param path      path segments from the object root, e.g. {@code [spec, config, exactly.once.source.support]}
 * @param value     the new value (string, number, boolean, list or map), ignored when {@code remove}
 * @param remove    true to delete the field
 * @param sensitive true when the value must never be shown or stored in clear
 */
public record FieldEdit(List<String> path, Object value, boolean remove, boolean sensitive) {
    public FieldEdit {
        path = List.copyOf(path);
    }

    /** @return an edit that sets {@code path} to {@code value} */
    public static FieldEdit set(List<String> path, Object value, boolean sensitive) {
        return new FieldEdit(path, value, false, sensitive);
    }

    /** @return an edit that removes {@code path} */
    public static FieldEdit remove(List<String> path, boolean sensitive) {
        return new FieldEdit(path, null, true, sensitive);
    }

    /** @return the last path segment (the key being edited) */
    public String key() {
        return path.get(path.size() - 1);
    }
}
