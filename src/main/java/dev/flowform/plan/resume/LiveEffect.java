package dev.flowform.plan.resume;

import dev.flowform.model.LiveState;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.Ownership;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepPayload;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Whether a mutation of an interrupted run reached the cluster: read from the live object, since the
 * journal recorded only its intent. Pure.
 */
final class LiveEffect {

    private LiveEffect() {
    }

    /**
     * @return true when the live cluster shows the mutation's effect: the created object exists, the
     *         deleted one is gone, every edited field has the step's value (sensitive values compared
     *         through {@code hash}, as the journal only holds their hashes)
     */
    static boolean shows(Step s, LiveState live, UnaryOperator<String> hash) {
        Map<String, Object> raw = raw(s.object(), live);
        StepPayload p = s.payload();
        if (p instanceof StepPayload.CreateObject) {
            return raw != null;
        }
        if (p instanceof StepPayload.DeleteObject) {
            return raw == null;
        }
        List<FieldEdit> edits = p instanceof StepPayload.PatchObject po ? po.edits()
                : p instanceof StepPayload.SetWorkerEos se ? se.edits() : null;
        if (edits == null || raw == null) {
            return false;
        }
        // One update carries all of a step's edits, so the ownership marks that ride along with a spec change say
        // nothing more about whether it landed (and may have been rewritten since by a transfer): judge such a step
        // by its other edits, and a step that only writes marks by the marks.
        List<FieldEdit> own = edits.stream().filter(e -> !Ownership.isMark(e.path())).toList();
        for (FieldEdit e : own.isEmpty() ? edits : own) {
            Object v = at(raw, e.path());
            if (e.remove()) {
                if (v != null) {
                    return false;
                }
            } else if (v == null) {
                return false;
            } else if (e.sensitive()) {
                if (!hash.apply(String.valueOf(v)).equals(String.valueOf(e.value()))) {
                    return false;
                }
            } else if (!Json.sameValue(v, e.value())) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Object> raw(ObjectRef ref, LiveState live) {
        return switch (ref.kind()) {
            case "KafkaConnect", "KafkaConnector", Strimzi.KAFKA_MIRROR_MAKER_2_KIND ->
                    live.body(ref.kind(), ref.namespace(), ref.name()).orElse(null);
            case Strimzi.STRIMZI_POD_SET_KIND -> live.mirrorMaker(ref.namespace(), CarriedForcedRoll.owner(ref))
                    .map(m -> m.workers().podSet()).filter(ps -> ps.ref().name().equals(ref.name()))
                    .map(ps -> Map.<String, Object>of("metadata", Map.of("annotations", ps.annotations()))).orElse(null);
            default -> null;
        };
    }

    private static Object at(Map<String, Object> root, List<String> path) {
        Object cur = root;
        for (String k : path) {
            if (!(cur instanceof Map<?, ?> m)) {
                return null;
            }
            cur = m.get(k);
        }
        return cur;
    }
}
