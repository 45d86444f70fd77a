package dev.flowform.plan;

import dev.flowform.diag.Diagnostics;
import dev.flowform.diag.Severity;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LivePod;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.SecretKeys;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.strimzi.KafkaConnectManifest;
import dev.flowform.model.strimzi.KafkaConnectorManifest;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.rules.ConnectorCheck;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.plan.rules.Finding;
import dev.flowform.plan.rules.RollCheck;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Plans one Connect cluster and the flows on it: the chain of steps (unnumbered), the object changes,
 * the transactional IDs and the diagnostics. See {@link Planner} for the rules; this class applies them
 * to one cluster.
 */
final class ClusterPlanner {

    /**
     * A step before the planner numbers it.
     *
     * @param kind    what kind of work
     * @param address the resource it belongs to (used by {@code --target})
     * @param object  the Kubernetes object
     * @param payload the data to execute it
     * @param summary one human line
     */
    record Draft(StepKind kind, String address, ObjectRef object, StepPayload payload, String summary) {
    }

    private static final String REQUIRED = "required";
    private static final String EXACTLY_ONCE_SUPPORT = "exactly.once.support";
    private static final String TRANSACTION_BOUNDARY = "transaction.boundary";
    private static final String SOURCE_ISOLATION = "source.consumer.isolation.level";
    private static final String CONSUMER_OVERRIDE_ISOLATION = "consumer.override.isolation.level";

    private final DesiredState desired;
    private final LiveState live;
    private final DesiredConnectCluster dc;
    /** {@code desired.flowsOn(dc)}, looked up once: it scans every flow of the configuration. */
    private final List<DesiredFlow> flowsOnCluster;
    private final String environment;
    /** The lineage of the state planning, or null when there is none (then no marks are written). */
    private final String lineage;
    private final PlanOptions options;
    private final Diagnostics diags;
    private final ObjectRef ref;

    /** Object changes of this cluster and its connectors. */
    final List<Change> changes = new ArrayList<>();
    /** The chain: each step depends on the one before. */
    final List<Draft> chain = new ArrayList<>();
    /** IDs that need ACLs once the chain has run. */
    final List<TransactionalId> transactionalIds = new ArrayList<>();
    /** Resource address of each desired connector to the address of its flow (for {@code --target}). */
    final Map<String, String> flowOf = new HashMap<>();
    /** Addresses of the objects this plan takes over with {@code --transfer-ownership}, to their previous owner. */
    final Map<String, Ownership> transfers = new LinkedHashMap<>();

    /**
     * An existing object this plan manages, with the marks it carries now.
     *
     * @param address     its resource address
     * @param ref         the object
     * @param labels      its labels now
     * @param annotations its annotations now
     * @param owner       what its marks say
     * @param transfer    true when {@code --transfer-ownership} names it
     */
    private record Claim(String address, ObjectRef ref, Map<String, String> labels, Map<String, String> annotations,
                         Ownership owner, boolean transfer) {
    }

    private final List<Claim> claims = new ArrayList<>();

    ClusterPlanner(DesiredState desired, LiveState live, DesiredConnectCluster dc, String environment, String lineage,
                   PlanOptions options, Diagnostics diags) {
        this.desired = desired;
        this.live = live;
        this.dc = dc;
        this.flowsOnCluster = desired.flowsOn(dc);
        this.environment = environment;
        this.lineage = lineage;
        this.options = options;
        this.diags = diags;
        this.ref = new ObjectRef(live.api().kafkaApiVersion(), "KafkaConnect", dc.namespace(), dc.name());
    }

    /** @return the address of the cluster this planner plans */
    String address() {
        return dc.address();
    }

    void plan() {
        List<DesiredFlow> flows = flowsOnCluster;
        for (DesiredFlow f : flows) {
            for (DesiredConnector d : f.connectors()) {
                flowOf.put(d.address(), f.address());
            }
        }
        Optional<LiveConnectCluster> found = live.cluster(dc.namespace(), dc.name());
        if (!ownershipAllows(found.orElse(null), flows)) {
            return;
        }
        if (found.isEmpty()) {
            planNewCluster(flows);
        } else {
            planExisting(found.get(), flows);
        }
        settleOwnership();
    }

    // ---------------------------------------------------------------------------------- ownership

    /**
     * The ownership rule: an existing object this cluster's plan manages (the KafkaConnect, the KafkaConnectors of
     * its flows) whose marks name another environment or another state lineage is refused, unless
     * {@code --transfer-ownership} names it. Every such object is reported, so one plan lists all the addresses
     * to hand over. Objects without marks (never managed by flowform) are adoptable.
     *
     * @return false when an object was refused (nothing of this cluster is planned)
     */
    private boolean ownershipAllows(LiveConnectCluster c, List<DesiredFlow> flows) {
        boolean allowed = true;
        if (c != null) {
            allowed = claim(dc.address(), c.ref(), c.labels(), c.annotations());
        }
        for (DesiredFlow f : flows) {
            for (DesiredConnector d : f.connectors()) {
                Optional<LiveConnector> l = live.connector(d.namespace(), d.name());
                if (l.isPresent()) {
                    allowed &= claim(d.address(), l.get().ref(), l.get().labels(), l.get().annotations());
                }
            }
        }
        return allowed;
    }

    /** Checks one object's marks and remembers it for {@link #settleOwnership()}; false when refused. */
    private boolean claim(String address, ObjectRef object, Map<String, String> labels, Map<String, String> annotations) {
        Ownership owner = Ownership.of(labels, annotations);
        boolean transfer = options.transferOwnership().stream().anyMatch(t -> Planner.matches(t, address, flowOf));
        if (owner.foreign(environment, lineage) && !transfer) {
            Ownership ours = new Ownership(environment, lineage);
            diags.add(Rule.OWNERSHIP.error("Object is managed by another flowform state",
                    object.kind() + " " + object.namespace() + "/" + object.name() + " carries the ownership marks of "
                            + owner.describe() + ", but this plan is for " + ours.describe() + ". flowform does not take "
                            + "over objects another state manages: two states applying to one object undo each other's "
                            + "changes, and either may delete what the other created. Point this environment at its own "
                            + "objects, or, if they were handed over to it (or its state was lost and created again), plan "
                            + "again with --transfer-ownership " + address + ": the apply then rewrites the marks and "
                            + "records the transfer in the run history.", address));
            return false;
        }
        boolean rewrite = lineage == null ? owner.foreign(environment, null)
                : !Ownership.edits(labels, annotations, environment, lineage, "KafkaConnector".equals(object.kind())).isEmpty();
        claims.add(new Claim(address, object, labels, annotations, owner, transfer && rewrite));
        if (transfer && rewrite) {
            transfers.put(address, owner);
        }
        return true;
    }

