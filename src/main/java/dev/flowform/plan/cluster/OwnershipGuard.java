package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Ownership;
import dev.flowform.plan.PlanOptions;
import dev.flowform.plan.Rule;
import java.util.ArrayList;
import java.util.List;

/**
 * The ownership guard ({@link Rule#OWNERSHIP}): an existing object the plan manages whose marks name another environment
 * or lineage is refused unless {@link PlanOptions#transferOwnership()} names it; all are reported at once. Objects
 * without marks are adoptable. Pure.
 */
final class OwnershipGuard {

    private OwnershipGuard() {
    }

    /**
     * @param f the resource's facts: its claims (a KafkaConnect and its flows' connectors, or a KafkaMirrorMaker2)
     * @return an error per refused object, refusing the resource when there is one
     */
    static Verdict check(ClusterFacts f) {
        PlanScope scope = f.scope();
        Ownership ours = new Ownership(scope.environment(), scope.lineage());
        List<Diagnostic> out = new ArrayList<>();
        for (Claim cl : f.claims()) {
            if (!cl.refused()) {
                continue;
            }
            ObjectRef object = cl.ref();
            out.add(Rule.OWNERSHIP.error("Object is managed by another flowform state",
                    object.kind() + " " + object.namespace() + "/" + object.name() + " carries the ownership marks of "
                            + cl.owner().describe() + ", but this plan is for " + ours.describe() + ". flowform does not "
                            + "take over objects another state manages: two states applying to one object undo each "
                            + "other's changes, and either may delete what the other created. Point this environment at its "
                            + "own objects, or, if they were handed over to it (or its state was lost and created again), "
                            + "plan again with --transfer-ownership " + cl.address() + ": the apply then rewrites the marks "
                            + "and records the transfer in the run history.", cl.address()));
        }
        return new Verdict(out, !out.isEmpty());
    }
}
