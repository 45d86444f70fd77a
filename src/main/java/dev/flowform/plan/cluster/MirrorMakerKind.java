package dev.flowform.plan.cluster;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.strimzi.KafkaMirrorMaker2Manifest;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.Rule;
import dev.flowform.plan.rules.ForcedRoll;
import dev.flowform.plan.rules.MirrorCheck;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A KafkaMirrorMaker2 in either layout ({@code v1beta2} or {@code v1}; a new one in the layout the server serves): its
 * workers' configuration is the target cluster's {@code config}, its connectors are its mirrors, edited by one patch
 * ({@link MirrorSteps}) and waited for together ({@link MirrorCheck}). Pure.
 *
 * @param live       the live resource, or null when it does not exist
 * @param ref        the live object, or the one to create
 * @param workerDiff the worker configuration edits apart from the exactly-once mode
 * @param mirrors    the mirrors that need edits
 * @param set        the mirrors added, removed or renamed (null when the resource does not exist)
 */
record MirrorMakerKind(DesiredMirrorMaker2 desired, LiveMirrorMaker2 live, ObjectRef ref, SpecDiff workerDiff,
                       List<MirrorWork> mirrors, MirrorSet set) implements ResourceKind {

    /** Strimzi's defaults of a KafkaMirrorMaker2's group id and storage topics ({@code KafkaMirrorMaker2Configuration}). */
    static final List<String> DEFAULTS = List.of(MirrorConnectors.STRIMZI_DEFAULT_GROUP_ID,
            "mirrormaker2-cluster-configs", "mirrormaker2-cluster-offsets", "mirrormaker2-cluster-status");

    MirrorMakerKind {
        mirrors = List.copyOf(mirrors);
    }

    /**
     * @param live  the live resource, or null
     * @return the kind's facts
     */
    static MirrorMakerKind of(PlanScope scope, DesiredMirrorMaker2 dm, LiveMirrorMaker2 live) {
        if (live == null) {
            StrimziApi api = scope.live().api() != null ? scope.live().api() : StrimziApi.V1BETA2;
            ObjectRef ref = new ObjectRef(api.kafkaApiVersion(), KafkaMirrorMaker2Manifest.KIND, dm.namespace(), dm.name());
            return new MirrorMakerKind(dm, null, ref, new SpecDiff(List.of(), List.of()), List.of(), null);
        }
        List<MirrorWork> mirrors = new ArrayList<>();
        for (DesiredMirror m : dm.mirrors()) {
            live.mirror(m.sourceAlias()).ifPresent(lm -> {
                MirrorWork w = MirrorWork.of(dm, m, lm, live.v1Layout(), MirrorSet.sourceEntry(live, lm),
                        live.workers().annotations());
                if (!w.isEmpty()) {
                    mirrors.add(w);
                }
            });
        }
        return new MirrorMakerKind(dm, live, live.ref(), workerDiff(dm, live), mirrors,
                MirrorSet.of(dm, live, live.ref()));
    }

    /** @return the resource address */
    String address() {
        return desired.address();
    }

    /** @return true when the object is (or is to be created) in the {@code v1} layout */
    boolean v1() {
        return live != null ? live.v1Layout() : StrimziApi.fromApiVersion(ref.apiVersion()) == StrimziApi.V1;
    }

    /** @return the target alias: the live one, or the declared one for a new resource */
    String target() {
        return live != null ? live.target() : desired.targetAlias();
    }

    /** @return true when the block names another target alias than the resource */
    boolean renamed() {
        return MirrorTargetRename.renamed(this);
    }

    /** @return where a KafkaMirrorMaker2 keeps its identity: the target's {@code config}, or {@code spec.target} in v1 */
    ClusterIdentity.Places places() {
        Map<?, ?> target = live.workers().spec().get("target") instanceof Map<?, ?> t ? t : Map.of();
        return new ClusterIdentity.Places(v1(), workerConfigPath(), List.of("spec", "target"), live.workers().config(),
                target, DEFAULTS);
    }

    @Override
    public String blockType() {
        return "mirrormaker2";
    }

    @Override
    public List<String> workerConfigPath() {
        if (v1()) {
            return List.of("spec", "target", "config");
        }
        return List.of("spec", "clusters", "[alias=" + target() + "]", "config");
    }

    @Override
    public Map<String, Object> manifest(PlanScope scope) {
        return new KafkaMirrorMaker2Manifest(ref.apiVersion(), OwnershipMarks.labels(scope),
                OwnershipMarks.annotations(scope), desired, MirrorWork.SOURCE_EOS).toMap();
    }

    /** @return the worker keys of sensitive variables, and every other key of the block from one (by key) */
    @Override
    public Set<String> sensitiveKeys() {
        Set<String> sensitive = new TreeSet<>(desired.config().keySet().stream().filter(desired::isSensitive).toList());
        sensitive.addAll(desired.sensitiveKeys());
        return sensitive;
    }

    @Override
    public Change.Reason creationReason() {
        return ChangeReason.MIRROR_MAKER_MISSING.of(desired.namespace() + "/" + desired.name(), desired.eos().value());
    }

    @Override
    public String setModeSummary(EosMode mode, int more) {
        return EosMode.CONFIG_KEY + " = " + mode.value() + " in the worker configuration of KafkaMirrorMaker2 "
                + desired.name() + (more > 0 ? " (with " + more + " more worker setting(s))" : "");
    }

    @Override
    public String updateSummary(int edits) {
        return edits + " worker setting(s) of KafkaMirrorMaker2 " + desired.name();
    }

    @Override
    public String rolledSummary(EosMode mode, boolean forced) {
        String configMap = MirrorMaker2Names.configMapName(desired.name());
        if (mode == null) {
            return forced ? "wait until the operator has written the new configuration to " + configMap
                    : "wait until every worker has restarted with the new configuration";
        }
        return forced ? "wait until the operator has written " + EosMode.CONFIG_KEY + "=" + mode.value() + " to " + configMap
                : "wait until every " + desired.name() + "-mirrormaker2 pod has restarted with " + EosMode.CONFIG_KEY + "="
                + mode.value();
    }

    /**
     * Refuses to create a {@code v1} resource without the target's group id and storage topics: the {@code v1} schema
     * requires {@code spec.target.groupId}, {@code configStorageTopic}, {@code offsetStorageTopic} and
     * {@code statusStorageTopic} (Strimzi proposal 115), which flowform writes from those worker configuration keys.
     */
    @Override
    public Verdict v1Layout(ClusterFacts f) {
        List<String> missing = KafkaMirrorMaker2Manifest.V1_TARGET_FIELDS.keySet().stream()
                .filter(k -> !desired.config().containsKey(k)).toList();
        if (f.existing() != null || !v1() || missing.isEmpty()) {
            return Verdict.PASS;
        }
        return Verdict.refuse(Rule.CONFIGURATION.error("KafkaMirrorMaker2 v1 needs the target's group id and storage topics",
                who() + " would be created in the v1 layout, whose schema requires spec.target.groupId, configStorageTopic, "
                        + "offsetStorageTopic and statusStorageTopic. Declare " + String.join(", ", missing) + " in the "
                        + "target's config; flowform writes them as those fields.", address()));
    }

    @Override
    public boolean connectorsChange() {
        return !mirrors.isEmpty() || (set != null && !set.isEmpty()) || renamed();
    }

    @Override
    public boolean connectorsInResource() {
        return true;
    }

    @Override
    public boolean connectorsNeedEnabled() {
        return mirrors.stream().anyMatch(w -> desired.mirrors().stream()
                .anyMatch(m -> m.sourceAlias().equals(w.source()) && m.exactlyOnce()));
    }

    @Override
    public boolean writesConnectors() {
        return live == null || connectorsChange();
    }

    @Override
    public String connectorWrites() {
        return "the mirror changes";
    }

    @Override
    public boolean exactlyOnceConnectors() {
        return desired.mirrors().stream().anyMatch(DesiredMirror::exactlyOnce);
    }

    /**
     * The mirrors' findings: a refusal (the resource is one object, so a mirror cannot be left out) of an exactly-once
     * mirror on workers that are not to run enabled, of a source connector that requires exactly-once under workers
     * whose mode is to rise, of a target rename with other changes, of a mirror that cannot be added; then the warnings
     * of {@link MirrorFindings} and about FAILED tasks.
     */
    @Override
    public Verdict connectors(ClusterFacts f) {
        List<Diagnostic> out = new ArrayList<>(MirrorFindings.refusals(f, this));
        boolean refused = !out.isEmpty();
        if (live != null) {
            out.addAll(MirrorFindings.of(live, desired));
            out.addAll(MirrorFindings.renamed(live, desired, set.renamed()));
            failedTasks(f).ifPresent(out::add);
        }
        return new Verdict(out, refused);
    }

    /** The cost of a renamed target alias and the forced rolls, once the plan goes ahead. */
    @Override
    public Verdict accepted(ClusterFacts f) {
        List<Diagnostic> out = new ArrayList<>();
        if (renamed()) {
            out.add(MirrorTargetRename.warning(this));
        }
        ClusterFacts.Existing e = f.existing();
        if (f.forcedRoll() && f.somethingChanges() && (ForcedRoll.requested(e.cluster()) || !e.path().isEmpty()
                || !e.spec().isEmpty())) {
            out.add(MirrorFindings.forcedRoll(live, desired));
        }
        return new Verdict(out, false);
    }

    @Override
    public List<TaskRestart> restarts(ClusterFacts f) {
        if (live == null || f.somethingChanges() || !f.existing().restartable()) {
            return List.of();
        }
        for (LiveMirrorMaker2.ConnectorState c : live.connectors()) {
            for (TaskStatus t : c.tasks()) {
                if ("FAILED".equals(t.state()) && !"FAILED".equals(c.state())) {
                    String value = c.name() + ":" + t.id();
                    return List.of(new TaskRestart(address(), ref, Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION, value, value));
                }
            }
        }
        return List.of();
    }

    @Override
    public void connectorSteps(StepSequencer s, EosMode mode) {
        MirrorSteps.add(s, this, mode);
    }

    @Override
    public void resourceChange(ClusterFacts f, List<AttributeChange> attrs, List<Change.Reason> reasons) {
        if (renamed()) {
            MirrorTargetRename.change(this, attrs, reasons);
        } else {
            MirrorSteps.change(f, this, attrs, reasons);
        }
    }

    @Override
    public List<Change> trailingChanges() {
        return renamed() ? MirrorTargetRename.connectorChanges(this) : set.connectorChanges();
    }

    @Override
    public String groupId() {
        return MirrorConnectors.groupId(desired, live);
    }

    @Override
    public Map<String, Integer> taskCounts(ClusterFacts f) {
        return MirrorConnectors.tasks(desired, live);
    }

    @Override
    public Map<String, String> flowOf() {
        return Map.of();
    }

    /** @return the warning about FAILED connectors and tasks while the resource reports Ready (rule 8) */
    private java.util.Optional<Diagnostic> failedTasks(ClusterFacts f) {
        List<String> failed = MirrorCheck.failedTasks(live);
        if (failed.isEmpty()) {
            return java.util.Optional.empty();
        }
        List<TaskRestart> restart = f.somethingChanges() ? List.of() : restarts(f);
        String what = f.somethingChanges() ? "The planned changes restart the tasks."
                : !restart.isEmpty() ? "The plan asks the operator to restart the first failed task ("
                + Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION + "); check the task's trace if it fails again."
                : "Once the operator reconciles it again, restart a task with kubectl annotate kafkamirrormaker2 "
                + desired.name() + " " + Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION + "=\"<connector>:<task>\".";
        return java.util.Optional.of(Rule.CONNECTOR_FAILED.warning("FAILED while KafkaMirrorMaker2 is Ready", who()
                + " reports Ready, but " + String.join("; ", failed) + " (Strimzi sets NotReady only for a FAILED "
                + "connector, not a FAILED task). " + what, address()));
    }

    /**
     * The worker configuration edits: the target's declared bootstrap servers (a worker change that rolls the pods) and
     * keys, undeclared ones removed under own; in {@code v1} the group id and storage topics are {@code spec.target}
     * fields.
     */
    private static SpecDiff workerDiff(DesiredMirrorMaker2 dm, LiveMirrorMaker2 live) {
        List<FieldEdit> edits = new ArrayList<>();
        List<AttributeChange> attrs = new ArrayList<>();
        boolean v1 = live.v1Layout();
        Map<String, String> have = live.workers().config();
        List<String> entry = v1 ? List.of("spec", "target") : List.of("spec", "clusters", "[alias=" + live.target() + "]");
        List<String> prefix = MirrorWork.join(entry, "config");
        Map<?, ?> target = !v1 ? LiveMirrorMaker2.cluster(live.workers().spec(), live.target())
                : live.workers().spec().get("target") instanceof Map<?, ?> t ? t : Map.of();
        if (dm.targetBootstrap() != null) {
            targetField(entry, "bootstrapServers", dm.targetBootstrap(), target, false, edits, attrs);
        }
        dm.config().forEach((k, v) -> {
            String field = v1 ? KafkaMirrorMaker2Manifest.V1_TARGET_FIELDS.get(k) : null;
            if (field != null) {
                targetField(entry, field, v, target, dm.isSensitive(k), edits, attrs);
            } else if (!v.equals(have.get(k))) {
                edits.add(FieldEdit.set(MirrorWork.join(prefix, k), v, dm.isSensitive(k)));
                attrs.add(new AttributeChange(shown(prefix) + ".\"" + k + "\"", have.containsKey(k)
                        ? Json.render(have.get(k)) : null, Json.render(v), dm.isSensitive(k)));
            }
        });
        if (dm.manage() == ManageMode.OWN) {
            have.forEach((k, v) -> {
                if (!dm.config().containsKey(k) && !k.equals(EosMode.CONFIG_KEY)) {
                    edits.add(FieldEdit.remove(MirrorWork.join(prefix, k), dm.isSensitive(k)));
                    attrs.add(new AttributeChange(shown(prefix) + ".\"" + k + "\"", Json.render(v), null, dm.isSensitive(k)));
                }
            });
        }
        return new SpecDiff(edits, attrs);
    }

    /** Adds the edit of one field of the target cluster's entry ({@code entry}) when {@code want} differs. */
    private static void targetField(List<String> entry, String field, String want, Map<?, ?> target, boolean sensitive,
                                    List<FieldEdit> edits, List<AttributeChange> attrs) {
        Object old = target.get(field);
        if (!want.equals(old == null ? null : old.toString())) {
            edits.add(FieldEdit.set(MirrorWork.join(entry, field), want, sensitive));
            attrs.add(new AttributeChange(shown(MirrorWork.join(entry, field)),
                    old == null ? null : Json.render(old.toString()), Json.render(want), sensitive));
        }
    }

    /** @return a path as plans show it: {@code spec.clusters[alias=dc2].config} */
    static String shown(List<String> path) {
        return String.join(".", path).replace(".[", "[");
    }
}
