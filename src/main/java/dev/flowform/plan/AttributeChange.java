package dev.flowform.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One attribute that differs between the live object and the desired one, as the user reads it.
 *
 * @param path      display path, e.g. {@code spec.config."exactly.once.source.support"}
 * @param before    the live value rendered as JSON text, or null when absent
 * @param after     the desired value rendered as JSON text, or null when it will be removed
 * @param sensitive true when both values must render as {@code (sensitive value)}
 */
public record AttributeChange(String path, String before, String after, boolean sensitive) {

    /** Fields shown in a change's header line rather than as attributes. */
    private static final Set<String> IDENTITY_FIELDS = Set.of("apiVersion", "kind", "metadata.name", "metadata.namespace");

    /**
     * The attributes of an object to create: every leaf of its manifest, e.g. {@code spec.config."k" = "v"}, in the
     * manifest's order, without the fields of its header line.
     *
     * @param manifest           the object
     * @param sensitiveConfigKey tells which {@code spec.config} keys hold sensitive values
     * @return the attributes, each with no before value
     */
    public static List<AttributeChange> ofManifest(Map<String, Object> manifest, Predicate<String> sensitiveConfigKey) {
        List<AttributeChange> out = new ArrayList<>();
        flatten("", manifest, out, sensitiveConfigKey);
        return out;
    }

    private static void flatten(String prefix, Map<String, Object> m, List<AttributeChange> out,
                                Predicate<String> sensitiveConfigKey) {
        for (Map.Entry<String, Object> e : m.entrySet()) {
            String key = e.getKey();
            String full = prefix.isEmpty() ? key : prefix + "." + key;
            if (IDENTITY_FIELDS.contains(full)) {
                continue;
            }
            boolean configKey = prefix.equals("spec.config") || prefix.startsWith("metadata.");
            String path = prefix.isEmpty() ? key
                    : prefix + "." + (!configKey && key.matches("[A-Za-z0-9_]+") ? key : Json.render(key));
            if (e.getValue() instanceof Map<?, ?> sub && !sub.isEmpty()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) sub;
                flatten(path, typed, out, sensitiveConfigKey);
            } else {
                boolean s = prefix.equals("spec.config") && sensitiveConfigKey.test(key);
                out.add(new AttributeChange(path, null, Json.render(e.getValue()), s));
            }
        }
    }
}
