package dev.flowform.plan;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveState;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.SecretKeys;
import dev.flowform.model.strimzi.SecretFields;
import dev.flowform.model.strimzi.Strimzi;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds managed objects changed outside flowform (Terraform's "Objects have changed outside of Terraform"): labels,
 * annotations (but {@link #IGNORED_ANNOTATIONS}) and {@code spec} of the live object against the state's snapshot,
 * secrets compared as the state's salted hashes, for the resources the configuration still declares.
 */
public final class Drift {

    /** Annotations that change without anyone changing the object's intent; never drift. */
    public static final Set<String> IGNORED_ANNOTATIONS = Stream.concat(
            Stream.of("kubectl.kubernetes.io/last-applied-configuration"), Strimzi.OPERATION_ANNOTATIONS.stream())
            .collect(Collectors.toUnmodifiableSet());

    private Drift() {
    }

    /**
     * Prepares a live object for the state's snapshots and for drift: {@code metadata.managedFields} removed and every
     * sensitive value ({@link SecretFields}) replaced by {@code hash(value)}.
     *
     * @return a copy of {@code raw}, the object as JSON-like maps
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> secretFree(Map<String, Object> raw, UnaryOperator<String> hash) {
        Map<String, Object> copy = new LinkedHashMap<>(raw);
        if (copy.get("metadata") instanceof Map<?, ?> md) {
            Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) md);
            m.remove("managedFields");
            copy.put("metadata", m);
        }
        if (copy.get("spec") instanceof Map<?, ?>) {
            copy.put("spec", SecretFields.encodeAt(List.of("spec"), copy.get("spec"), k -> false, hash));
        }
        return copy;
    }

    /**
     * Compares every recorded resource the configuration still declares with the live object, live secrets through
     * the state's {@code hash}.
     *
     * @param changes     the plan's changes, to say what flowform does about each drift
     * @param refreshOnly true for a refresh-only plan, whose applying records the live values instead
     * @return drift entries in address order; empty when nothing drifted
     */
    public static List<DriftEntry> detect(DesiredState desired, LiveState live, List<RecordedResource> recorded,
                                          UnaryOperator<String> hash, List<Change> changes, boolean refreshOnly) {
        Set<String> managed = new HashSet<>();
        for (DesiredConnectCluster c : desired.clusters()) {
            managed.add(c.address());
        }
        for (DesiredFlow f : desired.flows()) {
            for (DesiredConnector d : f.connectors()) {
                managed.add(d.address());
            }
        }
        desired.mirrorMakers().forEach(m -> managed.add(m.address()));
        Map<String, Change> byAddress = new HashMap<>();
        changes.forEach(c -> byAddress.put(c.address(), c));
        List<RecordedResource> sorted = new ArrayList<>(recorded);
        sorted.sort(Comparator.comparing(RecordedResource::address));
        List<DriftEntry> out = new ArrayList<>();
        for (RecordedResource r : sorted) {
            if (!managed.contains(r.address())) {
                continue;
            }
            Map<String, Object> liveRaw = live.body(r.kind(), r.namespace(), r.name()).orElse(null);
            Change change = byAddress.get(r.address());
            String apiVersion = String.valueOf(r.body().getOrDefault("apiVersion", live.api() == null ? "" : live.api().kafkaApiVersion()));
            ObjectRef ref = new ObjectRef(apiVersion, r.kind(), r.namespace(), r.name());
            if (liveRaw == null) {
                String resolution = refreshOnly ? "Applying this refresh-only plan removes it from the state."
                        : change != null && change.action() == Action.CREATE
                        ? "flowform will create it again (see the changes below)."
                        : "flowform will not create it again (see the diagnostics); remove it from the configuration or "
                                + "re-create it by hand.";
                out.add(new DriftEntry(r.address(), ref, true, List.of(), List.of(), resolution));
                continue;
            }
            Map<String, String> before = comparable(r.body());
            Map<String, String> after = comparable(secretFree(liveRaw, hash));
            List<AttributeChange> attrs = new ArrayList<>();
            Set<String> paths = new TreeSet<>(before.keySet());
            paths.addAll(after.keySet());
            for (String p : paths) {
                String b = before.get(p);
                String a = after.get(p);
                if (b == null ? a != null : !b.equals(a) && !sameSecret(b, a, hash)) {
                    attrs.add(new AttributeChange(p, b, a, sensitivePath(p) || isHash(b)));
                }
            }
            if (attrs.isEmpty()) {
                continue;
            }
            Set<String> planned = new HashSet<>();
            if (change != null) {
                change.attributes().forEach(a -> planned.add(a.path()));
            }
            List<String> reverted = attrs.stream().map(AttributeChange::path).filter(planned::contains).toList();
            out.add(new DriftEntry(r.address(), ref, false, attrs, reverted, refreshOnly
                    ? "Applying this refresh-only plan records the live values in the state." : resolution(attrs, reverted)));
        }
        return out;
    }

    private static String resolution(List<AttributeChange> attrs, List<String> reverted) {
        if (reverted.size() == attrs.size()) {
            return "The configuration sets these values: flowform will set them back with the changes below.";
        }
        String accept = "Run \"flowform plan --refresh-only\" and apply it to accept them into the state.";
        if (reverted.isEmpty()) {
            return "The configuration does not set these values, so flowform leaves them as they are. " + accept;
        }
        return "flowform will set back " + String.join(", ", reverted) + " with the changes below; the configuration does "
                + "not set the others, so flowform leaves them as they are. " + accept;
    }

    /**
     * A snapshot stores a string that carried a secret the run knew of (a sensitive variable in a key that
     * does not look secret) as the hash of the whole string; the live value matches when its hash does. Both values
     * are rendered as JSON.
     */
    private static boolean sameSecret(String recorded, String live, UnaryOperator<String> hash) {
        if (live == null || !isHash(recorded)) {
            return false;
        }
        Object v = Json.MAPPER.readValue(live, Object.class);
        return v instanceof String s && Json.render(hash.apply(s)).equals(recorded);
    }

    private static boolean isHash(String rendered) {
        return rendered != null && rendered.startsWith("\"sha256:");
    }

    /** @return true for a key of a configuration map ({@code ...config."k"}) whose values are sensitive */
    private static boolean sensitivePath(String path) {
        int at = path.lastIndexOf(".\"");
        if (!path.endsWith("\"") || at < 0 || at + 2 >= path.length() - 1 || !path.substring(0, at).endsWith("config")) {
            return false;
        }
        return SecretKeys.isSensitive(path.substring(at + 2, path.length() - 1));
    }

    /**
     * Flattens what drift compares into display paths and JSON texts: {@code metadata.labels."k"},
     * {@code metadata.annotations."k"}, {@code spec.config."k"}, {@code spec.tasksMax}, {@code spec.tls.trustedCertificates};
     * a KafkaMirrorMaker2's cluster and mirror entries by their selector, as its plan shows them:
     * {@code spec.clusters[alias=dc1].config."k"}, {@code spec.mirrors[sourceCluster=dc1].topicsPattern}.
     *
     * @return path to the value rendered as JSON, sorted by path, of {@code object} as JSON-like maps
     */
    public static Map<String, String> comparable(Map<String, Object> object) {
        Map<String, String> out = new TreeMap<>();
        Map<String, Object> md = map(object.get("metadata"));
        map(md.get("labels")).forEach((k, v) -> out.put("metadata.labels." + Json.render(k), Json.render(v)));
        map(md.get("annotations")).forEach((k, v) -> {
            if (!IGNORED_ANNOTATIONS.contains(k)) {
                out.put("metadata.annotations." + Json.render(k), Json.render(v));
            }
        });
        Map<String, Object> spec = map(object.get("spec"));
        for (Map.Entry<String, Object> e : spec.entrySet()) {
            if ("config".equals(e.getKey()) && e.getValue() instanceof Map<?, ?>) {
                map(e.getValue()).forEach((k, v) -> {
                    if (v != null) {
                        out.put("spec.config." + Json.render(k), Json.render(v instanceof String ? v : String.valueOf(v)));
                    }
                });
            } else {
                flattenSpec("spec." + e.getKey(), e.getValue(), out);
            }
        }
        return out;
    }

    private static void flattenSpec(String path, Object value, Map<String, String> out) {
        boolean config = path.endsWith(".config");
        if (value instanceof Map<?, ?> m && !m.isEmpty()) {
            map(value).forEach((k, v) -> flattenSpec(path + "." + (!config && k.matches("[A-Za-z0-9_]+") ? k : Json.render(k)),
                    v, out));
        } else if (value instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(e -> selector(e) != null)) {
            l.forEach(e -> flattenSpec(path + "[" + selector(e) + "]", e, out));
        } else if (value != null) {
            out.put(path, Json.render(value));
        }
    }

    /**
     * @return how the plan selects a KafkaMirrorMaker2 list entry ({@code alias=dc1}, {@code sourceCluster=dc1},
     *         {@code source.alias=dc1}, as {@code apply.Edits} does), or null for an entry of another list
     */
    private static String selector(Object entry) {
        Map<String, Object> e = map(entry);
        for (String key : List.of("alias", "sourceCluster")) {
            if (e.get(key) instanceof String v) {
                return key + "=" + v;
            }
        }
        return map(e.get("source")).get("alias") instanceof String v ? "source.alias=" + v : null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? new TreeMap<>((Map<String, Object>) m) : Map.of();
    }
}
