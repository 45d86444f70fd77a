package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.KafkaConnectManifest;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.Rule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A KafkaConnect and the flows on it: its connectors are KafkaConnectors, objects of their own, each planned by
 * {@link ConnectorSteps}; its worker configuration is {@code spec.config}. Pure.
 *
 * @param flowOf        address of each of their connectors to the flow's address
 * @param live          the live KafkaConnect, or null when it does not exist
 * @param ref           the KafkaConnect: the live one, or the one to create
 * @param claims        the existing objects the plan manages (the KafkaConnect, its flows' connectors)
 * @param connectors    the connectors' work and findings
 * @param ignoredV1Keys {@code spec.config} keys Strimzi v1 ignores, live or declared
 * @param groupId       the group id the workers use after the plan, or {@code <spec.groupId>} when v1 has none
 */
record ConnectKind(DesiredConnectCluster desired, List<DesiredFlow> flows, Map<String, String> flowOf,
                   LiveConnectCluster live, ObjectRef ref, List<Claim> claims, ConnectorFacts connectors,
                   List<String> ignoredV1Keys, String groupId) implements ResourceKind {

    ConnectKind {
        flows = List.copyOf(flows);
        flowOf = Collections.unmodifiableMap(new LinkedHashMap<>(flowOf));
        claims = List.copyOf(claims);
        ignoredV1Keys = List.copyOf(ignoredV1Keys);
    }

    /** @return the kind's facts; {@code restartable}: a FAILED task of a connector the plan leaves is restarted */
    static ConnectKind of(PlanScope scope, DesiredConnectCluster dc, LiveConnectCluster c, boolean restartable) {
        List<DesiredFlow> flows = scope.desired().flowsOn(dc);
        Map<String, String> flowOf = new LinkedHashMap<>();
        for (DesiredFlow f : flows) {
            for (DesiredConnector d : f.connectors()) {
                flowOf.put(d.address(), f.address());
            }
        }
        ObjectRef ref = c != null ? c.ref()
                : new ObjectRef(scope.live().api().kafkaApiVersion(), KafkaConnectManifest.KIND, dc.namespace(), dc.name());
        return new ConnectKind(dc, flows, flowOf, c, ref, Claim.all(scope, dc, c, flows, flowOf),
                ConnectorFacts.of(scope, dc, flows, c, restartable), ignoredV1Keys(scope, dc, c), groupId(scope, dc, c));
    }

    /** @return where a KafkaConnect keeps its identity: {@code spec.config}, or {@code spec} fields in {@code v1} */
    static ClusterIdentity.Places places(LiveConnectCluster c) {
        return new ClusterIdentity.Places(c.api() == StrimziApi.V1, List.of("spec", "config"), List.of("spec"), c.config(),
                c.spec(), ClusterIdentity.CONNECT_DEFAULTS);
    }

    /** @return the connectors' pending work */
    List<ConnectorWork> work() {
        return connectors.work();
    }

    @Override
    public String blockType() {
        return "connect_cluster";
    }

    @Override
    public List<String> workerConfigPath() {
        return List.of("spec", "config");
    }

    @Override
    public Map<String, Object> manifest(PlanScope scope) {
        Map<String, String> config = new LinkedHashMap<>(desired.config());
        config.put(EosMode.CONFIG_KEY, desired.eos().value());
        return new KafkaConnectManifest(ref.apiVersion(), desired.namespace(), desired.name(), OwnershipMarks.labels(scope),
                OwnershipMarks.annotations(scope), desired.version(), desired.replicas(), desired.bootstrapServers(),
                desired.spec(), config).toMap();
    }

    @Override
    public Set<String> sensitiveKeys() {
        return new TreeSet<>(desired.config().keySet().stream().filter(desired::isSensitive).toList());
    }

    @Override
    public Change.Reason creationReason() {
        return ChangeReason.CONNECT_CLUSTER_MISSING.of(desired.namespace() + "/" + desired.name(), desired.eos().value());
    }

    @Override
    public String setModeSummary(EosMode mode, int more) {
        return EosMode.CONFIG_KEY + " = " + mode.value() + (more > 0 ? " (with " + more + " more spec change(s))" : "");
    }

    @Override
    public String updateSummary(int edits) {
        return edits + " spec change(s)";
    }

    @Override
    public String rolledSummary(EosMode mode, boolean forced) {
        return mode == null ? "wait until every worker has restarted with the new spec"
                : "wait until every worker has restarted with " + EosMode.CONFIG_KEY + "=" + mode.value();
    }

    /** Warns about {@code spec.config} keys Strimzi v1 drops, on the live KafkaConnect or in the declared cluster. */
    @Override
    public Verdict v1Layout(ClusterFacts f) {
        if (ignoredV1Keys.isEmpty()) {
            return Verdict.PASS;
        }
        String who = f.existing() != null ? f.existing().who() + " (kafka.strimzi.io/v1) has" : block() + " declares";
        String keys = String.join(", ", ignoredV1Keys);
        return Verdict.report(Rule.V1_IGNORED_CONFIG.warning("Strimzi v1 ignores " + keys + " in spec.config",
                who + " " + keys + " in spec.config. kafka.strimzi.io/v1 forbids these keys and "
                        + "silently drops them; the workers use spec.groupId, spec.configStorageTopic, spec.offsetStorageTopic "
                        + "and spec.statusStorageTopic instead (group id used for transactional IDs: " + groupId + ").",
                f.address()));
    }

    @Override
    public boolean connectorsChange() {
        return !work().isEmpty();
    }

    @Override
    public boolean connectorsInResource() {
        return false;
    }

    @Override
    public boolean connectorsNeedEnabled() {
        return work().stream().anyMatch(ConnectorWork::requiresEos);
    }

    @Override
    public boolean writesConnectors() {
        return work().stream().anyMatch(w -> w.action() != Action.DELETE);
    }

    @Override
    public String connectorWrites() {
        return "the KafkaConnector changes";
    }

    @Override
    public boolean exactlyOnceConnectors() {
        return flows.stream().anyMatch(DesiredFlow::exactlyOnce);
    }

    @Override
    public Verdict connectors(ClusterFacts f) {
        return new Verdict(connectors.findings(), false);
    }

    @Override
    public Verdict accepted(ClusterFacts f) {
        return Verdict.PASS;
    }

    @Override
    public List<TaskRestart> restarts(ClusterFacts f) {
        return connectors.restarts();
    }

    @Override
    public void connectorSteps(StepSequencer s, EosMode mode) {
        ConnectorSteps.add(s, this, mode);
    }

    @Override
    public void resourceChange(ClusterFacts f, List<AttributeChange> attrs, List<Change.Reason> reasons) {
        // a KafkaConnect's connectors are objects of their own, with changes of their own
    }

    @Override
    public List<Change> trailingChanges() {
        return List.of();
    }

    @Override
    public Map<String, Integer> taskCounts(ClusterFacts f) {
        return TransactionalIds.connectTasks(f, this);
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
