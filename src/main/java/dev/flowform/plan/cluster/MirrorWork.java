package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.ManageMode;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.plan.rules.StopBeforeChange;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * The edits one mirror of an existing KafkaMirrorMaker2 needs: its {@code sourceConnector} (the only place the
 * exactly-once keys work; docs/mirrormaker2.md), its {@code checkpointConnector} and its patterns. Pure.
 *
 * @param source the source alias
 * @param edits  the edits, on paths {@code spec.mirrors.[sourceCluster=<alias>]...} ({@code v1beta2}) or
 *               {@code spec.mirrors.[source.alias=<alias>]...} ({@code v1})
 * @param attrs  the same as attribute changes, for the plan
 * @param eosOn  true when the edits turn exactly-once on
 * @param eosOff true when the edits remove {@code exactly.once.support}
 * @param liveState the live {@code sourceConnector.state}, or null (running)
 * @param mark      the live {@link StopBeforeChange#mirrorAnnotation} of this mirror, or null
 * @param liveRequiresEos true when the live {@code sourceConnector.config} has exactly.once.support=required
 */
record MirrorWork(String source, List<FieldEdit> edits, List<AttributeChange> attrs, boolean eosOn, boolean eosOff,
                  String liveState, String mark, boolean liveRequiresEos) {

    /** The source connector entries exactly-once needs, in the order they are written. */
    static final Map<String, String> SOURCE_EOS = eosKeys();

    MirrorWork {
        edits = List.copyOf(edits);
        attrs = List.copyOf(attrs);
    }

    /** Work without live connector state, while its edits are collected. */
    private MirrorWork(String source, List<FieldEdit> edits, List<AttributeChange> attrs) {
        this(source, edits, attrs, false, false, null, null, false);
    }

    /**
     * @param live        the live entry with the same source alias as the declared mirror {@code want}
     * @param v1          true when the live resource uses the {@code v1} layout (selected by {@code source.alias})
     * @param sourceEntry the live source cluster entry: {@code spec.mirrors[].source} in {@code v1}, the source's
     *                    {@code spec.clusters[]} entry in {@code v1beta2}; empty when there is none
     * @param annotations the live resource's annotations (the mark of a stopped source connector)
     * @return the work, with no edits when the entry already matches
     */
    static MirrorWork of(DesiredMirrorMaker2 dm, DesiredMirror want, LiveMirrorMaker2.Mirror live, boolean v1,
                         Map<String, Object> sourceEntry, Map<String, String> annotations) {
        String selector = mirrorSelector(v1, want.sourceAlias());
        List<String> at = List.of("spec", "mirrors", selector);
        String shown = "spec.mirrors" + selector;
        boolean own = dm.manage() == ManageMode.OWN;
        MirrorWork w = new MirrorWork(want.sourceAlias(), new ArrayList<>(), new ArrayList<>());
        Map<String, String> source = new LinkedHashMap<>(want.sourceConnectorConfig());
        if (want.exactlyOnce()) {
            source.putAll(SOURCE_EOS);
        }
        List<String> absent = want.exactlyOnce() ? List.of() : List.of(ConnectorRules.EXACTLY_ONCE_SUPPORT);
        w = w.config(join(at, "sourceConnector", "config"), shown + ".sourceConnector.config", source, absent,
                live.sourceConfig(), own, dm::isSensitive);
        w = w.config(join(at, "checkpointConnector", "config"), shown + ".checkpointConnector.config",
                want.checkpointConnectorConfig(), List.of(ConnectorRules.EXACTLY_ONCE_SUPPORT), live.checkpointConfig(), own,
                dm::isSensitive);
        w = w.field(join(at, "topicsPattern"), shown + ".topicsPattern", want.topics(), live.raw().get("topicsPattern"));
        w = w.field(join(at, "groupsPattern"), shown + ".groupsPattern", want.groups(), live.raw().get("groupsPattern"));
        Object tasks = live.raw().get("sourceConnector") instanceof Map<?, ?> sc ? sc.get("tasksMax") : null;
        w = w.field(join(at, "sourceConnector", "tasksMax"), shown + ".sourceConnector.tasksMax", want.tasksMax(), tasks);
        w = w.sourceCluster(dm, want, sourceEntry, v1, own);
        boolean on = want.exactlyOnce() && w.edits.stream().anyMatch(e -> SOURCE_EOS.containsKey(e.key()) && !e.remove());
        boolean off = !want.exactlyOnce() && w.edits.stream()
                .anyMatch(e -> e.remove() && e.key().equals(ConnectorRules.EXACTLY_ONCE_SUPPORT));
        Object state = live.raw().get("sourceConnector") instanceof Map<?, ?> sc ? sc.get("state") : null;
        return new MirrorWork(w.source, w.edits, w.attrs, on, off, state == null ? null : state.toString(),
                annotations.get(StopBeforeChange.mirrorAnnotation(want.sourceAlias())),
                ConnectorRules.isRequired(live.sourceConfig().get(ConnectorRules.EXACTLY_ONCE_SUPPORT)));
    }

    /** @return true when the entry needs no edit and its source connector was not stopped by flowform */
    boolean isEmpty() {
        return edits.isEmpty() && mark == null;
    }

    /** @return the edits of the source connector's {@code sourceConnector} entry */
    List<FieldEdit> sourceConnectorEdits() {
        return edits.stream().filter(e -> e.path().contains("sourceConnector")).toList();
    }

    /** @return the {@code spec.state} its source connector ends in: the one its mark records, else the live one */
    String targetState() {
        return mark != null ? mark : liveState != null ? liveState : StopBeforeChange.RUNNING;
    }

    /**
     * Adds the edits of the declared source cluster: its bootstrap servers and {@code config} (under own, undeclared
     * config keys removed). Strimzi passes them to the connectors as {@code source.cluster.*}
     * ({@code prepareMirrorMaker2ConnectorConfig}), not to the pods, whose environment names only the aliases.
     */
    private MirrorWork sourceCluster(DesiredMirrorMaker2 dm, DesiredMirror want, Map<String, Object> entry, boolean v1,
                                     boolean own) {
        List<String> at = v1 ? List.of("spec", "mirrors", mirrorSelector(true, want.sourceAlias()), "source")
                : List.of("spec", "clusters", "[alias=" + want.sourceAlias() + "]");
        String shown = v1 ? "spec.mirrors" + mirrorSelector(true, want.sourceAlias()) + ".source"
                : "spec.clusters[alias=" + want.sourceAlias() + "]";
        MirrorWork w = field(join(at, "bootstrapServers"), shown + ".bootstrapServers", want.sourceBootstrap(),
                entry.get("bootstrapServers"));
        Map<String, String> have = new java.util.TreeMap<>();
        if (entry.get("config") instanceof Map<?, ?> c) {
            c.forEach((k, v) -> {
                if (v != null) {
                    have.put(String.valueOf(k), String.valueOf(v));
                }
            });
        }
        return w.config(join(at, "config"), shown + ".config", want.sourceClusterConfig(), List.of(), have, own,
                dm::isSensitive);
    }

    /** Adds the edits that make the live config {@code have} hold {@code want} (and nothing else under own). */
    private MirrorWork config(List<String> path, String shown, Map<String, String> want, List<String> absent,
                              Map<String, String> have, boolean own, Predicate<String> sensitive) {
        List<FieldEdit> e = new ArrayList<>(edits);
        List<AttributeChange> a = new ArrayList<>(attrs);
        want.forEach((k, v) -> {
            if (!v.equals(have.get(k))) {
                e.add(FieldEdit.set(join(path, k), v, sensitive.test(k)));
                a.add(new AttributeChange(shown + ".\"" + k + "\"", have.containsKey(k) ? Json.render(have.get(k)) : null,
                        Json.render(v), sensitive.test(k)));
            }
        });
        have.forEach((k, v) -> {
            if (!want.containsKey(k) && (own || absent.contains(k))) {
                e.add(FieldEdit.remove(join(path, k), sensitive.test(k)));
                a.add(new AttributeChange(shown + ".\"" + k + "\"", Json.render(v), null, sensitive.test(k)));
            }
        });
        return new MirrorWork(source, e, a);
    }

    /** Adds the edit of one declared scalar field; an undeclared one is left alone. */
    private MirrorWork field(List<String> path, String shown, Object want, Object have) {
        if (want == null || Objects.equals(String.valueOf(want), have == null ? null : String.valueOf(have))) {
            return this;
        }
        List<FieldEdit> e = new ArrayList<>(edits);
        List<AttributeChange> a = new ArrayList<>(attrs);
        e.add(FieldEdit.set(path, want, false));
        a.add(new AttributeChange(shown, have == null ? null : Json.render(have), Json.render(want), false));
        return new MirrorWork(source, e, a);
    }

    /**
     * @param v1     true for the {@code v1} layout
     * @return the path segment selecting the mirror: {@code [source.alias=<alias>]} in {@code v1},
     *         {@code [sourceCluster=<alias>]} in {@code v1beta2}
     */
    static String mirrorSelector(boolean v1, String source) {
        return (v1 ? "[source.alias=" : "[sourceCluster=") + source + "]";
    }

    static List<String> join(List<String> prefix, String... more) {
        List<String> out = new ArrayList<>(prefix);
        out.addAll(List.of(more));
        return out;
    }

    private static Map<String, String> eosKeys() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(ConnectorRules.SOURCE_ISOLATION_LEVEL, ConnectorRules.READ_COMMITTED);
        m.put(ConnectorRules.EXACTLY_ONCE_SUPPORT, "required");
        return java.util.Collections.unmodifiableMap(m);
    }
}
