package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LivePod;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.KafkaConnectManifest;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.KafkaVersion;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.RollCheck;
import dev.flowform.plan.cluster.ClusterIdentity.IdentityEdit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one Connect cluster and the flows on it are, computed once from the desired and the live state before
 * any guard is asked (the model half of Strimzi's model/operator split): the claims on its objects, the work its
 * connectors need, and, for an existing KafkaConnect, its {@link Existing} facts. Guards read these facts and the
 * {@link StepSequencer} emits steps from them; neither reads the live state again. Pure.
 *
 * @param scope          the plan's scope
 * @param desired        the cluster as the configuration declares it
 * @param flows          the flows on it
 * @param flowOf         address of each of their connectors to the flow's address
 * @param ref            the KafkaConnect: the live one, or the one to create
 * @param existing       the facts of the live KafkaConnect; null when it does not exist
 * @param claims         the existing objects the plan manages, with their ownership marks
 * @param connectors     the connectors' work and findings
 * @param replicas       the number of workers after the plan ({@code spec.replicas}, else Strimzi's default)
 * @param ignoredV1Keys  {@code spec.config} keys Strimzi v1 ignores, live or declared
 * @param groupId        the group id the workers use after the plan, or {@code <spec.groupId>} when v1 has none
 */
record ClusterFacts(PlanScope scope, DesiredConnectCluster desired, List<DesiredFlow> flows, Map<String, String> flowOf,
                    ObjectRef ref, Existing existing, List<Claim> claims, ConnectorFacts connectors, int replicas,
                    List<String> ignoredV1Keys, String groupId) {

    /**
     * The facts of a KafkaConnect that exists.
     *
     * @param cluster  the live object
     * @param current  the mode its spec sets; null when the value is not one Kafka accepts
     * @param roll     whether the operator finished rolling its current generation to {@code current}
     *                 ({@link RollCheck}, rule 7)
     * @param workers  the mode its workers run: {@code current}, or a mode a worker that has not rolled still runs
     * @param spec     the spec edits apart from the exactly-once mode
     * @param identity the changes {@code spec} makes to the cluster's exactly-once identity
     * @param path     the modes to set, in order, from {@code current} to the desired mode (rules 2 and 5)
     * @param annotate true when it lacks {@value Strimzi#USE_CONNECTOR_RESOURCES_ANNOTATION}
     */
    record Existing(LiveConnectCluster cluster, EosMode current, Readiness roll, EosMode workers, SpecDiff spec,
                    List<IdentityEdit> identity, List<EosMode> path, boolean annotate) {

        /** @return how messages name it: {@code KafkaConnect ns/name} */
        String who() {
            return "KafkaConnect " + cluster.namespace() + "/" + cluster.name();
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

        /** @return true when the plan writes to the KafkaConnect */
        boolean changes() {
            return !path.isEmpty() || !spec.isEmpty() || annotate;
        }
    }

    ClusterFacts {
        flows = List.copyOf(flows);
        flowOf = Collections.unmodifiableMap(new LinkedHashMap<>(flowOf));
        claims = List.copyOf(claims);
        ignoredV1Keys = List.copyOf(ignoredV1Keys);
    }

    /**
     * Computes the facts of one cluster.
     *
     * @param scope the plan's scope (its live state has a Strimzi API)
     * @param dc    the cluster
     * @return its facts
     */
    static ClusterFacts of(PlanScope scope, DesiredConnectCluster dc) {
        List<DesiredFlow> flows = scope.desired().flowsOn(dc);
        Map<String, String> flowOf = new LinkedHashMap<>();
        for (DesiredFlow f : flows) {
            for (DesiredConnector d : f.connectors()) {
                flowOf.put(d.address(), f.address());
            }
        }
        LiveConnectCluster c = scope.live().cluster(dc.namespace(), dc.name()).orElse(null);
        ObjectRef ref = c != null ? c.ref()
                : new ObjectRef(scope.live().api().kafkaApiVersion(), KafkaConnectManifest.KIND, dc.namespace(), dc.name());
        int replicas = dc.replicas() != null ? dc.replicas()
                : c == null || c.replicas() == null ? RollCheck.STRIMZI_DEFAULT_REPLICAS : c.replicas();
        Existing existing = c == null ? null : existing(dc, c);
        // the operator restarts a task only while it reconciles the connectors, and a roll restarts every task anyway
        boolean restartable = existing != null && !existing.changes() && existing.rolled() && !c.reconciliationPaused();
        return new ClusterFacts(scope, dc, flows, flowOf, ref, existing, Claim.all(scope, dc, c, flows, flowOf),
                ConnectorFacts.of(scope, dc, flows, c, restartable), replicas, ignoredV1Keys(scope, dc, c),
                groupId(scope, dc, c));
    }

    /** @return the cluster's resource address */
    String address() {
        return desired.address();
    }

    /** @return the connectors' pending work */
    List<ConnectorWork> work() {
        return connectors.work();
    }

    /** @return true when the plan writes to the KafkaConnect or a connector (a new cluster always) */
    boolean somethingChanges() {
        return existing == null || existing.changes() || !work().isEmpty();
    }

    /** @return true when the cluster is to run exactly-once workers or carries exactly-once flows */
    boolean exactlyOnceInvolved() {
        return desired.eos() != EosMode.DISABLED || flows.stream().anyMatch(DesiredFlow::exactlyOnce);
    }

    /**
     * @return true when the plan's next step needs every worker to run the current mode already: the roll to
     *         {@code enabled} after {@code preparing}, or a connector that requires exactly-once without a mode change
     */
    boolean needsCurrentRolled() {
        boolean workNeedsEnabled = work().stream().anyMatch(ConnectorWork::requiresEos);
        return (existing.current() == EosMode.PREPARING && existing.path().equals(List.of(EosMode.ENABLED)))
                || (existing.path().isEmpty() && workNeedsEnabled);
    }

    /**
     * The Kafka version the workers run, read as {@link VersionGuard} reads it: the configuration's {@code version},
     * else the live {@code spec.version}, else the version the workers report in {@code status.connectorPlugins}.
     *
     * @return the version; empty when none is known (the operator's default) or it cannot be read
     */
    Optional<KafkaVersion> kafkaVersion() {
        if (desired.version() != null || existing == null) {
            return KafkaVersion.parse(desired.version());
        }
        LiveConnectCluster c = existing.cluster();
        return KafkaVersion.parse(c.version() != null ? c.version() : c.reportedKafkaVersion());
    }

    /** @return true when the workers' mode goes up (connectors after the rolls), false when it stays or goes down */
    boolean upgrade() {
        return existing == null || desired.eos().ordinal() > existing.current().ordinal();
    }

    private static Existing existing(DesiredConnectCluster dc, LiveConnectCluster c) {
        EosMode current = c.eosMode().orElse(null);
        Readiness roll = RollCheck.evaluate(c, c.generation(), current);
        SpecDiff spec = SpecDiff.cluster(dc, c);
        return new Existing(c, current, roll, workersMode(c, current), spec, ClusterIdentity.edits(c, spec.edits()),
                current == null ? List.of() : eosPath(current, dc.eos()), !c.usesConnectorResources());
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

    private static List<String> ignoredV1Keys(PlanScope scope, DesiredConnectCluster dc, LiveConnectCluster c) {
        List<String> ignored = new ArrayList<>(c == null ? List.of() : c.ignoredV1ConfigKeys());
        if (c == null ? scope.live().api() == StrimziApi.V1 : c.api() == StrimziApi.V1) {
            LiveConnectCluster.V1_FORBIDDEN_CONFIG_KEYS.stream()
                    .filter(k -> dc.config().containsKey(k) && !ignored.contains(k)).forEach(ignored::add);
        }
        return ignored;
    }

    /**
     * @return the group id the workers use after this plan (desired field over live; with manage = "own" an
     *         undeclared field is removed, which for v1beta2 means Strimzi's default), or a placeholder
     */
    private static String groupId(PlanScope scope, DesiredConnectCluster dc, LiveConnectCluster c) {
        boolean removes = c != null && dc.manage() == ManageMode.OWN;
        String group;
        if (scope.live().api() == StrimziApi.V1) {
            Object g = dc.spec().get("groupId");
            group = g != null ? g.toString() : c == null || removes ? null : c.groupId();
        } else {
            group = dc.config().get("group.id");
            if (group == null) {
                group = c == null || removes ? Strimzi.DEFAULT_GROUP_ID : c.groupId();
            }
        }
        return group == null ? "<spec.groupId>" : group;
    }
}
