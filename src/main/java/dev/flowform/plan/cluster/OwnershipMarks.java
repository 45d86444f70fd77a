package dev.flowform.plan.cluster;

import dev.flowform.model.LiveConnector;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Ownership;
import dev.flowform.plan.Planner;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ownership marks a plan writes ({@link Ownership}): on a new object with its manifest, on an existing one
 * with its first write, and on an object taken over with {@code --transfer-ownership} in a step of its own first
 * in the chain. An object the plan does not write to keeps the marks it has. Pure.
 */
final class OwnershipMarks {

    private OwnershipMarks() {
    }

    /** @return the labels of an object flowform creates: managed by flowform, in this environment */
    static Map<String, String> labels(PlanScope scope) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Strimzi.MANAGED_BY_LABEL, LiveConnector.MANAGED_BY_VALUE);
        labels.put(Planner.ENVIRONMENT_LABEL, scope.environment());
        return labels;
    }

    /** @return the ownership annotations of an object flowform creates; empty without a lineage */
    static Map<String, String> annotations(PlanScope scope) {
        Map<String, String> m = new LinkedHashMap<>();
        if (scope.lineage() != null) {
            m.put(Ownership.ENVIRONMENT_ANNOTATION, scope.environment());
            m.put(Ownership.LINEAGE_ANNOTATION, scope.lineage());
        }
        return m;
    }

    /**
     * Writes our marks into a cluster's steps: a {@link StepKind#TRANSFER_OWNERSHIP} step first in the chain for
     * every object taken over, and, for every other claimed object this plan writes to anyway, the mark edits
     * added to its first patch (so the marks never cost a step or a roll of their own). No claim of {@code facts} is
     * refused.
     *
     * @return the sequencer's steps and changes with the marks; {@code steps} itself without a lineage
     */
    static Sequence settle(ClusterFacts facts, Sequence steps) {
        PlanScope scope = facts.scope();
        List<Claim> claims = facts.claims();
        if (scope.lineage() == null) {
            return steps;
        }
        List<Draft> chain = new ArrayList<>(steps.chain());
        List<Change> changes = new ArrayList<>(steps.changes());
        List<Draft> first = new ArrayList<>();
        for (Claim cl : claims) {
            List<FieldEdit> edits = Ownership.edits(cl.labels(), cl.annotations(), scope.environment(), scope.lineage(),
                    cl.connector());
            if (edits.isEmpty()) {
                continue;
            }
            List<AttributeChange> attrs = Ownership.attributes(edits, cl.labels(), cl.annotations());
            if (cl.transfer()) {
                String from = cl.owner().unmarked() ? "claim it for this state (it carried no ownership marks)"
                        : "take over from " + cl.owner().describe();
                first.add(new Draft(StepKind.TRANSFER_OWNERSHIP, cl.address(), cl.ref(), new StepPayload.PatchObject(edits),
                        from));
                merge(changes, cl.address(), cl.ref(), attrs, cl.owner().unmarked() ? ChangeReason.OWNERSHIP_CLAIMED.of()
                        : ChangeReason.OWNERSHIP_TAKEN_OVER.of(cl.owner().describe()));
            } else if (markFirstWrite(chain, cl, edits)) {
                merge(changes, cl.address(), cl.ref(), attrs, null);
            }
        }
        chain.addAll(0, first);
        return new Sequence(chain, changes);
    }

    /** Adds {@code edits} to the first patch of the claimed object in {@code chain}; false when there is none. */
    private static boolean markFirstWrite(List<Draft> chain, Claim cl, List<FieldEdit> edits) {
        for (int i = 0; i < chain.size(); i++) {
            Draft d = chain.get(i);
            if (!d.address().equals(cl.address()) || !d.object().equals(cl.ref())) {
                continue;
            }
            StepPayload p = d.payload();
            StepPayload marked = p instanceof StepPayload.PatchObject po ? new StepPayload.PatchObject(concat(po.edits(), edits))
                    : p instanceof StepPayload.SetWorkerEos se ? new StepPayload.SetWorkerEos(se.mode(), concat(se.edits(), edits))
                    : null;
            if (marked != null) {
                chain.set(i, d.withPayload(marked));
                return true;
            }
        }
        return false;
    }

    private static List<FieldEdit> concat(List<FieldEdit> a, List<FieldEdit> b) {
        List<FieldEdit> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** Adds {@code attrs} and {@code reason} to the change of {@code address}; a new update when there is none. */
    private static void merge(List<Change> changes, String address, ObjectRef object, List<AttributeChange> attrs,
                              Change.Reason reason) {
        for (int i = 0; i < changes.size(); i++) {
            Change c = changes.get(i);
            if (c.address().equals(address)) {
                changes.set(i, c.plus(attrs, reason));
                return;
            }
        }
        changes.add(new Change(address, object, Action.UPDATE, attrs,
                reason == null ? ChangeReason.OWNERSHIP_MARKS.of() : reason));
    }
}
