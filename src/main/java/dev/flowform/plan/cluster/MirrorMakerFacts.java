package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.KafkaMirrorMaker2Manifest;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.ForcedRoll;
import dev.flowform.plan.rules.RollCheck;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one KafkaMirrorMaker2 is, computed once before its guards are asked (as {@link ClusterFacts} for a
 * KafkaConnect). Pure.
 *
 * @param scope       the plan's scope
 * @param desired     the block, derived
 * @param ref         the live object, or the one to create
 * @param live        the live object, or null when it does not exist
 * @param current     the workers' mode its spec sets; null when the value is not a mode
 * @param roll        rule 7 for its current generation (null when it does not exist)
 * @param path        the modes to set, in order (rules 2 and 5)
 * @param workerEdits worker configuration edits apart from the exactly-once mode
 * @param workerAttrs the same as attribute changes
 * @param mirrors     the mirrors that need edits
 * @param missing     source aliases declared but absent from the live spec
 * @param set         the mirrors added, removed or renamed (null when the resource does not exist)
 * @param replicas    the number of workers after the plan
 * @param forcedRoll  true when the operator will not roll the pods on a worker configuration change (Strimzi
 *                    0.46-0.48, {@link ForcedRoll#affected}): every worker step is followed by a forced roll
 */
record MirrorMakerFacts(PlanScope scope, DesiredMirrorMaker2 desired, ObjectRef ref, LiveMirrorMaker2 live, EosMode current,
                        Readiness roll, List<EosMode> path, List<FieldEdit> workerEdits, List<AttributeChange> workerAttrs,
                        List<MirrorWork> mirrors, List<String> missing, MirrorSet set, int replicas,
                        boolean forcedRoll) {

    MirrorMakerFacts {
        path = List.copyOf(path);
        workerEdits = List.copyOf(workerEdits);
        workerAttrs = List.copyOf(workerAttrs);
        mirrors = List.copyOf(mirrors);
        missing = List.copyOf(missing);
    }

    /**
     * @param scope the plan's scope
     * @param dm    the block, derived
     * @return its facts
     */
    static MirrorMakerFacts of(PlanScope scope, DesiredMirrorMaker2 dm) {
        LiveMirrorMaker2 live = scope.live().mirrorMaker(dm.namespace(), dm.name()).orElse(null);
        int replicas = dm.replicas() != null ? dm.replicas()
                : live == null || live.workers().replicas() == null ? RollCheck.STRIMZI_DEFAULT_REPLICAS
                : live.workers().replicas();
        if (live == null) {
            StrimziApi api = scope.live().api() != null ? scope.live().api() : StrimziApi.V1BETA2;
            ObjectRef ref = new ObjectRef(api.kafkaApiVersion(), KafkaMirrorMaker2Manifest.KIND, dm.namespace(), dm.name());
            return new MirrorMakerFacts(scope, dm, ref, null, null, null, List.of(), List.of(), List.of(), List.of(),
                    List.of(), null, replicas, false);
        }
        EosMode current = live.workers().eosMode().orElse(null);
        boolean forced = ForcedRoll.affected(live.workers());
        Readiness roll = RollCheck.evaluate(live.workers(), live.workers().generation(), current, !forced);
        List<FieldEdit> edits = new ArrayList<>();
        List<AttributeChange> attrs = new ArrayList<>();
        workerConfig(dm, live, edits, attrs);
        List<MirrorWork> mirrors = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (DesiredMirror m : dm.mirrors()) {
            live.mirror(m.sourceAlias()).ifPresentOrElse(lm -> {
                MirrorWork w = MirrorWork.of(dm, m, lm, live.v1Layout(), MirrorSet.sourceEntry(live, lm),
                        live.workers().annotations());
                if (!w.isEmpty()) {
                    mirrors.add(w);
                }
            }, () -> missing.add(m.sourceAlias()));
        }
        return new MirrorMakerFacts(scope, dm, live.ref(), live, current, roll,
                current == null ? List.of() : ClusterFacts.eosPath(current, dm.eos()), edits, attrs, mirrors, missing,
                MirrorSet.of(dm, live, live.ref()), replicas, forced);
    }

    /** @return the resource address */
    String address() {
        return desired.address();
    }

    /** @return the path segments of the worker configuration in the live object's layout */
    List<String> workerConfigPath() {
        if (v1()) {
            return List.of("spec", "target", "config");
        }
        return List.of("spec", "clusters", "[alias=" + (live != null ? live.target() : desired.targetAlias()) + "]", "config");
    }

    /** @return true when the object is (or is to be created) in the {@code v1} layout */
    boolean v1() {
        return live != null ? live.v1Layout() : StrimziApi.fromApiVersion(ref.apiVersion()) == StrimziApi.V1;
    }

    /** @return true when the plan writes to the object */
    boolean somethingChanges() {
        return live == null || !path.isEmpty() || !workerEdits.isEmpty() || !mirrors.isEmpty() || !set.isEmpty()
                || MirrorTargetRename.renamed(this);
    }

    /** @return true when the workers' mode goes up (mirrors after the rolls) */
    boolean upgrade() {
        return live == null || desired.eos().ordinal() > current.ordinal();
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
    private static String shown(List<String> path) {
        return String.join(".", path).replace(".[", "[");
    }

    /**
     * Adds the worker configuration edits: the target cluster's declared bootstrap servers, declared keys (and, under
     * own, removal of undeclared ones). In the {@code v1} layout {@code group.id} and the storage topics are fields of
     * {@code spec.target} (its {@code config} forbids them; Strimzi {@code KafkaMirrorMaker2TargetClusterSpec} at 1.0.0),
     * so a declared one edits the field. The target is the cluster the workers themselves connect to, so a change of
     * its bootstrap servers is a worker change that rolls the pods, like a KafkaConnect's {@code spec.bootstrapServers}.
     */
    private static void workerConfig(DesiredMirrorMaker2 dm, LiveMirrorMaker2 live, List<FieldEdit> edits,
                                     List<AttributeChange> attrs) {
        boolean v1 = live.v1Layout();
        Map<String, String> have = live.workers().config();
        List<String> entry = v1 ? List.of("spec", "target") : List.of("spec", "clusters", "[alias=" + live.target() + "]");
        List<String> prefix = MirrorWork.join(entry, "config");
        String shown = shown(prefix);
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
                attrs.add(new AttributeChange(shown + ".\"" + k + "\"", have.containsKey(k) ? Json.render(have.get(k)) : null,
                        Json.render(v), dm.isSensitive(k)));
            }
        });
        if (dm.manage() == ManageMode.OWN) {
            have.forEach((k, v) -> {
                if (!dm.config().containsKey(k) && !k.equals(EosMode.CONFIG_KEY)) {
                    edits.add(FieldEdit.remove(MirrorWork.join(prefix, k), dm.isSensitive(k)));
                    attrs.add(new AttributeChange(shown + ".\"" + k + "\"", Json.render(v), null, dm.isSensitive(k)));
                }
            });
        }
    }
}
