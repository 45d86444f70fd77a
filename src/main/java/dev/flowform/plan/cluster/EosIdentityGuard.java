package dev.flowform.plan.cluster;

import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import dev.flowform.plan.PlanOptions;
import dev.flowform.plan.Rule;

/**
 * The exactly-once identity guard ({@link Rule#CLUSTER_IDENTITY}): a new group id or storage topic on workers running
 * {@code preparing} or {@code enabled} is refused unless {@link PlanOptions#acceptNewClusterIdentity()}, since the
 * transactional IDs and source offsets hang on them (KIP-618; docs/domain-rules.md, 9). Pure.
 */
final class EosIdentityGuard {

    private EosIdentityGuard() {
    }

    /** Refuses a new identity of exactly-once workers without the acknowledgement. */
    static Verdict refuse(ClusterFacts f) {
        ClusterFacts.Existing e = f.existing();
        if (!e.newIdentity() || f.scope().options().acceptNewClusterIdentity()) {
            return Verdict.PASS;
        }
        return Verdict.refuse(Rule.CLUSTER_IDENTITY.error("Changing the identity of an exactly-once Connect cluster",
                e.who() + " runs " + EosMode.CONFIG_KEY + "=" + e.workers().value() + ", and this plan changes "
                        + ClusterIdentity.describe(e.identity()) + ". " + ClusterIdentity.consequences(e.places(), e.identity())
                        + "Keep the current values" + (f.desired().manage() == ManageMode.OWN ? " in the configuration "
                        + "(manage = \"own\" removes what it does not declare, so declare them)" : " in the configuration")
                        + ", or, to give the cluster a new identity deliberately, plan again with "
                        + "--accept-new-cluster-identity.", f.address()));
    }

    /** Warns about the accepted new identity, once the plan goes ahead. */
    static Verdict accepted(ClusterFacts f) {
        ClusterFacts.Existing e = f.existing();
        if (!e.newIdentity()) {
            return Verdict.PASS;
        }
        return Verdict.report(Rule.CLUSTER_IDENTITY.warning("The Connect cluster gets a new exactly-once identity",
                e.who() + " runs " + EosMode.CONFIG_KEY + "=" + e.workers().value() + ", and this plan changes "
                        + ClusterIdentity.describe(e.identity()) + " (--accept-new-cluster-identity). "
                        + ClusterIdentity.consequences(e.places(), e.identity())
                        + "Grant the principals Write and Describe on the new transactional IDs before applying.",
                f.address()));
    }
}
