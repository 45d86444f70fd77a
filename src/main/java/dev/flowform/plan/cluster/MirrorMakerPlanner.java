package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.model.strimzi.KafkaMirrorMaker2Manifest;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Rule;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.plan.rules.ForcedRoll;
import dev.flowform.plan.rules.MirrorCheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Plans one KafkaMirrorMaker2 (Strimzi's own way to run MirrorMaker 2), in either layout ({@code v1beta2}:
 * {@code spec.clusters[]}; {@code v1}: {@code spec.target}, {@code spec.mirrors[].source}; the live object's, or for a
 * new one the layout of the API version the server serves), with the same safe rollout as a KafkaConnect
 * (docs/domain-rules.md): the workers' {@code exactly.once.source.support} in the target cluster's {@code config}
 * goes {@code disabled → preparing → enabled}, each patch followed by a complete roll of {@code <name>-mirrormaker2}
 * (rule 7: PodSet, pods, {@code strimzi.io/revision} and the configuration hash where the operator writes one); then
 * {@code source.consumer.isolation.level: read_committed} and {@code exactly.once.support: required} are set in
 * {@code sourceConnector.config} only (rules 3 and 4), followed by a wait until every connector and task of the
 * resource runs. Disabling runs in reverse (rule 5). A missing resource is created with its final mode. Mirrors
 * added, removed or renamed are one patch ({@link MirrorSet}), written with the other mirror edits. Refuses a
 * paused resource, one whose last reconcile failed, a mode it cannot read, an adopted resource that does not exist,
 * a renamed target alias with other changes ({@link MirrorTargetRename}) and a mirror to add without bootstrap
 * servers. Like a KafkaConnect, the resource carries flowform's ownership marks ({@link OwnershipMarks}: annotations
 * only, since Strimzi copies a KafkaMirrorMaker2's labels onto its pods), and one that another state's marks claim is
 * refused first ({@link OwnershipGuard}) unless {@code --transfer-ownership mirrormaker2.NAME} hands it over. Pure.
 */
public final class MirrorMakerPlanner {

    private MirrorMakerPlanner() {
    }

    /**
     * @param scope what the plan is made against
     * @param dm    the block, derived
     * @return its steps (unnumbered), the change of the resource and the diagnostics
     */
    public static ClusterPlan plan(PlanScope scope, DesiredMirrorMaker2 dm) {
        MirrorMakerFacts facts = MirrorMakerFacts.of(scope, dm);
        List<Claim> claims = facts.live() == null ? List.of() : List.of(Claim.of(scope, Map.of(), dm.address(),
                facts.live().ref(), facts.live().workers().labels(), facts.live().workers().annotations()));
        Verdict owners = OwnershipGuard.check(scope, claims);
        if (owners.refused()) {
            return new ClusterPlan(facts.address(), List.of(), List.of(), List.of(), Map.of(), Map.of(), owners.diagnostics());
        }
        List<Diagnostic> diagnostics = guards(facts);
        List<Draft> chain = new ArrayList<>();
        List<Change> changes = new ArrayList<>();
        if (diagnostics.stream().noneMatch(Diagnostic::isError) && facts.somethingChanges()) {
            if (facts.live() == null) {
                create(facts, chain, changes);
            } else {
                existing(facts, chain, changes);
            }
        }
        diagnostics = new ArrayList<>(diagnostics);
        if (facts.live() != null) {
            diagnostics.addAll(MirrorMakerWarnings.of(facts.live(), dm));
            diagnostics.addAll(MirrorMakerWarnings.renamed(facts.live(), dm, facts.set().renamed()));
            if (MirrorTargetRename.renamed(facts) && diagnostics.stream().noneMatch(Diagnostic::isError)) {
                diagnostics.add(MirrorTargetRename.warning(facts));
            }
        }
        if (chain.stream().anyMatch(d -> d.kind() == StepKind.FORCE_ROLL || d.kind() == StepKind.WAIT_FOR_FORCED_ROLL)) {
            diagnostics.add(MirrorMakerWarnings.forcedRoll(facts.live(), dm));
        }
        if (facts.live() != null && !MirrorCheck.failedTasks(facts.live()).isEmpty()) {
            diagnostics.add(Rule.CONNECTOR_FAILED.warning("FAILED while KafkaMirrorMaker2 is Ready", "KafkaMirrorMaker2 "
                    + facts.desired().namespace() + "/" + facts.desired().name() + " reports Ready, but "
                    + String.join("; ", MirrorCheck.failedTasks(facts.live())) + " (Strimzi sets NotReady only for a FAILED "
                    + "connector, not a FAILED task). " + (facts.somethingChanges() ? "The planned changes restart the tasks."
                    : "The plan asks the operator to restart the first failed task (" + Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION
                    + "); check the task's trace if it fails again."), facts.address()));
            // after a failed reconcile the operator's own problem comes first (rule failed-reconcile): no restart step
            if (diagnostics.stream().noneMatch(Diagnostic::isError) && !facts.somethingChanges()
                    && !(facts.roll() instanceof Readiness.Failed)) {
                restartFailedTask(facts, chain, changes);
            }
        }
        Sequence marked = OwnershipMarks.settle(scope, claims, new Sequence(chain, changes));
        return new ClusterPlan(facts.address(), marked.chain(), marked.changes(), List.of(), Map.of(),
                ClusterPlanner.transfers(claims), diagnostics);
    }

