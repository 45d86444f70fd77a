package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.DesiredWorkers;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.LivePod;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.KafkaVersion;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.cluster.ClusterIdentity.IdentityEdit;
import dev.flowform.plan.rules.ForcedRoll;
import dev.flowform.plan.rules.RollCheck;
import java.util.List;
import java.util.Optional;

/**
 * What one Connect-family resource (a KafkaConnect with the flows on it, or a KafkaMirrorMaker2) is, computed once
 * from the desired and the live state before any guard is asked (the model half of Strimzi's model/operator split):
 * the workers' facts, alike for both kinds, and the {@link ResourceKind} for what differs. Guards read these facts and
 * the {@link StepSequencer} emits steps from them; neither reads the live state again. Pure.
 *
 * @param kind       what differs between the kinds: layout, connectors, words
 * @param existing   the facts of the live resource; null when it does not exist
 * @param claims     the existing objects the plan manages, with their ownership marks
 * @param replicas   the number of workers after the plan ({@code spec.replicas}, else Strimzi's default)
 * @param forcedRoll true when the operator does not roll the pods on a worker configuration change (a
 *                   KafkaMirrorMaker2 of Strimzi 0.46-0.48, {@link ForcedRoll#affected}): every worker step is
 *                   followed by a forced roll (docs/domain-rules.md, 7a)
 */
