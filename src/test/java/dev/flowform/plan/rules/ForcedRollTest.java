package dev.flowform.plan.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.Condition;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConfigMap;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LivePod;
import dev.flowform.model.LivePodSet;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Readiness;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ForcedRoll}: detection from the pods and ConfigMap, and when a forced roll is over. */
class ForcedRollTest {

    private static final Instant ANNOTATED = Instant.parse("2026-12-01T12:00:00.700Z");

    private static LiveConnectCluster workers(boolean annotated, String created, String hash, Condition condition) {
        Map<String, String> revisions = Map.of("mm2-mirrormaker2-0", "r1", "mm2-mirrormaker2-1", "r1");
        LivePodSet ps = new LivePodSet(new ObjectRef("core.strimzi.io/v1beta2", "StrimziPodSet", "ns", "mm2-mirrormaker2"),
                1, 1L, revisions, 2, 2, 2, annotated ? Map.of("strimzi.io/manual-rolling-update", "true") : Map.of());
        List<LivePod> pods = List.of(
                new LivePod("mm2-mirrormaker2-0", "u0", "r1", hash, true, false, null,
                        "quay.io/strimzi/kafka:0.47.0-kafka-3.9.0", created),
                new LivePod("mm2-mirrormaker2-1", "u1", "r1", hash, true, false, null, null, "2026-12-01T12:00:05Z"));
        return new LiveConnectCluster(new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaMirrorMaker2", "ns", "mm2"), "1", 3,
                Map.of(), Map.of(), Map.of("replicas", 2), Map.of(), 3L, List.of(condition), ps, pods,
                new LiveConfigMap(new ObjectRef("v1", "ConfigMap", "ns", "mm2-mirrormaker2-config"),
                        "exactly.once.source.support=preparing\n"), Map.of());
    }

    private static final Condition READY = new Condition("Ready", "True", null, null);

    @Test
    void pods_without_the_hash_beside_a_worker_file_are_the_strimzi_0_46_to_0_48_behaviour() {
        assertThat(ForcedRoll.affected(workers(false, "2026-12-01T12:00:00Z", null, READY))).isTrue();
        assertThat(ForcedRoll.affected(workers(false, "2026-12-01T12:00:00Z", "abcd1234", READY))).isFalse();
        assertThat(ForcedRoll.strimziVersion(workers(false, null, null, READY))).contains("0.47.0");
    }

    @Test
    void complete_only_once_the_annotation_is_gone_and_every_pod_is_as_new_as_the_annotation() {
        // creationTimestamp has whole seconds: a pod of the annotation's second counts as new
        assertThat(ForcedRoll.evaluate(workers(false, "2026-12-01T12:00:00Z", null, READY), ANNOTATED, EosMode.PREPARING))
                .isInstanceOf(Readiness.Complete.class);
        Readiness pending = ForcedRoll.evaluate(workers(true, "2026-12-01T12:00:00Z", null, READY), ANNOTATED,
                EosMode.PREPARING);
        assertThat(pending).isInstanceOf(Readiness.InProgress.class);
        assertThat(pending.detail()).contains("strimzi.io/manual-rolling-update is still on StrimziPodSet mm2-mirrormaker2");
        Readiness old = ForcedRoll.evaluate(workers(false, "2026-12-01T11:59:59Z", null, READY), ANNOTATED, EosMode.PREPARING);
        assertThat(old.detail()).contains("1/2 pods restarted since the annotation");
        assertThat(ForcedRoll.evaluate(workers(false, "2026-12-01T11:59:59Z", null, READY), null, EosMode.PREPARING))
                .as("without the annotate time the operator's removal of the annotation is the evidence")
                .isInstanceOf(Readiness.Complete.class);
    }

    @Test
    void the_mode_must_be_in_the_config_map_and_not_ready_is_a_failure() {
        assertThat(ForcedRoll.evaluate(workers(false, "2026-12-01T12:00:01Z", null, READY), ANNOTATED, EosMode.ENABLED)
                .detail()).contains("ConfigMap does not contain exactly.once.source.support=enabled");
        assertThat(ForcedRoll.evaluate(workers(false, "2026-12-01T12:00:01Z", null,
                new Condition("NotReady", "True", "ConnectRestException", "boom")), ANNOTATED, EosMode.PREPARING))
                .isInstanceOf(Readiness.Failed.class);
    }
}