    /** @return the refusals (errors), in the order they are checked; the first refusal ends the list */
    private static List<Diagnostic> guards(MirrorMakerFacts f) {
        DesiredMirrorMaker2 dm = f.desired();
        String who = "KafkaMirrorMaker2 " + dm.namespace() + "/" + dm.name();
        for (DesiredMirror m : dm.mirrors()) {
            if (m.exactlyOnce() && dm.eos() != EosMode.ENABLED) {
                return List.of(Rule.REQUIRED_AFTER_ENABLED.error("Exactly-once mirror on workers that are not enabled",
                        "Mirror " + m.sourceAlias() + " of " + dm.address() + " wants exactly-once, but the workers are to run "
                                + EosMode.CONFIG_KEY + "=" + dm.eos().value() + ": Kafka rejects exactly.once.support=required "
                                + "unless the worker runs enabled.", dm.address()));
            }
        }
        if (f.live() == null) {
            return dm.manage() == ManageMode.ADOPT ? List.of(Rule.CONFIGURATION.error("Adopted KafkaMirrorMaker2 not found",
                    who + " does not exist, but " + dm.address() + " adopts it (manage = \"adopt\"). Create it, or use "
                            + "manage = \"own\" to let flowform create it.", dm.address())) : v1TargetFields(f, who);
        }
        if (f.live().workers().reconciliationPaused()) {
            return List.of(Rule.RECONCILIATION_PAUSED.error("Reconciliation is paused", "Reconciliation of " + who
                    + " is paused (strimzi.io/pause-reconciliation): the operator would not roll the workers. Resume it first.",
                    dm.address()));
        }
        if (f.current() == null) {
            return List.of(Rule.UNKNOWN_EOS_MODE.error("Unreadable exactly-once mode", who + " sets " + EosMode.CONFIG_KEY
                    + "=\"" + f.live().workers().eosValue() + "\" in its worker configuration, which is not disabled, preparing "
                    + "or enabled.", dm.address()));
        }
        List<Diagnostic> early = requiredTooEarly(f, who);
        if (!early.isEmpty()) {
            return early;
        }
        if (f.roll() instanceof Readiness.Failed failed && f.somethingChanges()) {
            return List.of(Rule.FAILED_RECONCILE.error("The last reconcile failed", who + ": " + failed.detail()
                    + ". Fix the cause first; the operator would not roll the workers.", dm.address()));
        }
        if (MirrorTargetRename.renamed(f) && !MirrorTargetRename.refusal(f, who).isEmpty()) {
            return MirrorTargetRename.refusal(f, who);
        }
        if (!f.set().unaddable().isEmpty()) {
            return List.of(Rule.CONFIGURATION.error("Mirror not found", who + " has no mirror from source alias(es) "
                    + String.join(", ", f.set().unaddable()) + " (spec.mirrors[]." + (f.v1() ? "source.alias" : "sourceCluster")
                    + "), and the configuration declares no bootstrap_servers for it, which a new mirror needs. Declare "
                    + "the source's bootstrap_servers to add it.", dm.address()));
        }
        return List.of();
    }

