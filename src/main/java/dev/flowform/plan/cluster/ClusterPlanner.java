package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.plan.Ownership;
import dev.flowform.plan.TransactionalId;
import dev.flowform.plan.acl.AclCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans one Connect-family resource, a KafkaConnect with the flows on it or a KafkaMirrorMaker2, through one path
 * (docs/architecture.md, "The planner"): its {@link ClusterFacts}, computed once; the {@link OwnershipGuard}, then the
 * {@link ClusterGuards} in order, each reporting diagnostics of its rules and the first refusal ending the list; the
 * {@link StepSequencer}'s steps when no guard refused; the transactional IDs they need, and the ACLs for them checked
 * against the principal's KafkaUser ({@link AclCheck}: a missing one refuses the steps); and last the ownership marks,
 * which are written even when a guard after the ownership guard refused (so {@code --transfer-ownership} takes objects
 * over whatever else is wrong). Pure.
 */
public final class ClusterPlanner {

    private ClusterPlanner() {
    }

    /** @return a {@code connect_cluster}'s steps (unnumbered), changes, transactional IDs and diagnostics */
    public static ClusterPlan plan(PlanScope scope, DesiredConnectCluster dc) {
        return plan(ClusterFacts.of(scope, dc));
    }

    /** @return a derived {@code mirrormaker2} block's steps (unnumbered), changes, transactional IDs and diagnostics */
    public static ClusterPlan plan(PlanScope scope, DesiredMirrorMaker2 dm) {
        return plan(ClusterFacts.of(scope, dm));
    }

    private static ClusterPlan plan(ClusterFacts facts) {
        Verdict owners = OwnershipGuard.check(facts);
        List<Diagnostic> diagnostics = new ArrayList<>(owners.diagnostics());
        if (owners.refused()) {
            return result(facts, Sequence.EMPTY, List.of(), diagnostics);
        }
        boolean refused = false;
        for (Guard g : ClusterGuards.of(facts)) {
            Verdict v = g.check(facts);
            diagnostics.addAll(v.diagnostics());
            if (v.refused()) {
                refused = true;
                break;
            }
        }
        Sequence steps = refused ? Sequence.EMPTY : StepSequencer.sequence(facts);
        List<TransactionalId> ids = TransactionalIds.of(facts, steps.chain());
        List<Diagnostic> acls = AclCheck.check(AclSubjects.of(facts, ids), facts.scope().live(),
                facts.scope().options().acceptMissingAcls());
        diagnostics.addAll(acls);
        if (acls.stream().anyMatch(Diagnostic::isError)) {
            steps = Sequence.EMPTY;
        }
        return result(facts, OwnershipMarks.settle(facts, steps), ids, diagnostics);
    }

    private static ClusterPlan result(ClusterFacts facts, Sequence steps, List<TransactionalId> ids,
                                      List<Diagnostic> diagnostics) {
        return new ClusterPlan(facts.address(), steps.chain(), steps.changes(), ids, facts.kind().flowOf(),
                transfers(facts.claims()), diagnostics);
    }

    /**
     * @param claims the claims of one resource's plan
     * @return the address of every object it takes over to the owner its marks named
     */
    private static Map<String, Ownership> transfers(List<Claim> claims) {
        Map<String, Ownership> transfers = new LinkedHashMap<>();
        claims.stream().filter(Claim::transfer).forEach(c -> transfers.put(c.address(), c.owner()));
        return transfers;
    }
}
