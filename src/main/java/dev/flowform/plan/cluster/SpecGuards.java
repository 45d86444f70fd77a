package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Severity;
import dev.flowform.model.DesiredWorkers;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LivePod;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Rule;
import dev.flowform.plan.rules.RollCheck;
import java.util.ArrayList;
import java.util.List;

/**
 * Guards on what the resource is, as declared and as read: an adopted one that does not exist
 * ({@link Rule#CONFIGURATION}), a mode Kafka does not accept ({@link Rule#UNKNOWN_EOS_MODE}), a live spec that lacks
 * what the planner reads ({@link Rule#LIVE_SPEC}), a skipped preparing roll ({@link Rule#PREPARING_SKIPPED}) and
 * workers that cannot run the connectors ({@link Rule#REPLICAS_ZERO}). Pure.
 */
final class SpecGuards {

    private SpecGuards() {
    }

    /** Refuses to create a resource the configuration only adopts. */
    static Verdict adoptMissing(ClusterFacts f) {
        DesiredWorkers d = f.desired();
        if (d.manage() != ManageMode.ADOPT) {
            return Verdict.PASS;
        }
        boolean connect = f.kind() instanceof ConnectKind;
        return Verdict.refuse(Rule.CONFIGURATION.diagnostic(Severity.ERROR, "Adopted " + (connect ? "Connect cluster"
                        : f.ref().kind()) + " not found", f.kind().block() + " has manage = \"adopt\", but " + f.kind().who()
                        + " does not exist. Check the name and namespace, or use manage = \"own\" to let flowform create it.",
                d.range(), d.address()));
    }

    /** Refuses a KafkaConnect whose {@code exactly.once.source.support} is none of Kafka's three values. */
    static Verdict eosMode(ClusterFacts f) {
        ClusterFacts.Existing e = f.existing();
        if (e.current() != null) {
            return Verdict.PASS;
        }
        return Verdict.refuse(Rule.UNKNOWN_EOS_MODE.error("Unknown exactly.once.source.support value",
                e.who() + " sets exactly.once.source.support to \"" + e.cluster().eosValue() + "\"; Kafka accepts disabled, "
                        + "preparing or enabled. Fix it by hand first.", f.address()));
    }

    /**
     * Says what could not be checked on a live resource that lacks what the planner reads: a KafkaConnect without a
     * spec or {@code spec.bootstrapServers} (a KafkaMirrorMaker2's schema requires its clusters), and either kind
     * without {@code spec.replicas}, unless the configuration sets it.
     */
    static Verdict liveSpec(ClusterFacts f) {
        LiveConnectCluster c = f.existing().cluster();
        String who = f.existing().who();
        boolean connect = f.kind() instanceof ConnectKind;
        if (connect && c.spec().isEmpty()) {
            return Verdict.report(Rule.LIVE_SPEC.warning("KafkaConnect has no spec",
                    who + " has no spec. flowform could not check the workers' " + EosMode.CONFIG_KEY + " (read as Kafka's "
                            + "default, disabled), the group id ("
                            + (c.api() == StrimziApi.V1 ? "unknown" : "read as Strimzi's default, " + Strimzi.DEFAULT_GROUP_ID)
                            + "), the number of workers (read as Strimzi's default, " + RollCheck.STRIMZI_DEFAULT_REPLICAS
                            + "), the Kafka cluster they use or their Kafka version. The Strimzi operator cannot reconcile a "
                            + "KafkaConnect without spec.bootstrapServers.", f.address()));
        }
        List<String> missing = new ArrayList<>();
        if (c.replicas() == null && f.desired().replicas() == null) {
            missing.add("spec.replicas is not set: flowform counts Strimzi's default of " + RollCheck.STRIMZI_DEFAULT_REPLICAS
                    + " workers when it checks rolls and whether the connectors can run");
        }
        if (connect && c.spec().get("bootstrapServers") == null
                && ((ConnectKind) f.kind()).desired().bootstrapServers() == null) {
            missing.add("spec.bootstrapServers is not set: flowform could not check which Kafka cluster the workers use "
                    + "(where the transactional IDs need their ACLs), and the Strimzi operator cannot reconcile a "
                    + "KafkaConnect without it");
        }
        if (missing.isEmpty()) {
            return Verdict.PASS;
        }
        return Verdict.report(Rule.LIVE_SPEC.warning(c.ref().kind() + " spec is incomplete", who + ": "
                + String.join("; ", missing) + ".", f.address()));
    }

    /** Warns when the spec says enabled, the roll is not done, and a worker is known to still run disabled. */
    static Verdict preparingSkipped(ClusterFacts f) {
        ClusterFacts.Existing e = f.existing();
        if (e.current() != EosMode.ENABLED || e.rolled()) {
            return Verdict.PASS;
        }
        LiveConnectCluster c = e.cluster();
        for (LivePod p : c.pods()) {
            if (p.connectConfiguration() != null && RollCheck.mentionsMode(p.connectConfiguration(), EosMode.DISABLED)) {
                return Verdict.report(Rule.PREPARING_SKIPPED.warning("The preparing roll was skipped",
                        f.existing().who() + " was set to exactly.once.source.support=enabled "
                                + "while worker " + p.name() + " still runs disabled: its workers go from disabled to enabled in "
                                + "one roll, without the transactional leader that preparing guarantees. flowform waits for this "
                                + "roll to finish; check the exactly-once tasks after it.", f.address()));
            }
        }
        return Verdict.PASS;
    }

    /** Warns that connectors are written but cannot be waited for on a resource without workers. */
    static Verdict replicasZero(ClusterFacts f) {
        if (f.replicas() != 0 || !f.kind().writesConnectors()) {
            return Verdict.PASS;
        }
        Diagnostic d = Rule.REPLICAS_ZERO.warning("Connect cluster has 0 replicas",
                f.kind().block() + " runs no worker, so its connectors cannot start: flowform writes "
                        + f.kind().connectorWrites() + " but cannot wait for them to run. They start, and are validated, "
                        + "when the cluster is scaled up.", f.address());
        return Verdict.report(d);
    }
}