    /**
     * @return the refusal of creating a {@code v1} resource without the target's group id and storage topics: the
     *         {@code v1} schema requires {@code spec.target.groupId}, {@code configStorageTopic},
     *         {@code offsetStorageTopic} and {@code statusStorageTopic} (Strimzi proposal 115, the {@code v1}
     *         KafkaMirrorMaker2 layout), which flowform writes from those worker configuration keys
     */
    private static List<Diagnostic> v1TargetFields(MirrorMakerFacts f, String who) {
        List<String> missing = KafkaMirrorMaker2Manifest.V1_TARGET_FIELDS.keySet().stream()
                .filter(k -> !f.desired().config().containsKey(k)).toList();
        if (!f.v1() || missing.isEmpty()) {
            return List.of();
        }
        return List.of(Rule.CONFIGURATION.error("KafkaMirrorMaker2 v1 needs the target's group id and storage topics", who
                + " would be created in the v1 layout, whose schema requires spec.target.groupId, configStorageTopic, "
                + "offsetStorageTopic and statusStorageTopic. Declare " + String.join(", ", missing) + " in the target's "
                + "config; flowform writes them as those fields.", f.desired().address()));
    }

    /** @return the refusal of raising the workers' mode under a source connector that requires exactly-once already */
    private static List<Diagnostic> requiredTooEarly(MirrorMakerFacts f, String who) {
        DesiredMirrorMaker2 dm = f.desired();
        List<String> early = f.live().mirrors().stream()
                .filter(m -> ConnectorRules.isRequired(m.sourceConfig().get(ConnectorRules.EXACTLY_ONCE_SUPPORT)))
                .map(LiveMirrorMaker2.Mirror::source).toList();
        if (f.current() != EosMode.ENABLED && f.upgrade() && !early.isEmpty()) {
            return List.of(Rule.REQUIRED_AFTER_ENABLED.error("Source connector requires exactly-once on workers that are "
                    + "not enabled", who + ": spec.mirrors" + MirrorWork.mirrorSelector(f.v1(), String.join(", ", early))
                    + ".sourceConnector.config sets exactly.once.support=required while the workers run "
                    + f.current().value() + "; Kafka Connect rejects that configuration, and raising the workers' mode under it is not the KIP-618 order. "
                    + "Remove it first: plan with exactly_once = false and exactly_once_source_support = \""
                    + f.current().value() + "\", then turn exactly-once on again.", dm.address()));
        }
        return List.of();
    }

    /** Annotates the resource so that the operator restarts the first FAILED task of a RUNNING connector. */
    private static void restartFailedTask(MirrorMakerFacts f, List<Draft> chain, List<Change> changes) {
        for (LiveMirrorMaker2.ConnectorState c : f.live().connectors()) {
            for (TaskStatus t : c.tasks()) {
                if ("FAILED".equals(t.state()) && !"FAILED".equals(c.state())) {
                    String value = c.name() + ":" + t.id();
                    TaskRestart r = new TaskRestart(f.address(), f.ref(), Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION, value,
                            value);
                    changes.add(r.change());
                    chain.add(r.step(null));
                    return;
                }
            }
        }
    }

    private static void create(MirrorMakerFacts f, List<Draft> chain, List<Change> changes) {
        DesiredMirrorMaker2 dm = f.desired();
        Map<String, Object> manifest = new KafkaMirrorMaker2Manifest(f.ref().apiVersion(), OwnershipMarks.labels(f.scope()),
                OwnershipMarks.annotations(f.scope()), dm, MirrorWork.SOURCE_EOS).toMap();
        changes.add(new Change(dm.address(), f.ref(), Action.CREATE, AttributeChange.ofManifest(manifest, dm::isSensitive),
                ChangeReason.MIRROR_MAKER_MISSING.of(dm.namespace() + "/" + dm.name(), dm.eos().value())));
        // every config map of the manifest is encoded by key (SecretFields); these are the keys of sensitive variables
        Set<String> sensitive = new TreeSet<>(dm.config().keySet().stream().filter(dm::isSensitive).toList());
        sensitive.addAll(dm.sensitiveKeys());
        chain.add(new Draft(StepKind.CREATE_CONNECT_CLUSTER, dm.address(), f.ref(),
                new StepPayload.CreateObject(manifest, sensitive),
                "create KafkaMirrorMaker2 " + dm.name() + " with " + EosMode.CONFIG_KEY + "=" + dm.eos().value()));
        chain.add(rollWait(f, dm.eos(), null, "wait until every worker is up with " + EosMode.CONFIG_KEY + "="
                + dm.eos().value()));
        connectorWait(f, chain);
    }

