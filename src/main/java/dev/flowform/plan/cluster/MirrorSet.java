package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.strimzi.KafkaMirrorMaker2Manifest;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The mirrors a plan adds to, removes from or renames in an existing KafkaMirrorMaker2, as one set of spec edits: a
 * declared mirror the resource lacks is renamed from an undeclared one with the same source (or the only one left),
 * else added; an undeclared one is removed under {@code manage = "own"}. Strimzi's deleted and created connectors are
 * {@link #connectorChanges}; a change of the pods' set of cluster aliases rolls them ({@link #rolls};
 * docs/mirrormaker2.md). Pure.
 *
 * @param edits            the spec edits, cluster entries before mirror entries, then the renamed entries' settings
 * @param attrs            the same as attribute changes of the resource
 * @param connectorChanges one change per connector Strimzi deletes or creates
 * @param renamed          old alias to new alias
 * @param added            the source aliases of added mirrors
 * @param removed          the source aliases of removed mirrors (renamed ones included)
 * @param unaddable        declared mirrors that would have to be added but declare no bootstrap servers
 * @param rolls            true when the set of cluster aliases in the pods' environment changes
 */
record MirrorSet(List<FieldEdit> edits, List<AttributeChange> attrs, List<Change> connectorChanges,
                 Map<String, String> renamed, List<String> added, List<String> removed, List<String> unaddable,
                 boolean rolls) {

    MirrorSet {
        edits = List.copyOf(edits);
        attrs = List.copyOf(attrs);
        connectorChanges = List.copyOf(connectorChanges);
        renamed = Map.copyOf(renamed);
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        unaddable = List.copyOf(unaddable);
    }

    /**
     * @return the work of the mirrors of {@code live}, changes made through {@code ref}; empty when the declared and
     *         live source aliases agree (or adopt leaves undeclared ones)
     */
    static MirrorSet of(DesiredMirrorMaker2 dm, LiveMirrorMaker2 live, ObjectRef ref) {
        List<DesiredMirror> missing = dm.mirrors().stream().filter(m -> live.mirror(m.sourceAlias()).isEmpty()).toList();
        List<LiveMirrorMaker2.Mirror> undeclared = live.mirrors().stream().filter(m -> m.source() != null)
                .filter(m -> dm.mirrors().stream().noneMatch(d -> d.sourceAlias().equals(m.source()))).toList();
        Map<DesiredMirror, LiveMirrorMaker2.Mirror> pairs = pairs(missing, undeclared, live);
        List<DesiredMirror> added = missing.stream().filter(m -> !pairs.containsKey(m)).toList();
        List<String> unaddable = added.stream().filter(m -> m.sourceBootstrap() == null
                && (live.v1Layout() || LiveMirrorMaker2.cluster(live.workers().spec(), m.sourceAlias()).isEmpty()))
                .map(DesiredMirror::sourceAlias).toList();
        List<LiveMirrorMaker2.Mirror> removed = undeclared.stream()
                .filter(m -> pairs.containsValue(m) || dm.manage() == ManageMode.OWN).toList();
        Map<String, String> renamed = new LinkedHashMap<>();
        pairs.forEach((want, old) -> renamed.put(old.source(), want.sourceAlias()));
        Builder b = new Builder(dm, live, ref, renamed);
        if (unaddable.isEmpty()) {
            b.clusters(added, pairs);
            added.forEach(b::add);
            pairs.forEach(b::rename);
            removed.forEach(b::remove);
            b.dropUnusedClusters(removed);
            pairs.forEach(b::settle);
        }
        return new MirrorSet(b.edits, b.attrs, b.connectors, renamed, added.stream().map(DesiredMirror::sourceAlias).toList(),
                removed.stream().map(LiveMirrorMaker2.Mirror::source).toList(), unaddable, b.rolls());
    }

    /** @return true when nothing is added, removed or renamed */
    boolean isEmpty() {
        return edits.isEmpty();
    }

    /** @return rename pairs: same declared bootstrap servers, or the only unmatched mirror on each side */
    private static Map<DesiredMirror, LiveMirrorMaker2.Mirror> pairs(List<DesiredMirror> missing,
                                                                    List<LiveMirrorMaker2.Mirror> undeclared,
                                                                    LiveMirrorMaker2 live) {
        Map<DesiredMirror, LiveMirrorMaker2.Mirror> out = new LinkedHashMap<>();
        if (missing.size() == 1 && undeclared.size() == 1 && missing.get(0).sourceBootstrap() == null) {
            out.put(missing.get(0), undeclared.get(0));
            return out;
        }
        for (DesiredMirror m : missing) {
            undeclared.stream().filter(u -> !out.containsValue(u) && m.sourceBootstrap() != null
                            && m.sourceBootstrap().equals(bootstrap(live, u)))
                    .findFirst().ifPresent(u -> out.put(m, u));
        }
        return out;
    }

    /** @return the source bootstrap servers of a live mirror, in either layout, or null */
    static String bootstrap(LiveMirrorMaker2 live, LiveMirrorMaker2.Mirror m) {
        Object b = sourceEntry(live, m).get("bootstrapServers");
        return b == null ? null : b.toString();
    }

    /**
     * @return the source cluster entry of a live mirror: {@code source} in {@code v1}, its {@code spec.clusters[]}
     *         entry in {@code v1beta2}; empty when there is none
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> sourceEntry(LiveMirrorMaker2 live, LiveMirrorMaker2.Mirror m) {
        if (!live.v1Layout()) {
            return LiveMirrorMaker2.cluster(live.workers().spec(), m.source());
        }
        return m.raw().get("source") instanceof Map<?, ?> s ? (Map<String, Object>) s : Map.of();
    }

    /** @return the names of the connectors Strimzi generates for a mirror entry, source first */
    static List<String> connectorNames(String source, String target, Map<String, Object> entry) {
        List<String> out = new ArrayList<>();
        if (entry.get("sourceConnector") instanceof Map<?, ?>) {
            out.add(MirrorMaker2Names.sourceConnector(source, target));
        }
        if (entry.get("checkpointConnector") instanceof Map<?, ?>) {
            out.add(MirrorMaker2Names.checkpointConnector(source, target));
        }
        if (entry.get("heartbeatConnector") instanceof Map<?, ?>) {
            out.add(source + "->" + target + ".MirrorHeartbeatConnector");
        }
        return out;
    }

    /** @return the change of one connector the operator creates or deletes, at {@code <owner>.connector["<name>"]} */
    static Change connectorChange(String owner, ObjectRef ref, String connector, Action action, Change.Reason why) {
        return new Change(owner + ".connector[\"" + connector + "\"]",
                new ObjectRef(ref.apiVersion(), "Connector", ref.namespace(), connector), action, List.of(), why);
    }

    /** Collects the edits, attributes and connector changes. */
    private static final class Builder {
        private final DesiredMirrorMaker2 dm;
        private final LiveMirrorMaker2 live;
        private final ObjectRef ref;
        private final Map<String, String> renamed;
        private final boolean v1;
        private final Set<String> aliasesBefore;
        private final Set<String> aliasesAfter;
        private final List<FieldEdit> edits = new ArrayList<>();
        private final List<AttributeChange> attrs = new ArrayList<>();
        private final List<Change> connectors = new ArrayList<>();

        Builder(DesiredMirrorMaker2 dm, LiveMirrorMaker2 live, ObjectRef ref, Map<String, String> renamed) {
            this.dm = dm;
            this.live = live;
            this.ref = ref;
            this.renamed = renamed;
            this.v1 = live.v1Layout();
            this.aliasesBefore = aliases();
            this.aliasesAfter = new TreeSet<>(aliasesBefore);
        }

        /** @return the cluster aliases in the pods' environment: {@code spec.clusters[]}, or in v1 the mirrors' sources */
        private Set<String> aliases() {
            Set<String> out = new TreeSet<>();
            if (v1) {
                live.mirrors().forEach(m -> out.add(String.valueOf(m.source())));
            } else if (live.workers().spec().get("clusters") instanceof List<?> l) {
                l.forEach(c -> out.add(String.valueOf(c instanceof Map<?, ?> m ? m.get("alias") : null)));
            }
            return out;
        }

        boolean rolls() {
            return !aliasesBefore.equals(aliasesAfter);
        }

        /** Adds the v1beta2 cluster entries of added and renamed mirrors that the spec does not have yet. */
        void clusters(List<DesiredMirror> added, Map<DesiredMirror, LiveMirrorMaker2.Mirror> pairs) {
            if (v1) {
                return;
            }
            Map<String, Map<String, Object>> entries = new LinkedHashMap<>();
            added.forEach(m -> entries.put(m.sourceAlias(), KafkaMirrorMaker2Manifest.sourceClusterEntry(m)));
            pairs.forEach((want, old) -> entries.put(want.sourceAlias(),
                    renamedSource(LiveMirrorMaker2.cluster(live.workers().spec(), old.source()), want)));
            entries.forEach((alias, entry) -> {
                if (LiveMirrorMaker2.cluster(live.workers().spec(), alias).isEmpty()) {
                    set(List.of("spec", "clusters", "[alias=" + alias + "]"), "spec.clusters[alias=" + alias + "]", entry);
                    aliasesAfter.add(alias);
                }
            });
        }

        void add(DesiredMirror m) {
            Map<String, Object> entry = new KafkaMirrorMaker2Manifest(ref.apiVersion(), Map.of(), Map.of(), dm,
                    MirrorWork.SOURCE_EOS).mirrorEntry(m);
            putMirror(m.sourceAlias(), entry);
            creates(m.sourceAlias(), entry, ChangeReason.MIRROR_ADDED.of(m.sourceAlias()));
        }

        void rename(DesiredMirror want, LiveMirrorMaker2.Mirror old) {
            Map<String, Object> entry = new LinkedHashMap<>(old.raw());
            if (v1) {
                entry.put("source", renamedSource(old.raw().get("source") instanceof Map<?, ?> s ? cast(s) : Map.of(), want));
            } else {
                entry.put("sourceCluster", want.sourceAlias());
            }
            putMirror(want.sourceAlias(), entry);
            creates(want.sourceAlias(), entry, ChangeReason.MIRROR_ALIAS_RENAMED.of(old.source(), want.sourceAlias()));
        }

        void remove(LiveMirrorMaker2.Mirror m) {
            String selector = MirrorWork.mirrorSelector(v1, m.source());
            edits.add(FieldEdit.remove(List.of("spec", "mirrors", selector), false));
            attrs.addAll(entryAttrs("spec.mirrors" + selector, m.raw(), true));
            if (v1) {
                aliasesAfter.remove(m.source());
            }
            String to = renamed.get(m.source());
            Change.Reason why = to != null ? ChangeReason.MIRROR_ALIAS_RENAMED.of(m.source(), to)
                    : ChangeReason.MIRROR_REMOVED.of(m.source());
            for (String name : connectorNames(m.source(), live.target(), m.raw())) {
                connectors.add(connectorChange(dm.address(), ref, name, Action.DELETE, why));
            }
        }

        /** Removes the v1beta2 cluster entries no mirror uses any more (never the target's). */
        void dropUnusedClusters(List<LiveMirrorMaker2.Mirror> removed) {
            if (v1) {
                return;
            }
            Set<String> used = new TreeSet<>();
            live.mirrors().stream().filter(m -> !removed.contains(m)).forEach(m -> used.add(m.source()));
            dm.mirrors().forEach(m -> used.add(m.sourceAlias()));
            for (LiveMirrorMaker2.Mirror m : removed) {
                Map<String, Object> entry = LiveMirrorMaker2.cluster(live.workers().spec(), m.source());
                if (!entry.isEmpty() && !used.contains(m.source()) && !Objects.equals(m.source(), live.target())) {
                    edits.add(FieldEdit.remove(List.of("spec", "clusters", "[alias=" + m.source() + "]"), false));
                    attrs.addAll(entryAttrs("spec.clusters[alias=" + m.source() + "]", entry, true));
                    aliasesAfter.remove(m.source());
                }
            }
        }

        /** Adds the declared settings of a renamed mirror, against its entry as copied. */
        void settle(DesiredMirror want, LiveMirrorMaker2.Mirror old) {
            Map<String, Object> copy = new LinkedHashMap<>(old.raw());
            LiveMirrorMaker2.Mirror moved = new LiveMirrorMaker2.Mirror(want.sourceAlias(), old.sourceConfig(),
                    old.checkpoint(), old.checkpointConfig(), copy);
            MirrorWork w = MirrorWork.of(dm, want, moved, v1, renamedSource(sourceEntry(live, old), want), Map.of());
            edits.addAll(w.edits());
            attrs.addAll(w.attrs());
        }

        private void putMirror(String alias, Map<String, Object> entry) {
            String selector = MirrorWork.mirrorSelector(v1, alias);
            set(List.of("spec", "mirrors", selector), "spec.mirrors" + selector, entry);
            if (v1) {
                aliasesAfter.add(alias);
            }
        }

        private void set(List<String> path, String shown, Map<String, Object> entry) {
            edits.add(FieldEdit.set(path, entry, false));
            attrs.addAll(entryAttrs(shown, entry, false));
        }

        private void creates(String alias, Map<String, Object> entry, Change.Reason why) {
            for (String name : connectorNames(alias, live.target(), entry)) {
                connectors.add(connectorChange(dm.address(), ref, name, Action.CREATE, why));
            }
        }

        /** @return the old source cluster entry under the new alias, with the declared bootstrap servers and config */
        private static Map<String, Object> renamedSource(Map<String, Object> old, DesiredMirror want) {
            Map<String, Object> out = new LinkedHashMap<>(old);
            out.put("alias", want.sourceAlias());
            if (want.sourceBootstrap() != null) {
                out.put("bootstrapServers", want.sourceBootstrap());
            }
            if (!want.sourceClusterConfig().isEmpty()) {
                Map<String, Object> config = old.get("config") instanceof Map<?, ?> c ? new LinkedHashMap<>(cast(c))
                        : new LinkedHashMap<>();
                config.putAll(want.sourceClusterConfig());
                out.put("config", config);
            }
            return out;
        }

        /** @return every leaf of an entry, shown before (removed) or after (added), sensitive keys masked */
        private List<AttributeChange> entryAttrs(String shown, Map<String, Object> entry, boolean removed) {
            List<AttributeChange> out = new ArrayList<>();
            for (AttributeChange a : AttributeChange.ofManifest(entry, k -> false)) {
                String key = a.path().substring(a.path().lastIndexOf('.', a.path().endsWith("\"")
                        ? a.path().lastIndexOf('"', a.path().length() - 2) : a.path().length()) + 1).replace("\"", "");
                boolean sensitive = dm.isSensitive(key);
                out.add(new AttributeChange(shown + "." + a.path(), removed ? a.after() : null, removed ? null : a.after(),
                        sensitive));
            }
            return out;
        }

        @SuppressWarnings("unchecked")
        private static Map<String, Object> cast(Map<?, ?> m) {
            return (Map<String, Object>) m;
        }
    }
}
