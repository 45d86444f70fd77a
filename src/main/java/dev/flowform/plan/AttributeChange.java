package dev.flowform.plan;

import dev.flowform.model.SecretKeys;
import dev.flowform.model.strimzi.SecretFields;
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
     * manifest's order, without the fields of its header line. A list (a KafkaMirrorMaker2's {@code spec.clusters} or
     * {@code spec.mirrors}) is one attribute whose sensitive values inside are shown as {@code (sensitive value)}
     * ({@link SecretFields}).
     *
     * @param sensitiveConfigKey tells which configuration keys hold sensitive values beyond {@link SecretKeys}
     * @return the attributes, each with no before value
     */
    public static List<AttributeChange> ofManifest(Map<String, Object> manifest, Predicate<String> sensitiveConfigKey) {
        List<AttributeChange> out = new ArrayList<>();
        flatten("", List.of(), manifest, out, sensitiveConfigKey);
        return out;
    }

    private static void flatten(String prefix, List<String> segments, Map<String, Object> m, List<AttributeChange> out,
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
            List<String> at = new ArrayList<>(segments);
            at.add(key);
            if (e.getValue() instanceof Map<?, ?> sub && !sub.isEmpty()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) sub;
                flatten(path, at, typed, out, sensitiveConfigKey);
            } else if (e.getValue() instanceof List<?> list) {
                out.add(new AttributeChange(path, null, Json.render(SecretFields.encodeAt(at, list, sensitiveConfigKey,
                        v -> SecretKeys.MASK)), false));
            } else {
                boolean s = prefix.equals("spec.config") && sensitiveConfigKey.test(key);
                out.add(new AttributeChange(path, null, Json.render(e.getValue()), s));
            }
        }
    }
}