    private static void existing(MirrorMakerFacts f, List<Draft> chain, List<Change> changes) {
        if (f.forcedRoll() && ForcedRoll.requested(f.live().workers())) {
            chain.add(new Draft(StepKind.WAIT_FOR_FORCED_ROLL, f.address(), f.ref(), new StepPayload.WaitForRoll(f.current(),
                    null), "wait for the forced roll already requested on " + MirrorMaker2Names.podSetName(f.desired().name())
                    + " (" + Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION + ")"));
        }
        if (!f.roll().isComplete()) {
            chain.add(rollWait(f, f.current(), f.live().workers().generation(), "wait for the roll already in progress "
                    + "(generation " + f.live().workers().generation() + ", " + f.roll().detail() + ")"));
        }
        if (MirrorTargetRename.renamed(f)) {
            changes.addAll(MirrorTargetRename.changes(f));
            chain.add(new Draft(StepKind.UPDATE_CONNECT_CLUSTER, f.address(), f.ref(), new StepPayload.PatchObject(
                    MirrorTargetRename.edits(f)), "rename target alias " + f.live().target() + " to " + f.desired().targetAlias()));
            chain.add(rollWait(f, f.current(), null, "wait until every " + f.desired().name() + "-mirrormaker2 pod has "
                    + "restarted with the new cluster aliases (KAFKA_MIRRORMAKER_2_CLUSTERS)"));
            connectorWait(f, chain);
            return;
        }
        changes.add(change(f));
        if (!f.upgrade()) {
            mirrorSteps(f, chain, f.current());
        }
        workerSteps(f, chain);
        if (f.upgrade()) {
            mirrorSteps(f, chain, f.desired().eos());
        }
        changes.addAll(f.set().connectorChanges());
    }

    /** The mode changes, each with its roll (the first carrying the other worker edits), or a plain worker update. */
    private static void workerSteps(MirrorMakerFacts f, List<Draft> chain) {
        List<FieldEdit> pending = f.workerEdits();
        if (f.forcedRoll() && f.current() == EosMode.PREPARING && f.path().contains(EosMode.ENABLED)
                && !ForcedRoll.requested(f.live().workers())) {
            // without a configuration hash the pods do not show what they run: make sure every one runs preparing
            // before enabled is set (rule 2); an interrupted or outside change may have left them on disabled
            forceRoll(f, EosMode.PREPARING, chain);
        }
        for (int i = 0; i < f.path().size(); i++) {
            EosMode mode = f.path().get(i);
            List<FieldEdit> edits = new ArrayList<>();
            edits.add(FieldEdit.set(MirrorWork.join(f.workerConfigPath(), EosMode.CONFIG_KEY), mode.value(), false));
            if (i == 0) {
                edits.addAll(pending);
            }
            chain.add(new Draft(StepKind.SET_WORKER_EOS, f.address(), f.ref(), new StepPayload.SetWorkerEos(mode, edits),
                    EosMode.CONFIG_KEY + " = " + mode.value() + " in the worker configuration of KafkaMirrorMaker2 "
                            + f.desired().name() + (i == 0 && !pending.isEmpty() ? " (with " + pending.size()
                            + " more worker setting(s))" : "")));
            chain.add(rollWait(f, mode, null, f.forcedRoll() ? "wait until the operator has written "
                    + EosMode.CONFIG_KEY + "=" + mode.value() + " to " + MirrorMaker2Names.configMapName(f.desired().name())
                    : "wait until every " + f.desired().name() + "-mirrormaker2 pod has restarted with "
                    + EosMode.CONFIG_KEY + "=" + mode.value()));
            forceRoll(f, mode, chain);
        }
        if (f.path().isEmpty() && !pending.isEmpty()) {
            chain.add(new Draft(StepKind.UPDATE_CONNECT_CLUSTER, f.address(), f.ref(), new StepPayload.PatchObject(pending),
                    pending.size() + " worker setting(s) of KafkaMirrorMaker2 " + f.desired().name()));
            chain.add(rollWait(f, f.current(), null, f.forcedRoll() ? "wait until the operator has written the new "
                    + "configuration to " + MirrorMaker2Names.configMapName(f.desired().name())
                    : "wait until every worker has restarted with the new configuration"));
            forceRoll(f, f.current(), chain);
        }
    }