    /**
     * Writes our marks: a {@link StepKind#TRANSFER_OWNERSHIP} step first in the chain for every object taken over,
     * and, for every other object this plan writes to anyway, the mark edits added to its first patch (so the
     * marks never cost a step or a roll of their own). An object the plan does not write to keeps the marks it has.
     */
    private void settleOwnership() {
        if (lineage == null) {
            return;
        }
        List<Draft> first = new ArrayList<>();
        for (Claim cl : claims) {
            boolean connector = "KafkaConnector".equals(cl.ref().kind());
            List<FieldEdit> edits = Ownership.edits(cl.labels(), cl.annotations(), environment, lineage, connector);
            if (edits.isEmpty()) {
                continue;
            }
            List<AttributeChange> attrs = Ownership.attributes(edits, cl.labels(), cl.annotations());
            if (cl.transfer()) {
                String from = cl.owner().unmarked() ? "claim it for this state (it carried no ownership marks)"
                        : "take over from " + cl.owner().describe();
                first.add(new Draft(StepKind.TRANSFER_OWNERSHIP, cl.address(), cl.ref(), new StepPayload.PatchObject(edits),
                        from));
                mergeChange(cl.address(), cl.ref(), attrs, cl.owner().unmarked() ? ChangeReason.OWNERSHIP_CLAIMED.of()
                        : ChangeReason.OWNERSHIP_TAKEN_OVER.of(cl.owner().describe()));
                continue;
            }
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
                    chain.set(i, new Draft(d.kind(), d.address(), d.object(), marked, d.summary()));
                    mergeChange(cl.address(), cl.ref(), attrs, null);
                    break;
                }
            }
        }
        chain.addAll(0, first);
    }

    private static List<FieldEdit> concat(List<FieldEdit> a, List<FieldEdit> b) {
        List<FieldEdit> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** Adds {@code attrs} to the change of {@code address} (a new update when there is none), and {@code reason} to its reason. */
    private void mergeChange(String address, ObjectRef object, List<AttributeChange> attrs, Change.Reason reason) {
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

    // ---------------------------------------------------------------------------------- new cluster

    private void planNewCluster(List<DesiredFlow> flows) {
        if (dc.manage() == ManageMode.ADOPT) {
            diags.add(Rule.CONFIGURATION.diagnostic(Severity.ERROR, "Adopted Connect cluster not found",
                    "connect_cluster \"" + dc.name() + "\" has manage = \"adopt\", but KafkaConnect " + dc.namespace() + "/"
                            + dc.name() + " does not exist. Check the name and namespace, or use manage = \"own\" to "
                            + "let flowform create it.", dc.range(), dc.address()));
            return;
        }
        if (!versionAllows(dc.version(), "connect_cluster \"" + dc.name() + "\" declares version", "", flows)) {
            return;
        }
        if (live.api() == StrimziApi.V1) {
            warnIgnoredV1Keys(LiveConnectCluster.V1_FORBIDDEN_CONFIG_KEYS.stream().filter(dc.config()::containsKey).toList(),
                    "connect_cluster \"" + dc.name() + "\" declares");
        }
        int replicas = dc.replicas() == null ? RollCheck.STRIMZI_DEFAULT_REPLICAS : dc.replicas();
        List<ConnectorWork> work = connectorWork(flows, null);
        Map<String, Object> manifest = connectManifest();
        List<AttributeChange> attrs = new ArrayList<>();
        Planner.flatten("", manifest, attrs, dc::isSensitive);
        changes.add(new Change(dc.address(), ref, Action.CREATE, attrs,
                ChangeReason.CONNECT_CLUSTER_MISSING.of(dc.namespace() + "/" + dc.name(), dc.eos().value())));
        add(StepKind.CREATE_CONNECT_CLUSTER, dc.address(), ref,
                new StepPayload.CreateObject(manifest, sensitiveConfigKeys(dc.config().keySet())),
                "create KafkaConnect " + dc.name() + " with " + EosMode.CONFIG_KEY + "=" + dc.eos().value());
        add(StepKind.WAIT_FOR_ROLL, dc.address(), ref, new StepPayload.WaitForRoll(dc.eos(), null),
                "wait until every worker is up with " + EosMode.CONFIG_KEY + "=" + dc.eos().value());
        warnReplicasZero(replicas, work);
        emitConnectorSteps(work, replicas);
        transactionalIds(null, work);
    }

    // ---------------------------------------------------------------------------------- existing cluster

    private void planExisting(LiveConnectCluster c, List<DesiredFlow> flows) {
        String who = "KafkaConnect " + c.namespace() + "/" + c.name();
        Optional<EosMode> parsed = c.eosMode();
        if (parsed.isEmpty()) {
            refuse(Rule.UNKNOWN_EOS_MODE, "Unknown exactly.once.source.support value",
                    who + " sets exactly.once.source.support to \"" + c.eosValue() + "\"; Kafka accepts disabled, preparing "
                            + "or enabled. Fix it by hand first.");
            return;
        }
        EosMode current = parsed.get();
        boolean paused = c.reconciliationPaused();
        Readiness roll = RollCheck.evaluate(c, c.generation(), current);
        boolean failed = roll instanceof Readiness.Failed;
        boolean rolled = roll.isComplete();
        List<String> ignored = new ArrayList<>(c.ignoredV1ConfigKeys());
        if (c.api() == StrimziApi.V1) {
            LiveConnectCluster.V1_FORBIDDEN_CONFIG_KEYS.stream()
                    .filter(k -> dc.config().containsKey(k) && !ignored.contains(k)).forEach(ignored::add);
        }
        warnIgnoredV1Keys(ignored, who + " (kafka.strimzi.io/v1) has");
        warnIncompleteSpec(c, who);
        if (!versionAllows(c, who, flows)) {
            return;
        }
        warnSkippedPreparing(c, current, rolled);
        int replicas = dc.replicas() != null ? dc.replicas()
                : c.replicas() == null ? RollCheck.STRIMZI_DEFAULT_REPLICAS : c.replicas();
        List<FieldEdit> clusterEdits = new ArrayList<>();
        List<AttributeChange> clusterAttrs = new ArrayList<>();
        clusterEdits(c, clusterEdits, clusterAttrs);
        List<IdentityEdit> identity = identityEdits(c, clusterEdits);
        EosMode workers = workersEosMode(c, current);
        boolean newIdentity = !identity.isEmpty() && workers != EosMode.DISABLED;
        if (newIdentity && !options.acceptNewClusterIdentity()) {
            refuse(Rule.CLUSTER_IDENTITY, "Changing the identity of an exactly-once Connect cluster",
                    who + " runs " + EosMode.CONFIG_KEY + "=" + workers.value() + ", and this plan changes "
                            + describe(identity) + ". " + identityConsequences(c, identity) + "Keep the current values"
                            + (dc.manage() == ManageMode.OWN ? " in the configuration (manage = \"own\" removes what it "
                                    + "does not declare, so declare them)" : " in the configuration")
                            + ", or, to give the cluster a new identity deliberately, plan again with "
                            + "--accept-new-cluster-identity.");
            return;
        }
        boolean annotate = !c.usesConnectorResources();
        List<EosMode> path = Planner.eosPath(current, dc.eos());
        List<ConnectorWork> work = connectorWork(flows, c);
        if (!unmanagedConnectorsAllow(c)) {
            return;
        }
        boolean clusterChange = !path.isEmpty() || !clusterEdits.isEmpty() || annotate;
        if (paused) {
            String detail = who + " has strimzi.io/pause-reconciliation: the operator does not roll the workers or act on "
                    + "its connectors while it is set.";
            if (clusterChange || !work.isEmpty()) {
                refuse(Rule.RECONCILIATION_PAUSED, "Reconciliation is paused", detail + " Remove the annotation (kubectl "
                        + "annotate kafkaconnect " + c.name() + " strimzi.io/pause-reconciliation-), then plan again.");
            } else {
                diags.add(Rule.RECONCILIATION_PAUSED.warning("Reconciliation is paused", detail
                        + " The configuration asks for nothing that changes it.", dc.address()));
            }
            return;
        }
        if (!clusterChange && work.isEmpty()) {
            if (failed) {
                diags.add(Rule.FAILED_RECONCILE.warning("The last reconcile of the Connect cluster failed",
                        who + ": " + roll.detail() + ". The configuration asks for nothing that changes it, so this plan "
                                + "does not touch it; the operator retries every 120 s.", dc.address()));
            }
            return;
        }
        if (annotate && !options.enableConnectorResources()) {
            refuse(Rule.CONNECTOR_RESOURCES, "Adding strimzi.io/use-connector-resources deletes connectors",
                    who + " lacks annotation " + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + "=\"true\", which "
                            + "flowform needs to manage connectors through KafkaConnector resources. Once it is added, the "
                            + "Strimzi operator deletes every connector running in this Connect cluster that has no "
                            + "KafkaConnector resource" + knownConnectors(c) + ". Create KafkaConnectors for connectors "
                            + "you want to keep, then plan again with --enable-connector-resources to accept this.");
            return;
        }
        if (failed && !options.acceptFailedReconcile()) {
            refuse(Rule.FAILED_RECONCILE, "The last reconcile of the Connect cluster failed",
                    who + ": " + roll.detail() + ". flowform does not pile a new change on top of a failed one: fix the "
                            + "cause and let the operator reconcile (it retries every 120 s), then plan again. If this plan's "
                            + "change is the fix, plan again with --accept-failed-reconcile.");
            return;
        }
        boolean workNeedsEnabled = work.stream().anyMatch(ConnectorWork::requiresEos);
        boolean needsCurrentRolled = (current == EosMode.PREPARING && path.equals(List.of(EosMode.ENABLED)))
                || (path.isEmpty() && workNeedsEnabled);
        if (failed && needsCurrentRolled && clusterEdits.isEmpty()) {
            refuse(Rule.FAILED_RECONCILE, "The last reconcile of the Connect cluster failed",
                    who + ": " + roll.detail() + ". The next step needs every worker to run " + EosMode.CONFIG_KEY + "="
                            + current.value() + ", which the failed roll did not finish, and this plan changes nothing that "
                            + "would make the operator roll again. Fix the cause and wait for the operator's periodic "
                            + "reconcile (every 120 s), then plan again.");
            return;
        }
        if (failed) {
            diags.add(Rule.FAILED_RECONCILE.warning("Planning on top of a failed reconcile",
                    who + ": " + roll.detail() + ". --accept-failed-reconcile was given: the plan changes the KafkaConnect "
                            + "and waits for a complete roll before any step that needs the workers' mode.", dc.address()));
        }
        warnReplicasZero(replicas, work);
        if (clusterChange) {
            List<AttributeChange> attrs = new ArrayList<>();
            if (annotate) {
                attrs.add(new AttributeChange("metadata.annotations.\"" + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION
                        + "\"", null, "\"true\"", false));
            }
            if (!path.isEmpty()) {
                attrs.add(new AttributeChange("spec.config.\"" + EosMode.CONFIG_KEY + "\"",
                        c.eosValue() == null ? null : Planner.quote(c.eosValue()), Planner.quote(dc.eos().value()), false));
            }
            attrs.addAll(clusterAttrs);
            List<Change.Reason> reasons = new ArrayList<>(List.of(clusterReason(current, path, annotate)));
            if (newIdentity) {
                reasons.add(ChangeReason.NEW_CLUSTER_IDENTITY.of(identityReason(identity)));
            }
            changes.add(new Change(dc.address(), c.ref(), Action.UPDATE, attrs, reasons));
        }
        if (newIdentity) {
            diags.add(Rule.CLUSTER_IDENTITY.warning("The Connect cluster gets a new exactly-once identity",
                    who + " runs " + EosMode.CONFIG_KEY + "=" + workers.value() + ", and this plan changes "
                            + describe(identity) + " (--accept-new-cluster-identity). " + identityConsequences(c, identity)
                            + "Grant the principals Write and Describe on the new transactional IDs before applying.",
                    dc.address()));
        }
        ObjectRef liveRef = c.ref();
        if (!rolled && !failed) {
            add(StepKind.WAIT_FOR_ROLL, dc.address(), liveRef, new StepPayload.WaitForRoll(current, c.generation()),
                    "wait for the roll already in progress (generation " + c.generation() + ", " + roll.detail() + ")");
        }
        if (annotate) {
            diags.add(Rule.CONNECTOR_RESOURCES.warning("Enabling KafkaConnector resources on an existing cluster",
                    who + " lacks annotation " + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + "=\"true\". Once "
                            + "flowform adds it (--enable-connector-resources), the Strimzi operator deletes every connector "
                            + "running in this Connect cluster that has no KafkaConnector resource" + knownConnectors(c) + ".",
                    dc.address()));
            add(StepKind.ANNOTATE, dc.address(), liveRef,
                    new StepPayload.PatchObject(List.of(FieldEdit.set(List.of("metadata", "annotations",
                            Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION), "true", false))),
                    Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + " = \"true\"");
        }
        List<FieldEdit> pending = clusterEdits;
        if (failed && !clusterEdits.isEmpty() && (needsCurrentRolled || path.isEmpty())) {
            add(StepKind.UPDATE_CONNECT_CLUSTER, dc.address(), liveRef, new StepPayload.PatchObject(clusterEdits),
                    clusterEdits.size() + " spec change(s), so the operator reconciles again after the failed reconcile");
            add(StepKind.WAIT_FOR_ROLL, dc.address(), liveRef, new StepPayload.WaitForRoll(current, null),
                    "wait until every worker has restarted with " + EosMode.CONFIG_KEY + "=" + current.value());
            pending = List.of();
        }
        boolean upgrade = dc.eos().ordinal() > current.ordinal();
        if (!upgrade) {
            emitConnectorSteps(work, replicas);
        }
        if (!path.isEmpty()) {
            for (int i = 0; i < path.size(); i++) {
                EosMode mode = path.get(i);
                List<FieldEdit> edits = new ArrayList<>();
                edits.add(FieldEdit.set(List.of("spec", "config", EosMode.CONFIG_KEY), mode.value(), false));
                if (i == 0) {
                    edits.addAll(pending);
                }
                add(StepKind.SET_WORKER_EOS, dc.address(), liveRef, new StepPayload.SetWorkerEos(mode, edits),
                        EosMode.CONFIG_KEY + " = " + mode.value()
                                + (i == 0 && !pending.isEmpty() ? " (with " + pending.size() + " more spec change(s))" : ""));
                add(StepKind.WAIT_FOR_ROLL, dc.address(), liveRef, new StepPayload.WaitForRoll(mode, null),
                        "wait until every worker has restarted with " + EosMode.CONFIG_KEY + "=" + mode.value());
            }
        } else if (!pending.isEmpty()) {
            add(StepKind.UPDATE_CONNECT_CLUSTER, dc.address(), liveRef, new StepPayload.PatchObject(pending),
                    pending.size() + " spec change(s)");
            add(StepKind.WAIT_FOR_ROLL, dc.address(), liveRef, new StepPayload.WaitForRoll(current, null),
                    "wait until every worker has restarted with the new spec");
        }
        if (upgrade) {
            emitConnectorSteps(work, replicas);
        }
        transactionalIds(c, work);
    }

    // ---------------------------------------------------------------------------------- preflight

    /**
     * The Kafka version preflight of an existing cluster: the version the configuration declares, else
     * {@code spec.version}, else (when the spec does not set it, so the operator runs its default Kafka version)
     * the version the workers report in {@code status.connectorPlugins}. A spec without a version and a status
     * without one is the operator's default, which is not checked; a KafkaConnect without any spec has an
     * unknown version.
     *
     * @return false when an error was added (the cluster is refused)
     */
    private boolean versionAllows(LiveConnectCluster c, String who, List<DesiredFlow> flows) {
        if (dc.version() != null) {
            return versionAllows(dc.version(), "connect_cluster \"" + dc.name() + "\" declares version", "", flows);
        }
        if (c.spec().get("version") != null) {
            return versionAllows(c.version(), who + " has spec.version", "", flows);
        }
        if (c.spec().isEmpty()) {
            return unknownVersionAllows(who + " has no spec, so the Kafka version its workers run is unknown", flows);
        }
        String reported = c.reportedKafkaVersion();
        if (reported != null && KafkaVersion.parse(reported).isPresent()) {
            return versionAllows(reported, who + "'s workers report version", " (spec.version is not set: the operator's "
                    + "default Kafka version, as status.connectorPlugins reports it)", flows);
        }
        return true;
    }

    /**
     * Kafka version checks (rules kafka-version-*): below 3.3 no worker EOS at all, below 3.5 no MM2 EOS,
     * below 3.6 a warning for KAFKA-15059. Without a version nothing is checked (Strimzi then runs its
     * default Kafka version). A version that cannot be read is {@link #unknownVersionAllows unknown}.
     *
     * @param versionText the version, or null when not set
     * @param from        where it comes from, e.g. {@code KafkaConnect ns/name has spec.version}
     * @param note        appended to the version in messages (empty, or where a reported version comes from)
     * @return false when an error was added (the cluster is refused)
     */
    private boolean versionAllows(String versionText, String from, String note, List<DesiredFlow> flows) {
        Optional<KafkaVersion> parsed = KafkaVersion.parse(versionText);
        if (versionText != null && parsed.isEmpty()) {
            return unknownVersionAllows(from + " \"" + versionText + "\", which is not a Kafka version flowform can read "
                    + "(it expects <major>.<minor>.<patch>, e.g. 3.9.0)", flows);
        }
        if (!exactlyOnceInvolved(flows) || parsed.isEmpty()) {
            return true;
        }
        boolean eosFlows = flows.stream().anyMatch(DesiredFlow::exactlyOnce);
        KafkaVersion v = parsed.get();
        String cluster = "connect_cluster \"" + dc.name() + "\" runs Kafka " + v.text()
                + (v.text().equals(v.kafka()) ? "" : " (Kafka " + v.kafka() + ")") + note;
        if (v.isBefore(3, 3)) {
            diags.add(Rule.KAFKA_VERSION_WORKER.diagnostic(Severity.ERROR, "Kafka version has no exactly-once source support",
                    cluster + ", which has no exactly.once.source.support worker setting (KIP-618 arrived in Kafka 3.3.0). "
                            + "Upgrade the Connect cluster's spec.version first.", dc.range(), dc.address()));
            return false;
        }
        if (eosFlows && v.isBefore(3, 5)) {
            diags.add(Rule.KAFKA_VERSION_MM2.diagnostic(Severity.ERROR, "MirrorMaker 2 has no exactly-once support before Kafka 3.5",
                    cluster + "; MirrorSourceConnector implements KIP-618's exactlyOnceSupport only from Kafka 3.5.0, so "
                            + "exactly.once.support=required is rejected. Upgrade spec.version to 3.6 or newer, or set the flows' "
                            + "exactly_once to false.", dc.range(), dc.address()));
            return false;
        }
        if (eosFlows && v.isBefore(3, 6)) {
            diags.add(Rule.KAFKA_VERSION_FENCING.diagnostic(Severity.WARNING, "Exactly-once MirrorMaker 2 before Kafka 3.6",
                    cluster + ". Before Kafka 3.6.0 zombie fencing can fail while a rebalance is pending (KAFKA-15059), "
                            + "which MirrorMaker 2 triggers by writing its connector configs in quick succession: exactly-once "
                            + "tasks may fail to start. Upgrade to 3.6 or newer.", dc.range(), dc.address()));
        }
        return true;
    }

    /** @return true when the cluster is to run exactly-once workers or carries exactly-once flows */
    private boolean exactlyOnceInvolved(List<DesiredFlow> flows) {
        return dc.eos() != EosMode.DISABLED || flows.stream().anyMatch(DesiredFlow::exactlyOnce);
    }

    /**
     * The Kafka version cannot be read (rule kafka-version-unknown): exactly-once needs
     * {@link PlanOptions#acceptUnknownKafkaVersion()}; without exactly-once it is a warning.
     *
     * @param why what could not be read, a sentence without its full stop
     * @return false when an error was added (the cluster is refused)
     */
    private boolean unknownVersionAllows(String why, List<DesiredFlow> flows) {
        String minimums = "Below Kafka 3.3.0 the workers ignore exactly.once.source.support and nothing runs exactly-once; "
                + "below 3.5.0 Kafka rejects exactly.once.support=required on MirrorSourceConnector; below 3.6.0 zombie "
                + "fencing can fail while a rebalance is pending (KAFKA-15059) and exactly-once tasks may fail to start.";
        if (!exactlyOnceInvolved(flows)) {
            diags.add(Rule.KAFKA_VERSION_UNKNOWN.diagnostic(Severity.WARNING, "Kafka version unknown",
                    why + ". This plan does not turn exactly-once on, so nothing in it depends on the version; the "
                            + "KIP-618 minimums are checked once it does.", dc.range(), dc.address()));
            return true;
        }
        if (!options.acceptUnknownKafkaVersion()) {
            diags.add(Rule.KAFKA_VERSION_UNKNOWN.diagnostic(Severity.ERROR, "Exactly-once on an unknown Kafka version",
                    why + ", so flowform cannot check the KIP-618 minimums. " + minimums + " Set the connect_cluster's "
                            + "version to the Kafka version the workers run or, if you know it is 3.6 or newer, plan "
                            + "again with --accept-unknown-kafka-version.", dc.range(), dc.address()));
            return false;
        }
        diags.add(Rule.KAFKA_VERSION_UNKNOWN.diagnostic(Severity.WARNING, "Exactly-once on an unknown Kafka version",
                why + ". --accept-unknown-kafka-version was given: the KIP-618 minimums are not checked. " + minimums,
                dc.range(), dc.address()));
        return true;
    }

    /**
     * Says what could not be checked on a live KafkaConnect that lacks its spec, {@code spec.replicas} or
     * {@code spec.bootstrapServers} (rule live-connect-spec), unless the configuration sets it.
     */
    private void warnIncompleteSpec(LiveConnectCluster c, String who) {
        if (c.spec().isEmpty()) {
            diags.add(Rule.LIVE_SPEC.warning("KafkaConnect has no spec",
                    who + " has no spec. flowform could not check the workers' " + EosMode.CONFIG_KEY + " (read as Kafka's "
                            + "default, disabled), the group id ("
                            + (c.api() == StrimziApi.V1 ? "unknown" : "read as Strimzi's default, " + Strimzi.DEFAULT_GROUP_ID)
                            + "), the number of workers (read as Strimzi's default, " + RollCheck.STRIMZI_DEFAULT_REPLICAS
                            + "), the Kafka cluster they use or their Kafka version. The Strimzi operator cannot reconcile a "
                            + "KafkaConnect without spec.bootstrapServers.", dc.address()));
            return;
        }
        List<String> missing = new ArrayList<>();
        if (c.replicas() == null && dc.replicas() == null) {
            missing.add("spec.replicas is not set: flowform counts Strimzi's default of " + RollCheck.STRIMZI_DEFAULT_REPLICAS
                    + " workers when it checks rolls and whether the connectors can run");
        }
        if (c.spec().get("bootstrapServers") == null && dc.bootstrapServers() == null) {
            missing.add("spec.bootstrapServers is not set: flowform could not check which Kafka cluster the workers use "
                    + "(where the transactional IDs need their ACLs), and the Strimzi operator cannot reconcile a "
                    + "KafkaConnect without it");
        }
        if (!missing.isEmpty()) {
            diags.add(Rule.LIVE_SPEC.warning("KafkaConnect spec is incomplete", who + ": " + String.join("; ", missing) + ".",
                    dc.address()));
        }
    }

    private void warnIgnoredV1Keys(List<String> keys, String who) {
        if (keys.isEmpty()) {
            return;
        }
        diags.add(Rule.V1_IGNORED_CONFIG.warning("Strimzi v1 ignores " + String.join(", ", keys) + " in spec.config",
                who + " " + String.join(", ", keys) + " in spec.config. kafka.strimzi.io/v1 forbids these keys and "
                        + "silently drops them; the workers use spec.groupId, spec.configStorageTopic, spec.offsetStorageTopic "
                        + "and spec.statusStorageTopic instead (group id used for transactional IDs: "
                        + groupIdOrUnknown(live.cluster(dc.namespace(), dc.name()).orElse(null)) + ").", dc.address()));
    }

    private void warnReplicasZero(int replicas, List<ConnectorWork> work) {
        if (replicas != 0 || work.stream().allMatch(w -> w.action() == Action.DELETE)) {
            return;
        }
        diags.add(Rule.REPLICAS_ZERO.warning("Connect cluster has 0 replicas",
                "connect_cluster \"" + dc.name() + "\" runs no worker, so its connectors cannot start: flowform writes the "
                        + "KafkaConnector changes but cannot wait for them to run. They start, and are validated, when the "
                        + "cluster is scaled up.", dc.address()));
    }

    /** Warns when the spec says enabled, the roll is not done, and a worker is known to still run disabled. */
    private void warnSkippedPreparing(LiveConnectCluster c, EosMode current, boolean rolled) {
        if (current != EosMode.ENABLED || rolled) {
            return;
        }
        for (LivePod p : c.pods()) {
            if (p.connectConfiguration() != null && RollCheck.mentionsMode(p.connectConfiguration(), EosMode.DISABLED)) {
                diags.add(Rule.PREPARING_SKIPPED.warning("The preparing roll was skipped",
                        "KafkaConnect " + c.namespace() + "/" + c.name() + " was set to exactly.once.source.support=enabled "
                                + "while worker " + p.name() + " still runs disabled: its workers go from disabled to enabled in "
                                + "one roll, without the transactional leader that preparing guarantees. flowform waits for this "
                                + "roll to finish; check the exactly-once tasks after it.", dc.address()));
                return;
            }
        }
    }

    /**
     * Connectors on the cluster that no flow of the configuration produces keep running; when they
     * require exactly-once support and the workers are going below enabled, they would break (rule 5).
     *
     * @return false when the cluster is refused
     */
    private boolean unmanagedConnectorsAllow(LiveConnectCluster c) {
        if (dc.eos() == EosMode.ENABLED) {
            return true;
        }
        Set<String> wanted = new HashSet<>();
        flowsOnCluster.forEach(f -> f.connectors().forEach(d -> wanted.add(d.name())));
        List<String> blocking = new ArrayList<>();
        for (LiveConnector l : live.connectorsOf(c.namespace(), c.name())) {
            if (!wanted.contains(l.name()) && !deletable(l) && REQUIRED.equalsIgnoreCase(l.config().get(EXACTLY_ONCE_SUPPORT))) {
                blocking.add(l.name());
            }
        }
        if (blocking.isEmpty()) {
            return true;
        }
        refuse(Rule.REVERSE_DISABLE, "Connectors outside the configuration require exactly-once support",
                "KafkaConnector " + String.join(", ", blocking) + " on KafkaConnect " + c.namespace() + "/" + c.name()
                        + " set exactly.once.support=required, and no flow of this configuration manages them. Setting the "
                        + "workers to " + EosMode.CONFIG_KEY + "=" + dc.eos().value() + " would break them. Set them back "
                        + "to requested (or declare their flows here), then plan again.");
        return false;
    }

    private String knownConnectors(LiveConnectCluster c) {
        List<String> names = live.connectorsOf(c.namespace(), c.name()).stream().map(LiveConnector::name).sorted().toList();
        return names.isEmpty() ? " (no KafkaConnector exists for it yet)"
                : " (KafkaConnectors that exist and stay: " + String.join(", ", names) + ")";
    }

    // ---------------------------------------------------------------------------------- cluster spec

    private Change.Reason clusterReason(EosMode current, List<EosMode> path, boolean annotate) {
        if (path.size() == 2) {
            return ChangeReason.EOS_ROLLOUT.of(path.get(0).value(), path.get(1).value());
        }
        if (path.size() == 1) {
            return (path.get(0).ordinal() < current.ordinal() ? ChangeReason.EOS_MODE_DOWN : ChangeReason.EOS_MODE_UP)
                    .of(current.value(), path.get(0).value());
        }
        return annotate ? ChangeReason.CONNECTOR_RESOURCES.of() : ChangeReason.SPEC_CHANGED.of();
    }

    /** The non-EOS spec edits the desired cluster asks for. */
    private void clusterEdits(LiveConnectCluster c, List<FieldEdit> edits, List<AttributeChange> attrs) {
        for (Map.Entry<String, String> e : dc.config().entrySet()) {
            if (e.getKey().equals(EosMode.CONFIG_KEY)) {
                continue;
            }
            String lv = c.config().get(e.getKey());
            if (!e.getValue().equals(lv)) {
                boolean s = dc.isSensitive(e.getKey());
                edits.add(FieldEdit.set(List.of("spec", "config", e.getKey()), e.getValue(), s));
                attrs.add(new AttributeChange("spec.config." + Planner.quote(e.getKey()), lv == null ? null : Planner.quote(lv),
                        Planner.quote(e.getValue()), s));
            }
        }
        specField(c, "replicas", dc.replicas(), edits, attrs);
        specField(c, "version", dc.version(), edits, attrs);
        specField(c, "bootstrapServers", dc.bootstrapServers(), edits, attrs);
        for (Map.Entry<String, Object> e : dc.spec().entrySet()) {
            specField(c, e.getKey(), e.getValue(), edits, attrs);
        }
        if (dc.manage() == ManageMode.OWN) {
            for (Map.Entry<String, String> e : c.config().entrySet()) {
                if (!e.getKey().equals(EosMode.CONFIG_KEY) && !dc.config().containsKey(e.getKey())) {
                    boolean s = dc.isSensitive(e.getKey());
                    edits.add(FieldEdit.remove(List.of("spec", "config", e.getKey()), s));
                    attrs.add(new AttributeChange("spec.config." + Planner.quote(e.getKey()), Planner.quote(e.getValue()), null, s));
                }
            }
            Set<String> declared = new HashSet<>(dc.spec().keySet());
            declared.addAll(List.of("replicas", "version", "bootstrapServers", "config"));
            for (Map.Entry<String, Object> e : c.spec().entrySet()) {
                if (!declared.contains(e.getKey())) {
                    edits.add(FieldEdit.remove(List.of("spec", e.getKey()), false));
                    attrs.add(new AttributeChange("spec." + e.getKey(), Json.render(e.getValue()), null, false));
                }
            }
        }
    }

    private static void specField(LiveConnectCluster c, String field, Object want, List<FieldEdit> edits,
                                  List<AttributeChange> attrs) {
        if (want == null) {
            return;
        }
        Object have = c.spec().get(field);
        if (!Json.sameValue(want, have)) {
            edits.add(FieldEdit.set(List.of("spec", field), want, false));
            attrs.add(new AttributeChange("spec." + field, have == null ? null : Json.render(have), Json.render(want), false));
        }
    }

    private Map<String, Object> connectManifest() {
        Map<String, String> config = new LinkedHashMap<>(dc.config());
        config.put(EosMode.CONFIG_KEY, dc.eos().value());
        return new KafkaConnectManifest(ref.apiVersion(), dc.namespace(), dc.name(), labels(), marks(), dc.version(),
                dc.replicas(), dc.bootstrapServers(), dc.spec(), config).toMap();
    }

    /** @return the labels of a new object: managed by flowform, in this environment */
    private Map<String, String> labels() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Strimzi.MANAGED_BY_LABEL, LiveConnector.MANAGED_BY_VALUE);
        labels.put(Planner.ENVIRONMENT_LABEL, environment);
        return labels;
    }

    /** @return our ownership annotations for a new object; empty without a lineage */
    private Map<String, String> marks() {
        Map<String, String> m = new LinkedHashMap<>();
        if (lineage != null) {
            m.put(Ownership.ENVIRONMENT_ANNOTATION, environment);
            m.put(Ownership.LINEAGE_ANNOTATION, lineage);
        }
        return m;
    }

    private Set<String> sensitiveConfigKeys(Set<String> keys) {
        Set<String> s = new HashSet<>();
        for (String k : keys) {
            if (dc.isSensitive(k)) {
                s.add(k);
            }
        }
        return s;
    }

    // ---------------------------------------------------------------------------------- connectors

    /** What has to happen to the connectors of the flows on this cluster ({@code c} null for a new cluster). */
    private List<ConnectorWork> connectorWork(List<DesiredFlow> flows, LiveConnectCluster c) {
        List<ConnectorWork> work = new ArrayList<>();
        Set<String> wanted = new HashSet<>();
        for (DesiredFlow flow : flows) {
            for (DesiredConnector d : flow.connectors()) {
                wanted.add(d.name());
                if (!desiredConnectorAllowed(flow, d)) {
                    continue;
                }
                Optional<LiveConnector> lc = live.connector(d.namespace(), d.name());
                if (lc.isEmpty()) {
                    if (d.manage() == ManageMode.ADOPT) {
                        diags.add(Rule.CONFIGURATION.diagnostic(Severity.ERROR, "Adopted connector not found",
                                flow.address() + " has manage = \"adopt\", but KafkaConnector " + d.namespace() + "/"
                                        + d.name() + " does not exist. Check the flow name, or use manage = \"own\" "
                                        + "to let flowform create it.", flow.range(), d.address()));
                        continue;
                    }
                    Map<String, Object> manifest = connectorManifest(d);
                    work.add(new ConnectorWork(Action.CREATE, d.address(),
                            new ObjectRef((String) manifest.get("apiVersion"), "KafkaConnector", d.namespace(), d.name()),
                            d, manifest, List.of(), List.of(), runtimeState(d.state() == null ? "running" : d.state()),
                            REQUIRED.equalsIgnoreCase(d.config().get(EXACTLY_ONCE_SUPPORT))));
                    continue;
                }
                LiveConnector l = lc.get();
                if (!dc.name().equals(l.connectCluster())) {
                    diags.add(Rule.CONFIGURATION.diagnostic(Severity.ERROR, "Connector belongs to another Connect cluster",
                            "KafkaConnector " + d.namespace() + "/" + d.name() + " is labelled strimzi.io/cluster="
                                    + l.connectCluster() + ", but " + flow.address() + " runs on \"" + dc.name()
                                    + "\". Moving a connector between clusters is not supported; rename the flow.",
                            flow.range(), d.address()));
                    continue;
                }
                List<FieldEdit> edits = new ArrayList<>();
                List<AttributeChange> attrs = new ArrayList<>();
                connectorEdits(d, l, edits, attrs);
                warnIfFailed(d.address(), l, !edits.isEmpty());
                if (!edits.isEmpty()) {
                    Map<String, String> after = new TreeMap<>(l.config());
                    for (FieldEdit e : edits) {
                        if (e.path().size() == 3 && e.path().get(1).equals("config")) {
                            if (e.remove()) {
                                after.remove(e.key());
                            } else {
                                after.put(e.key(), String.valueOf(e.value()));
                            }
                        }
                    }
                    String state = d.state() != null ? d.state() : l.state() != null ? l.state() : "running";
                    work.add(new ConnectorWork(Action.UPDATE, d.address(), l.ref(), d, null, edits, attrs,
                            runtimeState(state), REQUIRED.equalsIgnoreCase(after.get(EXACTLY_ONCE_SUPPORT))));
                }
            }
        }
        if (c != null) {
            for (LiveConnector l : live.connectorsOf(c.namespace(), c.name())) {
                if (!wanted.contains(l.name()) && deletable(l)) {
                    work.add(new ConnectorWork(Action.DELETE, "kafka_connector." + l.name(), l.ref(), null, null,
                            List.of(), List.of(), null, false));
                }
            }
        }
        return work;
    }

    /** Removing a flow deletes only what flowform created in this environment, and never what another lineage marked. */
    private boolean deletable(LiveConnector l) {
        return l.managedByFlowform() && environment.equals(l.labels().get(Planner.ENVIRONMENT_LABEL))
                && !Ownership.of(l.labels(), l.annotations()).foreign(environment, lineage);
    }

    /**
     * Preflight checks of one desired connector's configuration.
     *
     * @return false when an error was added (the connector is left out)
     */
    private boolean desiredConnectorAllowed(DesiredFlow flow, DesiredConnector d) {
        boolean allowed = true;
        for (Finding f : ConnectorRules.desiredConnector(d, dc.name(), dc.eos())) {
            diags.add(f.cited(flow.range(), d.address()));
            allowed &= !f.isError();
        }
        return allowed;
    }

    private void warnIfFailed(String address, LiveConnector l, boolean updated) {
        String trace = null;
        if ("FAILED".equals(l.connectorState())) {
            trace = "connector FAILED: " + ConnectorCheck.head(l.connectorTrace());
        } else {
            for (TaskStatus t : l.tasks()) {
                if ("FAILED".equals(t.state())) {
                    trace = "task " + t.id() + " FAILED: " + ConnectorCheck.head(t.trace());
                    break;
                }
            }
        }
        if (trace == null) {
            return;
        }
        diags.add(Rule.CONNECTOR_FAILED.warning("Connector " + l.name() + " has failed",
                "KafkaConnector " + l.namespace() + "/" + l.name() + " reports " + trace + ". "
                        + (updated ? "This plan changes its configuration, which makes Kafka Connect restart it."
                                : "This plan does not change it. If it is still FAILED afterwards, restart it with "
                                        + "kubectl annotate kafkaconnector " + l.name() + " strimzi.io/restart=true."),
                address));
    }

    private void connectorEdits(DesiredConnector d, LiveConnector l, List<FieldEdit> edits, List<AttributeChange> attrs) {
        for (Map.Entry<String, String> e : d.config().entrySet()) {
            String lv = l.config().get(e.getKey());
            if (!e.getValue().equals(lv)) {
                boolean s = d.isSensitive(e.getKey());
                edits.add(FieldEdit.set(List.of("spec", "config", e.getKey()), e.getValue(), s));
                attrs.add(new AttributeChange("spec.config." + Planner.quote(e.getKey()), lv == null ? null : Planner.quote(lv),
                        Planner.quote(e.getValue()), s));
            }
        }
        Set<String> remove = new TreeSet<>();
        for (String k : d.absentKeys()) {
            String lv = l.config().get(k);
            // exactly.once.support=requested is Kafka's default: the same as unset.
            if (lv != null && !(EXACTLY_ONCE_SUPPORT.equals(k) && "requested".equalsIgnoreCase(lv))) {
                remove.add(k);
            }
        }
        if (d.manage() == ManageMode.OWN) {
            for (String k : l.config().keySet()) {
                if (!d.config().containsKey(k)) {
                    remove.add(k);
                }
            }
        }
        for (String k : remove) {
            boolean s = d.isSensitive(k);
            edits.add(FieldEdit.remove(List.of("spec", "config", k), s));
            attrs.add(new AttributeChange("spec.config." + Planner.quote(k), Planner.quote(l.config().get(k)), null, s));
        }
        if (d.tasksMax() != null && !d.tasksMax().equals(l.tasksMax())) {
            edits.add(FieldEdit.set(List.of("spec", "tasksMax"), d.tasksMax(), false));
            attrs.add(new AttributeChange("spec.tasksMax", l.tasksMax() == null ? null : l.tasksMax().toString(),
                    d.tasksMax().toString(), false));
        }
        if (d.state() != null && !d.state().equals(l.state() == null ? "running" : l.state())) {
            edits.add(FieldEdit.set(List.of("spec", "state"), d.state(), false));
            attrs.add(new AttributeChange("spec.state", l.state() == null ? null : Planner.quote(l.state()),
                    Planner.quote(d.state()), false));
        }
        if (!d.className().equals(l.className())) {
            edits.add(FieldEdit.set(List.of("spec", "class"), d.className(), false));
            attrs.add(new AttributeChange("spec.class", l.className() == null ? null : Planner.quote(l.className()),
                    Planner.quote(d.className()), false));
        }
    }

    private Map<String, Object> connectorManifest(DesiredConnector d) {
        return new KafkaConnectorManifest(live.api().kafkaApiVersion(), d.namespace(), d.name(), dc.name(), labels(), marks(),
                d.className(), d.tasksMax(), d.state(), d.config()).toMap();
    }

    /** @return {@code RUNNING}, {@code PAUSED} or {@code STOPPED} for a {@code spec.state} value */
    private static String runtimeState(String specState) {
        return switch (specState.toLowerCase(Locale.ROOT)) {
            case "paused" -> "PAUSED";
            case "stopped" -> "STOPPED";
            default -> "RUNNING";
        };
    }

    private void emitConnectorSteps(List<ConnectorWork> work, int replicas) {
        for (ConnectorWork w : work) {
            switch (w.action()) {
                case CREATE -> {
                    List<AttributeChange> attrs = new ArrayList<>();
                    Planner.flatten("", w.manifest(), attrs, w.desired()::isSensitive);
                    changes.add(new Change(w.address(), w.ref(), Action.CREATE, attrs,
                            ChangeReason.CONNECTOR_MISSING.of(w.ref().namespace() + "/" + w.ref().name())));
                    Set<String> sensitive = new HashSet<>();
                    for (String k : w.desired().config().keySet()) {
                        if (w.desired().isSensitive(k)) {
                            sensitive.add(k);
                        }
                    }
                    add(StepKind.CREATE_CONNECTOR, w.address(), w.ref(), new StepPayload.CreateObject(w.manifest(), sensitive),
                            "create " + w.desired().role().connectorClass().substring("org.apache.kafka.connect.mirror.".length())
                                    + " " + w.ref().name());
                    waitForConnector(w, replicas);
                }
                case UPDATE -> {
                    changes.add(new Change(w.address(), w.ref(), Action.UPDATE, w.attrs(), updateReason(w)));
                    add(StepKind.UPDATE_CONNECTOR, w.address(), w.ref(), new StepPayload.PatchObject(w.edits()),
                            editSummary(w.edits()));
                    waitForConnector(w, replicas);
                }
                case DELETE -> {
                    changes.add(new Change(w.address(), w.ref(), Action.DELETE, List.of(),
                            ChangeReason.NO_FLOW.of(environment)));
                    add(StepKind.DELETE_CONNECTOR, w.address(), w.ref(), new StepPayload.DeleteObject(),
                            "delete KafkaConnector " + w.ref().name());
                }
                default -> throw new IllegalStateException("no step for " + w.action());
            }
        }
    }

    private void waitForConnector(ConnectorWork w, int replicas) {
        if (replicas == 0) {
            return;
        }
        add(StepKind.WAIT_FOR_CONNECTOR_READY, w.address(), w.ref(), new StepPayload.WaitForConnector(w.expectedState(), null),
                "wait until " + w.ref().name() + (w.expectedState().equals("STOPPED") ? " is " : " and its tasks are ")
                        + w.expectedState());
    }

    private static Change.Reason updateReason(ConnectorWork w) {
        boolean eos = w.edits().stream().anyMatch(e -> e.key().equals(EXACTLY_ONCE_SUPPORT)
                || e.key().equals(SOURCE_ISOLATION) || e.key().equals(TRANSACTION_BOUNDARY));
        if (eos && w.desired().exactlyOnce()) {
            return ChangeReason.CONNECTOR_EOS_ON.of();
        }
        if (eos && w.edits().stream().anyMatch(e -> e.key().equals(EXACTLY_ONCE_SUPPORT) && e.remove())) {
            return ChangeReason.CONNECTOR_EOS_OFF.of();
        }
        return ChangeReason.CONNECTOR_CONFIG.of(w.desired().flowAddress());
    }

    private static String editSummary(List<FieldEdit> edits) {
        List<String> parts = new ArrayList<>();
        for (FieldEdit e : edits) {
            String name = e.path().get(e.path().size() - 1);
            if (e.remove()) {
                parts.add("remove " + name);
            } else {
                parts.add(name + "=" + (e.sensitive() ? SecretKeys.MASK : String.valueOf(e.value())));
            }
        }
        return String.join(", ", parts);
    }

    // ---------------------------------------------------------------------------------- ACLs

    /**
     * Lists the transactional IDs the cluster's principals need {@code Write}/{@code Describe} on once the
     * chain has run (Kafka docs connect.html "ACL requirements"): the workers' leader ID from preparing on,
     * and every source task's ID under enabled (every MirrorMaker 2 connector is a source connector, and with
     * enabled all of them run transactionally). Only for clusters this plan changes.
     */
    private void transactionalIds(LiveConnectCluster c, List<ConnectorWork> work) {
        if (chain.isEmpty() || dc.eos() == EosMode.DISABLED) {
            return;
        }
        String group = groupIdOrUnknown(c);
        transactionalIds.add(new TransactionalId(dc.address(), "connect-cluster-" + group, null, null, EosMode.PREPARING));
        if (dc.eos() != EosMode.ENABLED) {
            return;
        }
        Map<String, Integer> tasks = new TreeMap<>();
        for (DesiredFlow f : flowsOnCluster) {
            for (DesiredConnector d : f.connectors()) {
                Integer liveTasks = live.connector(d.namespace(), d.name()).map(LiveConnector::tasksMax).orElse(null);
                tasks.put(d.name(), d.tasksMax() != null ? d.tasksMax() : liveTasks != null ? liveTasks : 1);
            }
        }
        if (c != null) {
            Set<String> deleted = new HashSet<>();
            work.stream().filter(w -> w.action() == Action.DELETE).forEach(w -> deleted.add(w.ref().name()));
            for (LiveConnector l : live.connectorsOf(c.namespace(), c.name())) {
                if (!tasks.containsKey(l.name()) && !deleted.contains(l.name())) {
                    tasks.put(l.name(), l.tasksMax() == null ? 1 : l.tasksMax());
                }
            }
        }
        tasks.forEach((name, n) -> {
            for (int t = 0; t < n; t++) {
                transactionalIds.add(new TransactionalId(dc.address(), group + "-" + name + "-" + t, name, t, EosMode.ENABLED));
            }
        });
    }

    /**
     * @return the group id the workers use after this plan (desired field over live; with manage = "own" an
     *         undeclared field is removed, which for v1beta2 means Strimzi's default), or a placeholder
     */
    private String groupIdOrUnknown(LiveConnectCluster c) {
        boolean removes = c != null && dc.manage() == ManageMode.OWN;
        String group;
        if (live.api() == StrimziApi.V1) {
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

    // ---------------------------------------------------------------------------------- cluster identity

    /** Strimzi v1 fields of the cluster's identity, in the order of {@link LiveConnectCluster#V1_FORBIDDEN_CONFIG_KEYS}. */
    private static final List<String> V1_IDENTITY_FIELDS =
            List.of("groupId", "configStorageTopic", "offsetStorageTopic", "statusStorageTopic");

    /**
     * A change this plan makes to the group id or a storage topic.
     *
     * @param index  0 group id, 1 config topic, 2 offsets topic, 3 status topic
     * @param field  the field as the plan shows it, e.g. {@code spec.config."group.id"} or {@code spec.groupId}
     * @param before the value the workers use now (Strimzi's default for an unset v1beta2 key), null when unset
     * @param after  the value after the plan, null when the plan removes a v1 field
     */
    private record IdentityEdit(int index, String field, String before, String after) {
    }

    /** @return the identity changes among {@code edits}, group id first; empty when none changes a value */
    private static List<IdentityEdit> identityEdits(LiveConnectCluster c, List<FieldEdit> edits) {
        List<String> defaults = List.of(Strimzi.DEFAULT_GROUP_ID, Strimzi.DEFAULT_CONFIG_STORAGE_TOPIC,
                Strimzi.DEFAULT_OFFSET_STORAGE_TOPIC, Strimzi.DEFAULT_STATUS_STORAGE_TOPIC);
        List<IdentityEdit> out = new ArrayList<>();
        for (FieldEdit e : edits) {
            List<String> p = e.path();
            if (c.api() == StrimziApi.V1) {
                int i = p.size() == 2 && p.get(0).equals("spec") ? V1_IDENTITY_FIELDS.indexOf(p.get(1)) : -1;
                if (i >= 0) {
                    Object have = c.spec().get(p.get(1));
                    out.add(new IdentityEdit(i, "spec." + p.get(1), have == null ? null : have.toString(),
                            e.remove() ? null : String.valueOf(e.value())));
                }
            } else {
                int i = p.size() == 3 && p.get(0).equals("spec") && p.get(1).equals("config")
                        ? LiveConnectCluster.V1_FORBIDDEN_CONFIG_KEYS.indexOf(p.get(2)) : -1;
                if (i >= 0) {
                    String def = defaults.get(i);
                    out.add(new IdentityEdit(i, "spec.config." + Planner.quote(p.get(2)), c.config().getOrDefault(p.get(2), def),
                            e.remove() ? def : String.valueOf(e.value())));
                }
            }
        }
        out.removeIf(i -> Objects.equals(i.before(), i.after()));
        out.sort(Comparator.comparingInt(IdentityEdit::index));
        return out;
    }

    /** @return the mode the workers run: the spec's, or a mode a not yet rolled worker still runs */
    private static EosMode workersEosMode(LiveConnectCluster c, EosMode current) {
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

    private static String describe(List<IdentityEdit> identity) {
        List<String> parts = new ArrayList<>();
        for (IdentityEdit i : identity) {
            parts.add(i.field() + " " + shown(i.before()) + " -> " + (i.after() == null ? "(removed; kafka.strimzi.io/v1 "
                    + "requires it)" : Planner.quote(i.after())));
        }
        return String.join(", ", parts);
    }

    private static String shown(String value) {
        return value == null ? "(not set)" : Planner.quote(value);
    }

    private static IdentityEdit find(List<IdentityEdit> identity, int index) {
        return identity.stream().filter(i -> i.index() == index).findFirst().orElse(null);
    }

    /** @return what a new identity does to transactional IDs, fencing and source offsets, as sentences */
    private static String identityConsequences(LiveConnectCluster c, List<IdentityEdit> identity) {
        StringBuilder sb = new StringBuilder();
        IdentityEdit group = find(identity, 0);
        IdentityEdit configs = find(identity, 1);
        IdentityEdit offsets = find(identity, 2);
        IdentityEdit status = find(identity, 3);
        if (group != null) {
            String o = group.before() == null ? "<spec.groupId>" : group.before();
            String n = group.after() == null ? "<spec.groupId>" : group.after();
            sb.append("The transactional IDs derive from the group id: the workers' leader goes from connect-cluster-")
                    .append(o).append(" to connect-cluster-").append(n).append(", every task from ").append(o)
                    .append("-<connector>-<task> to ").append(n).append("-<connector>-<task>. Zombie fencing only fences the "
                            + "IDs of the cluster's own group, so the new identity cannot fence producers of the old one: "
                            + "while the workers roll, workers of the old and of the new group both run the connectors, and "
                            + "records they both replicate are written twice. ");
        }
        if (offsets != null) {
            sb.append("The connectors' source offsets are in ").append(shown(offsets.before())).append("; the workers would "
                    + "read ").append(offsets.after() == null ? "no offsets topic" : Planner.quote(offsets.after()))
                    .append(", which has none for them, so MirrorSourceConnector starts again from the source topics' "
                            + "earliest offsets (or as source.consumer.auto.offset.reset says) and replicates every record "
                            + "again: duplicates in the target topics. ");
        } else if (group != null) {
            String topic = c.api() == StrimziApi.V1 ? String.valueOf(c.spec().get("offsetStorageTopic"))
                    : c.config().getOrDefault("offset.storage.topic", Strimzi.DEFAULT_OFFSET_STORAGE_TOPIC);
            sb.append("The source offsets stay in ").append(Planner.quote(topic)).append(". ");
        }
        if (configs != null) {
            sb.append("The connector and task configurations are in ").append(shown(configs.before()))
                    .append("; the workers run no connector until the operator has written them again to the new topic. ");
        }
        if (status != null) {
            sb.append("Connector and task statuses start empty in the new status topic. ");
        }
        return sb.toString();
    }

    /** @return the change reason's part about a new identity */
    private static String identityReason(List<IdentityEdit> identity) {
        List<String> parts = new ArrayList<>();
        IdentityEdit group = find(identity, 0);
        if (group != null) {
            parts.add("group id " + shown(group.before()) + " -> " + shown(group.after()) + ": new transactional IDs, the "
                    + "old ones not fenced");
        }
        IdentityEdit offsets = find(identity, 2);
        if (offsets != null) {
            parts.add("offsets topic " + shown(offsets.before()) + " -> " + shown(offsets.after()) + ": source offsets not "
                    + "carried over, replication starts again from the earliest offsets");
        }
        if (parts.isEmpty()) {
            parts.add("storage topics " + describe(identity));
        }
        return String.join("; ", parts);
    }

    // ---------------------------------------------------------------------------------- helpers

    private void refuse(Rule rule, String summary, String detail) {
        diags.add(rule.error(summary, detail, dc.address()));
    }

    private void add(StepKind kind, String address, ObjectRef object, StepPayload payload, String summary) {
        chain.add(new Draft(kind, address, object, payload, summary));
    }

    /**
     * One connector's pending work.
     *
     * @param action        create, update or delete
     * @param address       the connector's resource address
     * @param ref           the object
     * @param desired       what the configuration wants (null for a delete)
     * @param manifest      the full object for a create
     * @param edits         field edits for an update
     * @param attrs         display attributes for an update
     * @param expectedState runtime state to wait for ({@code RUNNING}, {@code PAUSED}, {@code STOPPED}); null for a delete
     * @param requiresEos   true when the connector's configuration after the step has exactly.once.support=required
     */
    record ConnectorWork(Action action, String address, ObjectRef ref, DesiredConnector desired,
                         Map<String, Object> manifest, List<FieldEdit> edits, List<AttributeChange> attrs,
                         String expectedState, boolean requiresEos) {
    }
}
