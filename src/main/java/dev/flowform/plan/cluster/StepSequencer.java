package dev.flowform.plan.cluster;

import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.plan.rules.ForcedRoll;
import java.util.ArrayList;
import java.util.List;

/**
 * Emits the chain of steps and the object changes of one resource from its facts once every guard let it through,
 * alike for both kinds, the {@link ResourceKind} adding the connector steps; it refuses nothing, it orders (rules 2,
 * 3, 5, 7, 7a, 8 and 8a of docs/domain-rules.md; the order in docs/architecture.md, "The planner"). Pure.
 */
final class StepSequencer {

    private final ClusterFacts facts;
    private final boolean concurrentConnectors;
    private final List<Draft> chain = new ArrayList<>();
    private final List<Change> changes = new ArrayList<>();

    private StepSequencer(ClusterFacts facts) {
        this.facts = facts;
        this.concurrentConnectors = concurrentConnectors(facts);
    }

    /**
     * @return true when its connectors may be written concurrently: its Kafka version is known and 3.6 or newer
     *         (KAFKA-15059, fixed in 3.6.0)
     */
    static boolean concurrentConnectors(ClusterFacts facts) {
        return facts.kafkaVersion().map(v -> !v.isBefore(3, 6)).orElse(false);
    }

    /**
     * @param facts the facts of a resource no guard refused
     * @return its steps and changes; empty when nothing changes
     */
    static Sequence sequence(ClusterFacts facts) {
        StepSequencer s = new StepSequencer(facts);
        if (facts.existing() == null) {
            s.create();
        } else if (facts.somethingChanges()) {
            s.existing(facts.existing());
        }
        for (TaskRestart r : facts.kind().restarts(facts)) {
            s.changes.add(r.change());
            s.chain.add(r.step(s.lane(r.address())));
        }
        return new Sequence(s.chain, s.changes);
    }

    /** @return the facts being sequenced */
    ClusterFacts facts() {
        return facts;
    }

    /** Adds a step. */
    void add(Draft d) {
        chain.add(d);
    }

    /** Adds a change. */
    void change(Change c) {
        changes.add(c);
    }

    /** @return its lane when the connectors run concurrently, else null (the chain) */
    String lane(String address) {
        return concurrentConnectors ? address : null;
    }

    /** Adds a wait for the workers' roll to {@code mode} (at {@code generation}, or the one the step before made). */
    void rollWait(EosMode mode, Long generation, String summary) {
        add(StepKind.WAIT_FOR_ROLL, facts.ref(), new StepPayload.WaitForRoll(mode, generation), summary);
    }

    private void create() {
        ResourceKind kind = facts.kind();
        EosMode eos = facts.desired().eos();
        java.util.Map<String, Object> manifest = kind.manifest(facts.scope());
        changes.add(new Change(facts.address(), facts.ref(), Action.CREATE,
                AttributeChange.ofManifest(manifest, facts.desired()::isSensitive), kind.creationReason()));
        add(StepKind.CREATE_CONNECT_CLUSTER, facts.ref(), new StepPayload.CreateObject(manifest, kind.sensitiveKeys()),
                "create " + facts.ref().kind() + " " + facts.desired().name() + " with " + EosMode.CONFIG_KEY + "=" + eos.value());
        rollWait(eos, null, "wait until every worker is up with " + EosMode.CONFIG_KEY + "=" + eos.value());
        kind.connectorSteps(this, eos);
    }

    private void existing(ClusterFacts.Existing e) {
        ObjectRef ref = facts.ref();
        if (e.changes() || facts.kind().connectorsInResource()) {
            changes.add(resourceChange(e));
        }
        if (facts.forcedRoll() && ForcedRoll.requested(e.cluster())) {
            add(StepKind.WAIT_FOR_FORCED_ROLL, ref, new StepPayload.WaitForRoll(e.current(), null), "wait for the forced roll "
                    + "already requested on " + podSet() + " (" + Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION + ")");
        }
        if (!e.rolled() && !e.failed()) {
            rollWait(e.current(), e.cluster().generation(), "wait for the roll already in progress (generation "
                    + e.cluster().generation() + ", " + e.roll().detail() + ")");
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
            rollWait(e.current(), null, "wait until every worker has restarted with " + EosMode.CONFIG_KEY + "="
                    + e.current().value());
            forceRoll(e.current());
            pending = List.of();
        }
        if (!facts.upgrade()) {
            facts.kind().connectorSteps(this, e.current());
        }
        workerSteps(e, pending);
        if (facts.upgrade()) {
            facts.kind().connectorSteps(this, facts.desired().eos());
        }
        changes.addAll(facts.kind().trailingChanges());
    }