    /**
     * On Strimzi 0.46-0.48 ({@link MirrorMakerFacts#forcedRoll()}): annotates the StrimziPodSet
     * {@code strimzi.io/manual-rolling-update: "true"}, then waits until every pod was re-created after it, is Ready,
     * the annotation is gone and the resource is Ready ({@link ForcedRoll#evaluate}). Nothing otherwise.
     */
    private static void forceRoll(MirrorMakerFacts f, EosMode mode, List<Draft> chain) {
        if (!f.forcedRoll()) {
            return;
        }
        String podSet = MirrorMaker2Names.podSetName(f.desired().name());
        ObjectRef ref = f.live().workers().podSet() != null ? f.live().workers().podSet().ref()
                : new ObjectRef(f.live().workers().api().coreApiVersion(), Strimzi.STRIMZI_POD_SET_KIND,
                f.desired().namespace(), podSet);
        chain.add(new Draft(StepKind.FORCE_ROLL, f.address(), ref, new StepPayload.PatchObject(List.of(FieldEdit.set(
                List.of("metadata", "annotations", Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION), ForcedRoll.REQUESTED, false))),
                Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION + " = \"" + ForcedRoll.REQUESTED + "\" on StrimziPodSet " + podSet
                        + " (Strimzi 0.46-0.48 do not roll it on a worker configuration change)"));
        chain.add(new Draft(StepKind.WAIT_FOR_FORCED_ROLL, f.address(), f.ref(), new StepPayload.WaitForRoll(mode, null),
                "wait until every " + podSet + " pod has restarted after the annotation with " + EosMode.CONFIG_KEY + "="
                        + mode.value()));
    }

    /**
     * The mirror edits as one patch: mirrors added, removed or renamed ({@link MirrorSet}), then settings. When the set
     * of cluster aliases changes, the pods roll (Strimzi {@code KAFKA_MIRRORMAKER_2_CLUSTERS}) and the plan waits for it
     * at {@code mode}, the workers' mode at that point; then for the connectors.
     */
    private static void mirrorSteps(MirrorMakerFacts f, List<Draft> chain, EosMode mode) {
        MirrorSet set = f.set();
        if (f.mirrors().isEmpty() && set.isEmpty()) {
            return;
        }
        List<FieldEdit> edits = new ArrayList<>(set.edits());
        List<String> parts = new ArrayList<>();
        set.renamed().forEach((from, to) -> parts.add("rename " + from + " to " + to));
        set.added().forEach(a -> parts.add("add " + a));
        set.removed().stream().filter(r -> !set.renamed().containsKey(r)).forEach(r -> parts.add("remove " + r));
        MirrorLanes lanes = MirrorLanes.of(f, mode);
        lanes.stopSteps(f, chain);
        for (MirrorWork w : f.mirrors()) {
            edits.addAll(w.edits());
            for (FieldEdit e : w.edits()) {
                parts.add(w.source() + ": " + (e.remove() ? "remove " + e.key()
                        : e.key() + "=" + (e.sensitive() ? dev.flowform.model.SecretKeys.MASK : String.valueOf(e.value()))));
            }
        }
        edits.addAll(lanes.startEdits(f.v1()));
        parts.addAll(lanes.startParts());
        chain.add(new Draft(set.rolls() ? StepKind.UPDATE_CONNECT_CLUSTER : StepKind.UPDATE_CONNECTOR, f.address(), f.ref(),
                new StepPayload.PatchObject(edits), "mirrors " + String.join(", ", parts)));
        if (set.rolls()) {
            chain.add(rollWait(f, mode, null, "wait until every " + f.desired().name() + "-mirrormaker2 pod has restarted "
                    + "with the new cluster aliases (KAFKA_MIRRORMAKER_2_CLUSTERS)"));
        }
        connectorWait(f, chain);
    }

