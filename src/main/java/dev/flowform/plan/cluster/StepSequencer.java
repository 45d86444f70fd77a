package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.SecretKeys;
import dev.flowform.model.strimzi.KafkaConnectManifest;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.plan.rules.StopBeforeChange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Emits the chain of steps and the object changes of one cluster from its facts, once every guard has let it
 * through (the operator half of Strimzi's model/operator split). Decides nothing that a guard could refuse; it
 * orders (docs/domain-rules.md):
 * <ul>
 *   <li>a new cluster is created with its final mode, then its connectors (rule 2 for new clusters);</li>
 *   <li>on an existing cluster: a roll already in progress is waited for first, then the connector-resources
 *       annotation, then, after a failed reconcile, the spec change that makes the operator roll again;</li>
 *   <li>the workers' mode goes {@code disabled → preparing → enabled}, each patch followed by a wait for the roll
 *       (rules 2 and 7), with the other spec edits in the first patch;</li>
 *   <li>connector creations and updates come after the last roll when the mode goes up (rule 3), before the
 *       workers when it goes down (rule 5); each is followed by a wait for it to run (rule 8) unless the cluster
 *       has no worker.</li>
 *   <li>on Kafka 3.6 or newer, each connector's steps form a lane of their own (its write, then its wait), all
 *       depending on the step before them, so the applier runs the connectors of one cluster concurrently, each
 *       still waited for; a step after them depends on every lane. Below 3.6, or when the version is not known
 *       (the operator's default, which flowform cannot read), they stay one chain: before Kafka 3.6.0 a round of
 *       zombie fencing fails while a rebalance is pending, which several connector configurations written at once
 *       cause, so exactly-once tasks fail to start (KAFKA-15059, fixed by apache/kafka#13819 in 3.6.0).</li>
 *   <li>last, the restart of each FAILED task that nothing else restarts ({@link TaskRestart}).</li>
 * </ul>
 * Pure.
 */
final class StepSequencer {

    private static final String MIRROR_PACKAGE = "org.apache.kafka.connect.mirror.";
    private static final List<String> STATE_PATH = List.of("spec", "state");
    private static final List<String> MARK_PATH = List.of("metadata", "annotations", StopBeforeChange.RESUME_ANNOTATION);

    private final ClusterFacts facts;
    private final boolean concurrentConnectors;
    private final List<Draft> chain = new ArrayList<>();
    private final List<Change> changes = new ArrayList<>();

    private StepSequencer(ClusterFacts facts) {
        this.facts = facts;
        this.concurrentConnectors = concurrentConnectors(facts);
    }

    /**
     * @param facts a cluster's facts
     * @return true when the cluster's connectors may be written concurrently: its Kafka version is known and 3.6 or
     *         newer (KAFKA-15059, fixed in 3.6.0)
     */
    static boolean concurrentConnectors(ClusterFacts facts) {
        return facts.kafkaVersion().map(v -> !v.isBefore(3, 6)).orElse(false);
    }

    /**
     * @param facts the facts of a cluster no guard refused
     * @return its steps and changes; empty when nothing changes
     */
    static Sequence sequence(ClusterFacts facts) {
        StepSequencer s = new StepSequencer(facts);
        if (facts.existing() == null) {
            s.newCluster();
        } else if (facts.somethingChanges()) {
            s.existingCluster(facts.existing());
        }
        for (TaskRestart r : facts.connectors().restarts()) {
            s.changes.add(r.change());
            s.chain.add(r.step(s.concurrentConnectors ? r.address() : null));
        }
        return new Sequence(s.chain, s.changes);
    }

    private void newCluster() {
        DesiredConnectCluster dc = facts.desired();
        ObjectRef ref = facts.ref();
        Map<String, String> config = new LinkedHashMap<>(dc.config());
        config.put(EosMode.CONFIG_KEY, dc.eos().value());
        Map<String, Object> manifest = new KafkaConnectManifest(ref.apiVersion(), dc.namespace(), dc.name(),
                OwnershipMarks.labels(facts.scope()), OwnershipMarks.annotations(facts.scope()), dc.version(), dc.replicas(),
                dc.bootstrapServers(), dc.spec(), config).toMap();
        changes.add(new Change(dc.address(), ref, Action.CREATE, AttributeChange.ofManifest(manifest, dc::isSensitive),
                ChangeReason.CONNECT_CLUSTER_MISSING.of(dc.namespace() + "/" + dc.name(), dc.eos().value())));
        Set<String> sensitive = new TreeSet<>(dc.config().keySet().stream().filter(dc::isSensitive).toList());
        add(StepKind.CREATE_CONNECT_CLUSTER, ref, new StepPayload.CreateObject(manifest, sensitive),
                "create KafkaConnect " + dc.name() + " with " + EosMode.CONFIG_KEY + "=" + dc.eos().value());
        add(StepKind.WAIT_FOR_ROLL, ref, new StepPayload.WaitForRoll(dc.eos(), null),
                "wait until every worker is up with " + EosMode.CONFIG_KEY + "=" + dc.eos().value());
        connectorSteps();
    }

    private void existingCluster(ClusterFacts.Existing e) {
        ObjectRef ref = e.cluster().ref();
        if (e.changes()) {
            changes.add(clusterChange(e));
        }
        if (!e.rolled() && !e.failed()) {
            add(StepKind.WAIT_FOR_ROLL, ref, new StepPayload.WaitForRoll(e.current(), e.cluster().generation()),
                    "wait for the roll already in progress (generation " + e.cluster().generation() + ", "
                            + e.roll().detail() + ")");
        }
        if (e.annotate()) {
            add(StepKind.ANNOTATE, ref, new StepPayload.PatchObject(List.of(FieldEdit.set(List.of("metadata", "annotations",
                    Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION), "true", false))),
                    Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + " = \"true\"");
        }
        List<FieldEdit> pending = e.spec().edits();
        if (e.failed() && !pending.isEmpty() && (facts.needsCurrentRolled() || e.path().isEmpty())) {
            add(StepKind.UPDATE_CONNECT_CLUSTER, ref, new StepPayload.PatchObject(pending),
                    pending.size() + " spec change(s), so the operator reconciles again after the failed reconcile");
            add(StepKind.WAIT_FOR_ROLL, ref, new StepPayload.WaitForRoll(e.current(), null),
                    "wait until every worker has restarted with " + EosMode.CONFIG_KEY + "=" + e.current().value());
            pending = List.of();
        }
        if (!facts.upgrade()) {
            connectorSteps();
        }
        workerSteps(e, pending);
        if (facts.upgrade()) {
            connectorSteps();
        }
    }

    /** The mode changes, each with its roll (the first carrying {@code pending}), or a plain spec update. */
    private void workerSteps(ClusterFacts.Existing e, List<FieldEdit> pending) {
        ObjectRef ref = e.cluster().ref();
        List<EosMode> path = e.path();
        for (int i = 0; i < path.size(); i++) {
            EosMode mode = path.get(i);
            List<FieldEdit> edits = new ArrayList<>();
            edits.add(FieldEdit.set(List.of("spec", "config", EosMode.CONFIG_KEY), mode.value(), false));
            if (i == 0) {
                edits.addAll(pending);
            }
            add(StepKind.SET_WORKER_EOS, ref, new StepPayload.SetWorkerEos(mode, edits), EosMode.CONFIG_KEY + " = "
                    + mode.value() + (i == 0 && !pending.isEmpty() ? " (with " + pending.size() + " more spec change(s))" : ""));
            add(StepKind.WAIT_FOR_ROLL, ref, new StepPayload.WaitForRoll(mode, null),
                    "wait until every worker has restarted with " + EosMode.CONFIG_KEY + "=" + mode.value());
        }
        if (path.isEmpty() && !pending.isEmpty()) {
            add(StepKind.UPDATE_CONNECT_CLUSTER, ref, new StepPayload.PatchObject(pending), pending.size() + " spec change(s)");
            add(StepKind.WAIT_FOR_ROLL, ref, new StepPayload.WaitForRoll(e.current(), null),
                    "wait until every worker has restarted with the new spec");
        }
    }

    private Change clusterChange(ClusterFacts.Existing e) {
        List<AttributeChange> attrs = new ArrayList<>();
        if (e.annotate()) {
            attrs.add(new AttributeChange("metadata.annotations.\"" + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + "\"", null,
                    "\"true\"", false));
        }
        EosMode target = facts.desired().eos();
        if (!e.path().isEmpty()) {
            String before = e.cluster().eosValue();
            attrs.add(new AttributeChange("spec.config.\"" + EosMode.CONFIG_KEY + "\"",
                    before == null ? null : Json.render(before), Json.render(target.value()), false));
        }
        attrs.addAll(e.spec().attrs());
        List<Change.Reason> reasons = new ArrayList<>();
        if (e.path().size() == 2) {
            reasons.add(ChangeReason.EOS_ROLLOUT.of(e.path().get(0).value(), e.path().get(1).value()));
        } else if (e.path().size() == 1) {
            boolean down = e.path().get(0).ordinal() < e.current().ordinal();
            reasons.add((down ? ChangeReason.EOS_MODE_DOWN : ChangeReason.EOS_MODE_UP)
                    .of(e.current().value(), e.path().get(0).value()));
        } else {
            reasons.add(e.annotate() ? ChangeReason.CONNECTOR_RESOURCES.of() : ChangeReason.SPEC_CHANGED.of());
        }
        if (e.newIdentity()) {
            reasons.add(ChangeReason.NEW_CLUSTER_IDENTITY.of(ClusterIdentity.reason(e.identity())));
        }
        return new Change(facts.address(), e.cluster().ref(), Action.UPDATE, attrs, reasons);
    }

    private void connectorSteps() {
        for (ConnectorWork w : facts.work()) {
            switch (w.action()) {
                case CREATE -> {
                    changes.add(new Change(w.address(), w.ref(), Action.CREATE,
                            AttributeChange.ofManifest(w.manifest(), w.desired()::isSensitive),
                            ChangeReason.CONNECTOR_MISSING.of(w.ref().namespace() + "/" + w.ref().name())));
                    Set<String> sensitive = new TreeSet<>(w.desired().config().keySet().stream()
                            .filter(w.desired()::isSensitive).toList());
                    chain.add(new Draft(StepKind.CREATE_CONNECTOR, w.address(), w.ref(),
                            new StepPayload.CreateObject(w.manifest(), sensitive), "create "
                            + w.desired().role().connectorClass().substring(MIRROR_PACKAGE.length()) + " " + w.ref().name(),
                            lane(w)));
                    waitForConnector(w);
                }
                case UPDATE -> update(w);
                case DELETE -> {
                    changes.add(new Change(w.address(), w.ref(), Action.DELETE, List.of(),
                            ChangeReason.NO_FLOW.of(facts.scope().environment())));
                    chain.add(new Draft(StepKind.DELETE_CONNECTOR, w.address(), w.ref(), new StepPayload.DeleteObject(),
                            "delete KafkaConnector " + w.ref().name(), lane(w)));
                }
                default -> throw new IllegalStateException("no step for " + w.action());
            }
        }
    }

    /**
     * A connector update: one write, or, when {@link StopBeforeChange#lane} says so, a stop (with the mark of the state
     * to return to) and its wait, then the write of the configuration with that state (the mark removed).
     */
    private void update(ConnectorWork w) {
        EosMode atStep = facts.upgrade() ? facts.desired().eos() : facts.existing().current();
        boolean liveAccepted = !w.liveRequiresEos() || atStep == EosMode.ENABLED;
        StopBeforeChange.Lane how = StopBeforeChange.lane(w.diff().edits(), w.liveState(), w.resumeMark(), w.targetState(),
                StopBeforeChange.canStop(w.desired().role(), facts.kafkaVersion(), facts.replicas(), liveAccepted));
        List<Change.Reason> reasons = new ArrayList<>();
        if (!w.diff().isEmpty()) {
            reasons.add(updateReason(w));
        }
        if (how == StopBeforeChange.Lane.PLAIN) {
            changes.add(new Change(w.address(), w.ref(), Action.UPDATE, w.diff().attrs(), reasons));
            chain.add(new Draft(StepKind.UPDATE_CONNECTOR, w.address(), w.ref(),
                    new StepPayload.PatchObject(w.diff().edits()), editSummary(w.diff().edits()), lane(w)));
            waitForConnector(w);
            return;
        }
        String name = w.ref().name();
        List<FieldEdit> edits = new ArrayList<>(w.diff().edits().stream()
                .filter(e -> !e.path().equals(STATE_PATH)).toList());
        List<AttributeChange> attrs = new ArrayList<>(w.diff().attrs());
        if (how == StopBeforeChange.Lane.STOP_FIRST) {
            reasons.add(ChangeReason.STOP_START.of());
            chain.add(new Draft(StepKind.STOP_CONNECTOR, w.address(), w.ref(), new StepPayload.PatchObject(List.of(
                    FieldEdit.set(STATE_PATH, StopBeforeChange.STOPPED, false),
                    FieldEdit.set(MARK_PATH, w.targetState(), false))),
                    "stop " + name + " (spec.state: stopped): Kafka Connect drops the tasks of its current configuration",
                    lane(w)));
        } else {
            reasons.add(ChangeReason.RESUME_STOPPED.of(w.targetState()));
            if (attrs.stream().noneMatch(a -> a.path().equals("spec.state"))) {
                attrs.add(new AttributeChange("spec.state", Json.render(StopBeforeChange.STOPPED),
                        Json.render(w.targetState()), false));
            }
        }
        if (facts.replicas() > 0 && !(how == StopBeforeChange.Lane.ALREADY_STOPPED && w.seenStopped())) {
            chain.add(new Draft(StepKind.WAIT_FOR_CONNECTOR_READY, w.address(), w.ref(),
                    new StepPayload.WaitForConnector("STOPPED", null), "wait until " + name
                    + " is STOPPED and none of its tasks runs", lane(w)));
        }
        changes.add(new Change(w.address(), w.ref(), Action.UPDATE, attrs, reasons));
        edits.add(FieldEdit.set(STATE_PATH, w.targetState(), false));
        edits.add(FieldEdit.remove(MARK_PATH, false));
        String what = editSummary(w.diff().edits().stream().filter(e -> !e.path().equals(STATE_PATH)).toList());
        chain.add(new Draft(StepKind.UPDATE_CONNECTOR, w.address(), w.ref(), new StepPayload.PatchObject(edits),
                (what.isEmpty() ? "" : what + ", ") + "then start " + name + " (spec.state: " + w.targetState() + ")", lane(w)));
        waitForConnector(w);
    }

    private void waitForConnector(ConnectorWork w) {
        if (facts.replicas() == 0) {
            return;
        }
        chain.add(new Draft(StepKind.WAIT_FOR_CONNECTOR_READY, w.address(), w.ref(),
                new StepPayload.WaitForConnector(w.expectedState(), null), "wait until " + w.ref().name()
                + (w.expectedState().equals("STOPPED") ? " is " : " and its tasks are ") + w.expectedState(), lane(w)));
    }

    /** @return the connector's lane when the cluster's connectors run concurrently, else null (the chain) */
    private String lane(ConnectorWork w) {
        return concurrentConnectors ? w.address() : null;
    }

    private static Change.Reason updateReason(ConnectorWork w) {
        List<FieldEdit> edits = w.diff().edits();
        boolean eos = edits.stream().anyMatch(e -> e.key().equals(ConnectorRules.EXACTLY_ONCE_SUPPORT)
                || e.key().equals(ConnectorRules.SOURCE_ISOLATION_LEVEL) || e.key().equals(ConnectorRules.TRANSACTION_BOUNDARY));
        if (eos && w.desired().exactlyOnce()) {
            return ChangeReason.CONNECTOR_EOS_ON.of();
        }
        if (eos && edits.stream().anyMatch(e -> e.key().equals(ConnectorRules.EXACTLY_ONCE_SUPPORT) && e.remove())) {
            return ChangeReason.CONNECTOR_EOS_OFF.of();
        }
        return ChangeReason.CONNECTOR_CONFIG.of(w.desired().flowAddress());
    }

    private static String editSummary(List<FieldEdit> edits) {
        List<String> parts = new ArrayList<>();
        for (FieldEdit e : edits) {
            String name = e.path().get(e.path().size() - 1);
            parts.add(e.remove() ? "remove " + name
                    : name + "=" + (e.sensitive() ? SecretKeys.MASK : String.valueOf(e.value())));
        }
        return String.join(", ", parts);
    }

    /** Adds a step on the cluster's KafkaConnect. */
    private void add(StepKind kind, ObjectRef object, StepPayload payload, String summary) {
        chain.add(new Draft(kind, facts.address(), object, payload, summary));
    }
}