    /** The mode changes, each with its roll (the first carrying {@code pending}), or a plain worker update. */
    private void workerSteps(ClusterFacts.Existing e, List<FieldEdit> pending) {
        ResourceKind kind = facts.kind();
        List<EosMode> path = e.path();
        if (facts.forcedRoll() && e.current() == EosMode.PREPARING && path.contains(EosMode.ENABLED)
                && !ForcedRoll.requested(e.cluster())) {
            // without a configuration hash the pods do not show what they run: make sure every one runs preparing
            // before enabled is set (rule 2); an interrupted or outside change may have left them on disabled
            forceRoll(EosMode.PREPARING);
        }
        for (int i = 0; i < path.size(); i++) {
            EosMode mode = path.get(i);
            List<FieldEdit> edits = new ArrayList<>();
            edits.add(FieldEdit.set(MirrorWork.join(kind.workerConfigPath(), EosMode.CONFIG_KEY), mode.value(), false));
            if (i == 0) {
                edits.addAll(pending);
            }
            add(StepKind.SET_WORKER_EOS, facts.ref(), new StepPayload.SetWorkerEos(mode, edits),
                    kind.setModeSummary(mode, i == 0 ? pending.size() : 0));
            rollWait(mode, null, kind.rolledSummary(mode, facts.forcedRoll()));
            forceRoll(mode);
        }
        if (path.isEmpty() && !pending.isEmpty()) {
            add(StepKind.UPDATE_CONNECT_CLUSTER, facts.ref(), new StepPayload.PatchObject(pending),
                    kind.updateSummary(pending.size()));
            rollWait(e.current(), null, kind.rolledSummary(null, facts.forcedRoll()));
            forceRoll(e.current());
        }
    }

    /**
     * Where the operator does not roll the pods ({@link ClusterFacts#forcedRoll()}, only a KafkaMirrorMaker2 of Strimzi
     * 0.46-0.48): annotates the StrimziPodSet {@code strimzi.io/manual-rolling-update: "true"}, then waits until every
     * pod was re-created after it, is Ready, the annotation is gone and the resource is Ready ({@link ForcedRoll#evaluate}).
     */
    private void forceRoll(EosMode mode) {
        if (!facts.forcedRoll()) {
            return;
        }
        ClusterFacts.Existing e = facts.existing();
        ObjectRef ref = e.cluster().podSet() != null ? e.cluster().podSet().ref()
                : new ObjectRef(e.cluster().api().coreApiVersion(), Strimzi.STRIMZI_POD_SET_KIND,
                facts.desired().namespace(), podSet());
        add(StepKind.FORCE_ROLL, ref, new StepPayload.PatchObject(List.of(FieldEdit.set(
                List.of("metadata", "annotations", Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION), ForcedRoll.REQUESTED, false))),
                Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION + " = \"" + ForcedRoll.REQUESTED + "\" on StrimziPodSet " + podSet()
                        + " (Strimzi 0.46-0.48 do not roll it on a worker configuration change)");
        add(StepKind.WAIT_FOR_FORCED_ROLL, facts.ref(), new StepPayload.WaitForRoll(mode, null),
                "wait until every " + podSet() + " pod has restarted after the annotation with " + EosMode.CONFIG_KEY + "="
                        + mode.value());
    }

    private String podSet() {
        return MirrorMaker2Names.podSetName(facts.desired().name());
    }

    /** @return the change of the resource itself: its mode, its other worker edits, and what the kind adds */
    private Change resourceChange(ClusterFacts.Existing e) {
        List<AttributeChange> attrs = new ArrayList<>();
        if (e.annotate()) {
            attrs.add(new AttributeChange("metadata.annotations.\"" + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + "\"", null,
                    "\"true\"", false));
        }
        if (!e.path().isEmpty()) {
            String before = e.cluster().eosValue();
            String shown = String.join(".", facts.kind().workerConfigPath()).replace(".[", "[");
            attrs.add(new AttributeChange(shown + ".\"" + EosMode.CONFIG_KEY + "\"", before == null ? null
                    : Json.render(before), Json.render(facts.desired().eos().value()), false));
        }
        attrs.addAll(e.spec().attrs());
        List<Change.Reason> reasons = new ArrayList<>();
        if (e.path().size() == 2) {
            reasons.add(ChangeReason.EOS_ROLLOUT.of(e.path().get(0).value(), e.path().get(1).value()));
        } else if (e.path().size() == 1) {
            boolean down = e.path().get(0).ordinal() < e.current().ordinal();
            reasons.add((down ? ChangeReason.EOS_MODE_DOWN : ChangeReason.EOS_MODE_UP)
                    .of(e.current().value(), e.path().get(0).value()));
        } else if (e.annotate()) {
            reasons.add(ChangeReason.CONNECTOR_RESOURCES.of());
        } else if (!e.spec().isEmpty()) {
            reasons.add(ChangeReason.SPEC_CHANGED.of());
        }
        if (e.newIdentity()) {
            reasons.add(ChangeReason.NEW_CLUSTER_IDENTITY.of(ClusterIdentity.reason(e.identity())));
        }
        facts.kind().resourceChange(facts, attrs, reasons);
        return new Change(facts.address(), facts.ref(), Action.UPDATE, attrs, reasons);
    }

    /** Adds a step on the resource's own object (or, for a forced roll, its PodSet). */
    private void add(StepKind kind, ObjectRef object, StepPayload payload, String summary) {
        chain.add(new Draft(kind, facts.address(), object, payload, summary));
    }
}