record ClusterFacts(PlanScope scope, ResourceKind kind, Existing existing, List<Claim> claims, int replicas,
                    boolean forcedRoll) {

    /**
     * The facts of a resource that exists.
     *
     * @param cluster  the live workers (a KafkaConnect, or a KafkaMirrorMaker2 seen as a Connect cluster)
     * @param current  the mode its spec sets; null when the value is not one Kafka accepts
     * @param roll     whether the operator finished rolling its current generation to {@code current}
     *                 ({@link RollCheck}, rule 7)
     * @param workers  the mode its workers run: {@code current}, or a mode a worker that has not rolled still runs
     * @param spec     the worker edits apart from the exactly-once mode
     * @param places   where the resource keeps its exactly-once identity
     * @param identity the changes {@code spec} makes to that identity
     * @param path     the modes to set, in order, from {@code current} to the desired mode (rules 2 and 5)
     * @param annotate true when it lacks {@value Strimzi#USE_CONNECTOR_RESOURCES_ANNOTATION} (a KafkaConnect)
     */
    record Existing(LiveConnectCluster cluster, EosMode current, Readiness roll, EosMode workers, SpecDiff spec,
                    ClusterIdentity.Places places, List<IdentityEdit> identity, List<EosMode> path, boolean annotate) {

        Existing {
            identity = List.copyOf(identity);
            path = List.copyOf(path);
        }

        /** @return the facts of {@code c}; {@code forced} when its pods carry no hash worth checking ({@link ForcedRoll}) */
        static Existing of(LiveConnectCluster c, EosMode target, SpecDiff spec, ClusterIdentity.Places places,
                           boolean annotate, boolean forced) {
            EosMode current = c.eosMode().orElse(null);
            Readiness roll = RollCheck.evaluate(c, c.generation(), current, !forced);
            return new Existing(c, current, roll, workersMode(c, current), spec, places,
                    ClusterIdentity.edits(places, spec.edits()), current == null ? List.of() : eosPath(current, target),
                    annotate);
        }

        /** @return how messages name it: {@code KafkaConnect ns/name} or {@code KafkaMirrorMaker2 ns/name} */
        String who() {
            return cluster.ref().kind() + " " + cluster.namespace() + "/" + cluster.name();
        }

        /** @return true when its last reconcile failed ({@code NotReady} at its generation) */
        boolean failed() {
            return roll instanceof Readiness.Failed;
        }

        /** @return true when the roll of its current generation is complete */
        boolean rolled() {
            return roll.isComplete();
        }

        /** @return true when the plan changes the identity of workers that run exactly-once */
        boolean newIdentity() {
            return !identity.isEmpty() && workers != EosMode.DISABLED;
        }

        /** @return true when the plan writes to the workers' configuration or annotations */
        boolean changes() {
            return !path.isEmpty() || !spec.isEmpty() || annotate;
        }

        /**
         * @return true when the operator would restart a FAILED task now: nothing of the workers changes, no roll is in
         *         progress, the last reconcile did not fail and reconciliation is not paused (rule 8)
         */
        boolean restartable() {
            return !changes() && rolled() && !cluster.reconciliationPaused();
        }
    }

    ClusterFacts {
        claims = List.copyOf(claims);
    }

    /** @return the facts of a {@code connect_cluster} in {@code scope} (whose live state has a Strimzi API) */
    static ClusterFacts of(PlanScope scope, DesiredConnectCluster dc) {
        LiveConnectCluster c = scope.live().cluster(dc.namespace(), dc.name()).orElse(null);
        Existing existing = c == null ? null : Existing.of(c, dc.eos(), SpecDiff.cluster(dc, c), ConnectKind.places(c),
                !c.usesConnectorResources(), false);
        ConnectKind kind = ConnectKind.of(scope, dc, c, existing != null && existing.restartable());
        return new ClusterFacts(scope, kind, existing, kind.claims(), replicas(dc, c), false);
    }

    /**
     * @param dm    a {@code mirrormaker2} block, derived
     * @return its facts
     */
    static ClusterFacts of(PlanScope scope, DesiredMirrorMaker2 dm) {
        LiveMirrorMaker2 live = scope.live().mirrorMaker(dm.namespace(), dm.name()).orElse(null);
        MirrorMakerKind kind = MirrorMakerKind.of(scope, dm, live);
        LiveConnectCluster c = live == null ? null : live.workers();
        boolean forced = c != null && ForcedRoll.affected(c);
        Existing existing = c == null ? null : Existing.of(c, dm.eos(), kind.workerDiff(), kind.places(), false, forced);
        List<Claim> claims = c == null ? List.of() : List.of(Claim.of(scope, java.util.Map.of(), dm.address(), c.ref(),
                c.labels(), c.annotations()));
        return new ClusterFacts(scope, kind, existing, claims, replicas(dm, c), forced);
    }

    private static int replicas(DesiredWorkers d, LiveConnectCluster c) {
        return d.replicas() != null ? d.replicas()
                : c == null || c.replicas() == null ? RollCheck.STRIMZI_DEFAULT_REPLICAS : c.replicas();
    }

    /** @return the resource as declared */
    DesiredWorkers desired() {
        return kind.desired();
    }

    /** @return the resource's address */
    String address() {
        return kind.desired().address();
    }

    /** @return the live object, or the one to create */
    ObjectRef ref() {
        return kind.ref();
    }

    /** @return true when the plan writes to the resource or a connector (a new resource always) */
    boolean somethingChanges() {
        return existing == null || existing.changes() || kind.connectorsChange();
    }

    /** @return true when the workers are to run exactly-once or carry exactly-once connectors */
    boolean exactlyOnceInvolved() {
        return desired().eos() != EosMode.DISABLED || kind.exactlyOnceConnectors();
    }

    /**
     * @return true when the plan's next step needs every worker to run the current mode already: the roll to
     *         {@code enabled} after {@code preparing}, or a connector that requires exactly-once without a mode change
     */
    boolean needsCurrentRolled() {
        return (existing.current() == EosMode.PREPARING && existing.path().equals(List.of(EosMode.ENABLED)))
                || (existing.path().isEmpty() && kind.connectorsNeedEnabled());
    }

    /**
     * The Kafka version the workers run: the configuration's {@code version}, else the live {@code spec.version}, else
     * the version the workers report in {@code status.connectorPlugins}.
     *
     * @return the version; empty when none is known (the operator's default) or it cannot be read
     */
    Optional<KafkaVersion> kafkaVersion() {
        if (desired().version() != null || existing == null) {
            return KafkaVersion.parse(desired().version());
        }
        LiveConnectCluster c = existing.cluster();
        return KafkaVersion.parse(c.version() != null ? c.version() : c.reportedKafkaVersion());
    }

    /** @return true when the workers' mode goes up (connectors after the rolls), false when it stays or goes down */
    boolean upgrade() {
        return existing == null || desired().eos().ordinal() > existing.current().ordinal();
    }

    /** @return the workers' mode when the connector steps run: the desired one going up, else the current one */
    EosMode connectorMode() {
        return upgrade() ? desired().eos() : existing.current();
    }

    /** EOS modes to set, in order, to get from {@code current} to {@code target} (rules 2 and 5). */
    static List<EosMode> eosPath(EosMode current, EosMode target) {
        if (current == target) {
            return List.of();
        }
        if (current == EosMode.DISABLED && target == EosMode.ENABLED) {
            return List.of(EosMode.PREPARING, EosMode.ENABLED);
        }
        return List.of(target);
    }

    /** @return the mode the workers run: the spec's, or a mode a not yet rolled worker still runs */
    private static EosMode workersMode(LiveConnectCluster c, EosMode current) {
        if (current != EosMode.DISABLED) {
            return current;
        }
        for (EosMode m : List.of(EosMode.ENABLED, EosMode.PREPARING)) {
            for (LivePod p : c.pods()) {
                if (p.connectConfiguration() != null && RollCheck.mentionsMode(p.connectConfiguration(), m)) {
                    return m;
                }
            }
        }
        return EosMode.DISABLED;
    }
}
