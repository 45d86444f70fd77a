package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.ManageMode;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.rules.ConnectorRules;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The differences between a desired object and the live one: the field edits that make the live object what
 * the configuration says, and the attribute changes the plan shows for them. Under {@code manage = "own"}
 * undeclared fields are removed; under {@code adopt} only declared ones are compared. Pure.
 *
 * @param edits the edits, in the order they are applied
 * @param attrs the same differences as the user reads them, in the same order
 */
record SpecDiff(List<FieldEdit> edits, List<AttributeChange> attrs) {

    SpecDiff {
        edits = List.copyOf(edits);
        attrs = List.copyOf(attrs);
    }

    /** @return true when nothing differs */
    boolean isEmpty() {
        return edits.isEmpty();
    }

    /**
     * The spec edits of a KafkaConnect apart from its exactly-once mode, which the planner sequences itself.
     *
     * @return its {@code spec.config} entries, declared spec fields and, under own, removals
     */
    static SpecDiff cluster(DesiredConnectCluster dc, LiveConnectCluster c) {
        List<FieldEdit> edits = new ArrayList<>();
        List<AttributeChange> attrs = new ArrayList<>();
        for (Map.Entry<String, String> e : dc.config().entrySet()) {
            if (!e.getKey().equals(EosMode.CONFIG_KEY)) {
                config(e.getKey(), c.config().get(e.getKey()), e.getValue(), dc.isSensitive(e.getKey()), edits, attrs);
            }
        }
        specField(c, "replicas", dc.replicas(), edits, attrs);
        specField(c, "version", dc.version(), edits, attrs);
        specField(c, "bootstrapServers", dc.bootstrapServers(), edits, attrs);
        for (Map.Entry<String, Object> e : dc.spec().entrySet()) {
            specField(c, e.getKey(), e.getValue(), edits, attrs);
        }
        if (dc.manage() == ManageMode.OWN) {
            for (Map.Entry<String, String> e : c.config().entrySet()) {
                if (!e.getKey().equals(EosMode.CONFIG_KEY) && !dc.config().containsKey(e.getKey())) {
                    removeConfig(e.getKey(), e.getValue(), dc.isSensitive(e.getKey()), edits, attrs);
                }
            }
            Set<String> declared = new HashSet<>(dc.spec().keySet());
            declared.addAll(List.of("replicas", "version", "bootstrapServers", "config"));
            for (Map.Entry<String, Object> e : c.spec().entrySet()) {
                if (!declared.contains(e.getKey())) {
                    edits.add(FieldEdit.remove(List.of("spec", e.getKey()), false));
                    attrs.add(new AttributeChange("spec." + e.getKey(), Json.render(e.getValue()), null, false));
                }
            }
        }
        return new SpecDiff(edits, attrs);
    }

    /**
     * The spec edits of a KafkaConnector. {@code exactly.once.support=requested} counts as unset (Kafka's default).
     *
     * @return its {@code spec.config} entries and removals, then {@code tasksMax}, {@code state} and {@code class}
     */
    static SpecDiff connector(DesiredConnector d, LiveConnector l) {
        List<FieldEdit> edits = new ArrayList<>();
        List<AttributeChange> attrs = new ArrayList<>();
        for (Map.Entry<String, String> e : d.config().entrySet()) {
            config(e.getKey(), l.config().get(e.getKey()), e.getValue(), d.isSensitive(e.getKey()), edits, attrs);
        }
        Set<String> remove = new TreeSet<>();
        for (String k : d.absentKeys()) {
            String lv = l.config().get(k);
            if (lv != null && !(ConnectorRules.EXACTLY_ONCE_SUPPORT.equals(k) && "requested".equalsIgnoreCase(lv))) {
                remove.add(k);
            }
        }
        if (d.manage() == ManageMode.OWN) {
            l.config().keySet().stream().filter(k -> !d.config().containsKey(k)).forEach(remove::add);
        }
        for (String k : remove) {
            removeConfig(k, l.config().get(k), d.isSensitive(k), edits, attrs);
        }
        if (d.tasksMax() != null && !d.tasksMax().equals(l.tasksMax())) {
            edits.add(FieldEdit.set(List.of("spec", "tasksMax"), d.tasksMax(), false));
            attrs.add(new AttributeChange("spec.tasksMax", l.tasksMax() == null ? null : l.tasksMax().toString(),
                    d.tasksMax().toString(), false));
        }
        if (d.state() != null && !d.state().equals(l.state() == null ? "running" : l.state())) {
            edits.add(FieldEdit.set(List.of("spec", "state"), d.state(), false));
            attrs.add(new AttributeChange("spec.state", quoted(l.state()), Json.render(d.state()), false));
        }
        if (!d.className().equals(l.className())) {
            edits.add(FieldEdit.set(List.of("spec", "class"), d.className(), false));
            attrs.add(new AttributeChange("spec.class", quoted(l.className()), Json.render(d.className()), false));
        }
        return new SpecDiff(edits, attrs);
    }

    private static void config(String key, String have, String want, boolean sensitive, List<FieldEdit> edits,
                               List<AttributeChange> attrs) {
        if (!want.equals(have)) {
            edits.add(FieldEdit.set(List.of("spec", "config", key), want, sensitive));
            attrs.add(new AttributeChange("spec.config." + Json.render(key), quoted(have), Json.render(want), sensitive));
        }
    }

    private static void removeConfig(String key, String have, boolean sensitive, List<FieldEdit> edits,
                                     List<AttributeChange> attrs) {
        edits.add(FieldEdit.remove(List.of("spec", "config", key), sensitive));
        attrs.add(new AttributeChange("spec.config." + Json.render(key), Json.render(have), null, sensitive));
    }

    private static void specField(LiveConnectCluster c, String field, Object want, List<FieldEdit> edits,
                                  List<AttributeChange> attrs) {
        if (want == null) {
            return;
        }
        Object have = c.spec().get(field);
        if (!Json.sameValue(want, have)) {
            edits.add(FieldEdit.set(List.of("spec", field), want, false));
            attrs.add(new AttributeChange("spec." + field, have == null ? null : Json.render(have), Json.render(want), false));
        }
    }

    private static String quoted(String value) {
        return value == null ? null : Json.render(value);
    }
}
