package dev.flowform.plan.cluster;

import dev.flowform.model.EosMode;
import dev.flowform.model.SecretKeys;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The steps of a KafkaMirrorMaker2's mirrors, which are part of the resource: the mirror edits as one patch (mirrors
 * added, removed or renamed, then settings), a roll when the set of cluster aliases changes, then one wait for every
 * connector and task (rule 8); a source connector whose exactly-once keys change is stopped first
 * ({@link MirrorLanes}, docs/domain-rules.md 8b); a renamed target alias is a patch of its own
 * ({@link MirrorTargetRename}). Pure.
 */
final class MirrorSteps {

    private MirrorSteps() {
    }

    /** @param mode the workers' mode when the steps run */
    static void add(StepSequencer s, MirrorMakerKind k, EosMode mode) {
        if (k.live() == null) {
            connectorWait(s, k);
        } else if (k.renamed()) {
            s.add(new Draft(StepKind.UPDATE_CONNECT_CLUSTER, k.address(), k.ref(), new StepPayload.PatchObject(
                    MirrorTargetRename.edits(k)), "rename target alias " + k.live().target() + " to "
                    + k.desired().targetAlias()));
            s.rollWait(mode, null, aliasesRolled(k));
            connectorWait(s, k);
        } else {
            mirrors(s, k, mode);
        }
    }

    /**
     * The mirror edits as one patch: mirrors added, removed or renamed ({@link MirrorSet}), then settings. When the set
     * of cluster aliases changes, the pods roll (Strimzi {@code KAFKA_MIRRORMAKER_2_CLUSTERS}) and the plan waits for it
     * at {@code mode}, the workers' mode at that point; then for the connectors.
     */
    private static void mirrors(StepSequencer s, MirrorMakerKind k, EosMode mode) {
        MirrorSet set = k.set();
        if (k.mirrors().isEmpty() && set.isEmpty()) {
            return;
        }
        List<FieldEdit> edits = new ArrayList<>(set.edits());
        List<String> parts = new ArrayList<>();
        set.renamed().forEach((from, to) -> parts.add("rename " + from + " to " + to));
        set.added().forEach(a -> parts.add("add " + a));
        set.removed().stream().filter(r -> !set.renamed().containsKey(r)).forEach(r -> parts.add("remove " + r));
        MirrorLanes lanes = MirrorLanes.of(s.facts(), k, mode);
        lanes.stopSteps(s, k);
        Map<String, List<String>> bySource = new LinkedHashMap<>();
        for (MirrorWork w : k.mirrors()) {
            edits.addAll(w.edits());
            for (FieldEdit e : w.edits()) {
                bySource.computeIfAbsent(w.source(), a -> new ArrayList<>()).add(e.remove() ? "remove " + e.key()
                        : e.key() + "=" + (e.sensitive() ? SecretKeys.MASK : String.valueOf(e.value())));
            }
        }
        edits.addAll(lanes.startEdits(k.v1()));
        lanes.startParts().forEach((source, start) -> bySource.computeIfAbsent(source, a -> new ArrayList<>()).add(start));
        bySource.forEach((source, changes) -> parts.add(source + ": " + String.join(", ", changes)));
        s.add(new Draft(set.rolls() ? StepKind.UPDATE_CONNECT_CLUSTER : StepKind.UPDATE_CONNECTOR, k.address(), k.ref(),
                new StepPayload.PatchObject(edits), "mirrors " + String.join("; ", parts)));
        if (set.rolls()) {
            s.rollWait(mode, null, aliasesRolled(k));
        }
        connectorWait(s, k);
    }

    private static String aliasesRolled(MirrorMakerKind k) {
        return "wait until every " + k.desired().name() + "-mirrormaker2 pod has restarted with the new cluster aliases "
                + "(KAFKA_MIRRORMAKER_2_CLUSTERS)";
    }

    private static void connectorWait(StepSequencer s, MirrorMakerKind k) {
        if (s.facts().replicas() == 0) {
            return;
        }
        s.add(new Draft(StepKind.WAIT_FOR_CONNECTOR_READY, k.address(), k.ref(),
                new StepPayload.WaitForConnector("RUNNING", null), "wait until every connector and task of KafkaMirrorMaker2 "
                + k.desired().name() + " is RUNNING"));
    }

    /**
     * Adds what the resource's change shows of its mirrors: their edits and why (exactly-once on or off, stopped first,
     * started again, other settings), then the mirrors added, removed or renamed.
     */
    static void change(ClusterFacts f, MirrorMakerKind k, List<AttributeChange> attrs, List<Change.Reason> reasons) {
        List<String> on = new ArrayList<>();
        List<String> off = new ArrayList<>();
        for (MirrorWork w : k.mirrors()) {
            attrs.addAll(w.attrs());
            (w.eosOn() ? on : w.eosOff() ? off : new ArrayList<String>()).add(w.source());
        }
        if (!on.isEmpty()) {
            reasons.add(ChangeReason.MIRROR_EOS_ON.of(String.join(", ", on)));
        }
        MirrorLanes lanes = MirrorLanes.of(f, k, f.connectorMode());
        if (!lanes.stopFirst().isEmpty()) {
            reasons.add(ChangeReason.MIRROR_STOP_START.of(String.join(", ", lanes.stopFirst())));
        }
        if (!lanes.marked().isEmpty()) {
            reasons.add(ChangeReason.MIRROR_RESUME_STOPPED.of(String.join(", ", lanes.marked())));
        }
        if (!off.isEmpty()) {
            reasons.add(ChangeReason.MIRROR_EOS_OFF.of(String.join(", ", off)));
        }
        if (on.isEmpty() && off.isEmpty() && !k.mirrors().isEmpty()) {
            reasons.add(ChangeReason.MIRROR_CONFIG.of());
        }
        attrs.addAll(k.set().attrs());
        k.set().renamed().forEach((from, to) -> reasons.add(ChangeReason.MIRROR_ALIAS_RENAMED.of(from, to)));
        k.set().added().forEach(a -> reasons.add(ChangeReason.MIRROR_ADDED.of(a)));
        k.set().removed().stream().filter(r -> !k.set().renamed().containsKey(r))
                .forEach(r -> reasons.add(ChangeReason.MIRROR_REMOVED.of(r)));
    }
}
