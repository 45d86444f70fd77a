package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.Rule;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renaming the target alias of an existing KafkaMirrorMaker2 ({@code spec.target.alias} in {@code v1};
 * {@code spec.connectCluster}, the target's cluster entry and every mirror's {@code targetCluster} in {@code v1beta2}):
 * Strimzi recreates every connector under the new name and the pods roll. Planned only on its own, since in
 * {@code v1beta2} the worker configuration's path names the alias (docs/mirrormaker2.md). Pure.
 */
final class MirrorTargetRename {

    private MirrorTargetRename() {
    }

    /** @return true when the block names another target alias than the resource */
    static boolean renamed(MirrorMakerKind f) {
        return f.live() != null && f.desired().targetAlias() != null && !f.desired().targetAlias().equals(f.live().target());
    }

    /**
     * @return the refusal when the rename of the target of {@code f} ({@code who} in messages) cannot be planned:
     *         another change in the same plan, or a new alias that names a cluster the resource has already; else empty
     */
    static List<Diagnostic> refusal(ClusterFacts facts, MirrorMakerKind f, String who) {
        DesiredMirrorMaker2 dm = f.desired();
        Set<String> taken = new TreeSet<>();
        f.live().mirrors().forEach(m -> taken.add(m.source()));
        if (!LiveMirrorMaker2.cluster(f.live().workers().spec(), dm.targetAlias()).isEmpty()) {
            taken.add(dm.targetAlias());
        }
        if (taken.contains(dm.targetAlias())) {
            return List.of(Rule.CONFIGURATION.error("Target alias already in use", who + ": the configuration renames the "
                    + "target " + f.live().target() + " to " + dm.targetAlias() + ", which the resource already names as "
                    + "a cluster; Strimzi requires unique aliases.", dm.address()));
        }
        if (!facts.existing().path().isEmpty() || !f.workerDiff().isEmpty() || !f.mirrors().isEmpty() || !f.set().isEmpty()) {
            return List.of(Rule.CONFIGURATION.error("Target alias renamed with other changes", who + ": the configuration "
                    + "renames the target " + f.live().target() + " to " + dm.targetAlias() + " and changes other settings. "
                    + "Rename the target in a plan of its own (keep the other settings as the resource has them), apply, "
                    + "then plan the rest.", dm.address()));
        }
        return List.of();
    }

    /** @return the spec edits, old alias to new */
    static List<FieldEdit> edits(MirrorMakerKind f) {
        String to = f.desired().targetAlias();
        if (f.v1()) {
            return List.of(FieldEdit.set(List.of("spec", "target", "alias"), to, false));
        }
        List<FieldEdit> out = new ArrayList<>();
        out.add(FieldEdit.set(List.of("spec", "connectCluster"), to, false));
        out.add(FieldEdit.set(List.of("spec", "clusters", "[alias=" + f.live().target() + "]", "alias"), to, false));
        for (LiveMirrorMaker2.Mirror m : f.live().mirrors()) {
            out.add(FieldEdit.set(List.of("spec", "mirrors", MirrorWork.mirrorSelector(false, m.source()), "targetCluster"),
                    to, false));
        }
        return out;
    }

    /**
     * Adds what the rename shows on the resource's change: the alias fields, old to new, and the reason.
     *
     * @param f       the resource, with a renamed target
     */
    static void change(MirrorMakerKind f, List<AttributeChange> attrs, List<Change.Reason> reasons) {
        String from = f.live().target();
        String to = f.desired().targetAlias();
        if (f.v1()) {
            attrs.add(new AttributeChange("spec.target.alias", Json.render(from), Json.render(to), false));
        } else {
            attrs.add(new AttributeChange("spec.connectCluster", Json.render(from), Json.render(to), false));
            attrs.add(new AttributeChange("spec.clusters[alias=" + from + "].alias", Json.render(from), Json.render(to), false));
            f.live().mirrors().forEach(m -> attrs.add(new AttributeChange("spec.mirrors" + MirrorWork.mirrorSelector(false,
                    m.source()) + ".targetCluster", Json.render(from), Json.render(to), false)));
        }
        reasons.add(ChangeReason.MIRROR_TARGET_RENAMED.of(from, to));
    }

    /** @return one change per connector the operator deletes and creates */
    static List<Change> connectorChanges(MirrorMakerKind f) {
        String from = f.live().target();
        String to = f.desired().targetAlias();
        Change.Reason why = ChangeReason.MIRROR_TARGET_RENAMED.of(from, to);
        List<Change> out = new ArrayList<>();
        for (LiveMirrorMaker2.Mirror m : f.live().mirrors()) {
            MirrorSet.connectorNames(m.source(), from, m.raw()).forEach(n -> out.add(MirrorSet.connectorChange(f.address(),
                    f.ref(), n, Action.DELETE, why)));
            MirrorSet.connectorNames(m.source(), to, m.raw()).forEach(n -> out.add(MirrorSet.connectorChange(f.address(),
                    f.ref(), n, Action.CREATE, why)));
        }
        return out;
    }

    /**
     * @param f the facts, with a renamed target
     * @return what the rename costs (rule {@code mm2-alias-rename}): every connector starts again without offsets
     */
    static Diagnostic warning(MirrorMakerKind f) {
        String from = f.live().target();
        String to = f.desired().targetAlias();
        return Rule.MIRROR_ALIAS_RENAME.warning("Target alias renamed: every connector is replaced", "KafkaMirrorMaker2 "
                + f.live().namespace() + "/" + f.live().name() + ": renaming target alias " + from + " to " + to
                + " makes Strimzi delete every <source>->" + from + ".* connector and create <source>->" + to + ".*. Each "
                + "new MirrorSourceConnector finds no committed offsets (Kafka Connect keys them by connector name), so it "
                + "starts every source partition at auto.offset.reset (MirrorMaker 2's default: earliest) and copies every "
                + "retained record again into the remote topics; offset syncs move to mm2-offset-syncs." + to
                + ".internal, so consumer-group checkpoints start again; exactly-once tasks write with new transactional IDs "
                + "<group.id>-<source>->" + to + ".MirrorSourceConnector-<task>: grant Write and Describe on them before "
                + "applying.", f.desired().address());
    }
}