    private static void connectorWait(MirrorMakerFacts f, List<Draft> chain) {
        if (f.replicas() == 0) {
            return;
        }
        chain.add(new Draft(StepKind.WAIT_FOR_CONNECTOR_READY, f.address(), f.ref(),
                new StepPayload.WaitForConnector("RUNNING", null), "wait until every connector and task of KafkaMirrorMaker2 "
                + f.desired().name() + " is RUNNING"));
    }

    private static Draft rollWait(MirrorMakerFacts f, EosMode mode, Long generation, String summary) {
        return new Draft(StepKind.WAIT_FOR_ROLL, f.address(), f.ref(), new StepPayload.WaitForRoll(mode, generation), summary);
    }

    private static Change change(MirrorMakerFacts f) {
        List<AttributeChange> attrs = new ArrayList<>();
        List<Change.Reason> reasons = new ArrayList<>();
        if (!f.path().isEmpty()) {
            String before = f.live().workers().eosValue();
            String shown = String.join(".", f.workerConfigPath()).replace(".[", "[");
            attrs.add(new AttributeChange(shown + ".\"" + EosMode.CONFIG_KEY + "\"", before == null ? null : Json.render(before),
                    Json.render(f.desired().eos().value()), false));
            if (f.path().size() == 2) {
                reasons.add(ChangeReason.EOS_ROLLOUT.of(f.path().get(0).value(), f.path().get(1).value()));
            } else {
                boolean down = f.path().get(0).ordinal() < f.current().ordinal();
                reasons.add((down ? ChangeReason.EOS_MODE_DOWN : ChangeReason.EOS_MODE_UP)
                        .of(f.current().value(), f.path().get(0).value()));
            }
        } else if (!f.workerEdits().isEmpty()) {
            reasons.add(ChangeReason.SPEC_CHANGED.of());
        }
        attrs.addAll(f.workerAttrs());
        List<String> on = new ArrayList<>();
        List<String> off = new ArrayList<>();
        for (MirrorWork w : f.mirrors()) {
            attrs.addAll(w.attrs());
            (w.eosOn() ? on : w.eosOff() ? off : new ArrayList<String>()).add(w.source());
        }
        if (!on.isEmpty()) {
            reasons.add(ChangeReason.MIRROR_EOS_ON.of(String.join(", ", on)));
        }
        MirrorLanes lanes = MirrorLanes.of(f, f.upgrade() ? f.desired().eos() : f.current());
        if (!lanes.stopFirst().isEmpty()) {
            reasons.add(ChangeReason.MIRROR_STOP_START.of(String.join(", ", lanes.stopFirst())));
        }
        if (!lanes.marked().isEmpty()) {
            reasons.add(ChangeReason.MIRROR_RESUME_STOPPED.of(String.join(", ", lanes.marked())));
        }
        if (!off.isEmpty()) {
            reasons.add(ChangeReason.MIRROR_EOS_OFF.of(String.join(", ", off)));
        }
        if (on.isEmpty() && off.isEmpty() && !f.mirrors().isEmpty()) {
            reasons.add(ChangeReason.MIRROR_CONFIG.of());
        }
        attrs.addAll(f.set().attrs());
        f.set().renamed().forEach((from, to) -> reasons.add(ChangeReason.MIRROR_ALIAS_RENAMED.of(from, to)));
        f.set().added().forEach(a -> reasons.add(ChangeReason.MIRROR_ADDED.of(a)));
        f.set().removed().stream().filter(r -> !f.set().renamed().containsKey(r))
                .forEach(r -> reasons.add(ChangeReason.MIRROR_REMOVED.of(r)));
        return new Change(f.address(), f.ref(), Action.UPDATE, attrs, reasons);
    }
}
