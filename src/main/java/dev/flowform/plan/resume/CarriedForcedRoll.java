package dev.flowform.plan.resume;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.LiveState;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.plan.rules.ForcedRoll;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Carries an unfinished forced roll of a KafkaMirrorMaker2 (Strimzi 0.46-0.48, {@link ForcedRoll}) into the plan that
 * continues an interrupted run; the pods carry no hash, so the journal decides: annotate again and wait when the
 * annotation step may not have landed (one roll too many beats workers left on the old mode), else only wait, taking
 * the operator's removal of the annotation as evidence. Pure.
 */
final class CarriedForcedRoll {

    private CarriedForcedRoll() {
    }

    /**
     * @return the steps of the prior plan's unfinished forced rolls to carry (annotate and wait, or the wait alone), at
     *         most one per resource, given where each step got to and the open mutations the live cluster shows
     */
    static List<Step> of(List<Step> steps, Map<Integer, Step> byId, Resume.PriorRun prior, List<Step> confirmed,
                         LiveState live, long runId) {
        List<Step> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = steps.size() - 1; i >= 0; i--) {
            Step annotate = steps.get(i);
            if (annotate.kind() != StepKind.FORCE_ROLL || seen.contains(annotate.address())) {
                continue;
            }
            Step wait = steps.stream().filter(s -> s.kind() == StepKind.WAIT_FOR_FORCED_ROLL
                    && s.dependsOn().contains(annotate.id())).findFirst().orElse(null);
            Step worker = workerStep(annotate, byId);
            if (wait == null || worker == null || prior.state(wait.id()) == Resume.StepState.DONE) {
                continue;
            }
            boolean annotated = prior.state(annotate.id()) == Resume.StepState.DONE || confirmed.contains(annotate);
            boolean workerReached = prior.state(worker.id()) == Resume.StepState.DONE || confirmed.contains(worker);
            Optional<LiveMirrorMaker2> mm2 = live.mirrorMaker(wait.object().namespace(), wait.object().name());
            if (mm2.isEmpty() || mm2.get().workers().eosMode().isEmpty() || !(annotated || workerReached)) {
                continue;
            }
            seen.add(annotate.address());
            EosMode mode = mm2.get().workers().eosMode().get();
            if (!annotated) {
                out.add(new Step(0, StepKind.FORCE_ROLL, annotate.address(), annotate.object(), List.of(),
                        annotate.payload(), "annotate " + annotate.object().name() + " again for the forced roll that "
                        + "interrupted run " + runId + " did not see through (" + EosMode.CONFIG_KEY + "=" + mode.value() + ")"));
            }
            out.add(new Step(0, StepKind.WAIT_FOR_FORCED_ROLL, wait.address(), wait.object(), List.of(),
                    new StepPayload.WaitForRoll(mode, null), "confirm that every " + annotate.object().name() + " pod has "
                    + "restarted with " + EosMode.CONFIG_KEY + "=" + mode.value() + " (interrupted run " + runId
                    + " did not see it)"));
        }
        return out;
    }

    /** @return the worker configuration step the forced roll follows (through the waits between), or null */
    private static Step workerStep(Step annotate, Map<Integer, Step> byId) {
        Step cur = annotate;
        while (!cur.dependsOn().isEmpty()) {
            cur = byId.get(cur.dependsOn().get(0));
            if (cur == null) {
                return null;
            }
            if (cur.kind() == StepKind.SET_WORKER_EOS || cur.kind() == StepKind.UPDATE_CONNECT_CLUSTER) {
                return cur;
            }
            if (cur.kind().isMutation()) {
                return null;
            }
        }
        return null;
    }

    /** @return the resource name a StrimziPodSet {@code <name>-mirrormaker2} belongs to, else the object's name */
    static String owner(ObjectRef ref) {
        String suffix = Strimzi.MIRROR_MAKER_2_SUFFIX;
        if (Strimzi.STRIMZI_POD_SET_KIND.equals(ref.kind()) && ref.name().endsWith(suffix)) {
            return ref.name().substring(0, ref.name().length() - suffix.length());
        }
        return ref.name();
    }
}
