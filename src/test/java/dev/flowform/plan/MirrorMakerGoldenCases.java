package dev.flowform.plan;

import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The KafkaMirrorMaker2 situations of the golden-plan harness ({@link GoldenPlansTest}), in both layouts
 * ({@code mm2-v1beta2-*}, {@code mm2-v1-*}), also with Strimzi 0.46-0.48's MirrorMaker 2 pods that the operator does not
 * roll ({@code *-no-roll-*}: forced rolls), and with secrets in the configuration and the live object.
 */
final class MirrorMakerGoldenCases {

    private static final FamilyWorld.Kind MM2 = FamilyWorld.Kind.KAFKA_MIRROR_MAKER_2;
    private static final String JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"mm2\" "
            + "password=\"";

    private MirrorMakerGoldenCases() {
    }

    /** @return the cases by name, in order */
    static Map<String, Supplier<GoldenPlansTest.Situation>> cases() {
        Map<String, Supplier<GoldenPlansTest.Situation>> m = new LinkedHashMap<>();
        m.put("mm2-v1beta2-eos-rollout", () -> adopt(FamilyWorld.of(MM2, StrimziApi.V1BETA2, null), true));
        m.put("mm2-v1beta2-disable-reverse-order", () -> adopt(FamilyWorld.of(MM2, StrimziApi.V1BETA2, "enabled")
                .sourceExactlyOnce(), false));
        m.put("mm2-v1beta2-roll-in-progress", () -> adopt(FamilyWorld.of(MM2, StrimziApi.V1BETA2, "preparing")
                .roll(World.Roll.IN_PROGRESS, EosMode.DISABLED), true));
        m.put("mm2-v1beta2-create-owned", () -> created(StrimziApi.V1BETA2, Map.of("group.id", "mm2-cluster"), Map.of()));
        m.put("mm2-v1-eos-rollout", () -> adopt(FamilyWorld.of(MM2, StrimziApi.V1, null), true));
        m.put("mm2-v1-create-owned", () -> created(StrimziApi.V1, Map.of("group.id", "mm2-cluster", "config.storage.topic",
                "mm2-cluster-configs", "offset.storage.topic", "mm2-cluster-offsets", "status.storage.topic",
                "mm2-cluster-status"), Map.of()));
        for (StrimziApi api : List.of(StrimziApi.V1BETA2, StrimziApi.V1)) {
            String layout = api == StrimziApi.V1 ? "mm2-v1-" : "mm2-v1beta2-";
            m.put(layout + "no-roll-eos-rollout", () -> adopt(noRoll(FamilyWorld.of(MM2, api, null)), true));
            m.put(layout + "no-roll-disable-reverse-order", () -> adopt(noRoll(FamilyWorld.of(MM2, api, "enabled")
                    .sourceExactlyOnce()), false));
        }
        m.put("mm2-v1beta2-create-owned-with-secrets", () -> created(StrimziApi.V1BETA2, Map.of("group.id", "mm2-cluster",
                "sasl.jaas.config", JAAS + GoldenPlansTest.SECRET + "\";"), Map.of("sasl.jaas.config", JAAS
                + GoldenPlansTest.SECRET + "\";")));
        m.put("mm2-v1beta2-secret-rotated", () -> {
            FamilyWorld w = FamilyWorld.of(MM2, StrimziApi.V1BETA2, "enabled").sourceExactlyOnce()
                    .workerConfig("sasl.jaas.config", JAAS + "old-" + GoldenPlansTest.SECRET + "\";");
            return new GoldenPlansTest.Situation(w.adopt(true, Map.of("sasl.jaas.config", JAAS + GoldenPlansTest.SECRET
                    + "\";")), w.toLive());
        });
        m.put("mm2-acls-per-cluster-users", MirrorMakerGoldenCases::perClusterUsers);
        return m;
    }

    /**
     * A KafkaMirrorMaker2 whose target and source clusters authenticate as different users (SCRAM {@code mm2-target},
     * TLS {@code mm2-source}): exactly-once needs the transactional IDs of the target's user, which lacks the workers'
     * one, while the source's user, which holds them all, is not the one asked (docs/domain-rules.md, rule 10).
     */
    @SuppressWarnings("unchecked")
    private static GoldenPlansTest.Situation perClusterUsers() {
        MirrorMakerWorld w = new MirrorMakerWorld("preparing", false);
        List<Object> clusters = (List<Object>) w.spec.get("clusters");
        ((Map<String, Object>) clusters.get(0)).put("authentication", SecuredWorlds.tls("mm2-source"));
        ((Map<String, Object>) clusters.get(1)).put("authentication", SecuredWorlds.scram("mm2-target"));
        List<Map<String, Object>> all = List.of(SecuredWorlds.acl("transactionalId", "*", "literal", "All"),
                SecuredWorlds.acl("topic", "*", "literal", "All"));
        List<Map<String, Object>> tasksOnly = List.of(SecuredWorlds.acl("transactionalId", "mm2-cluster-", "prefix",
                "Write", "Describe"), SecuredWorlds.acl("topic", "mirrormaker2-cluster-offsets", "literal", "Read", "Write"));
        return new GoldenPlansTest.Situation(w.adopt(true, Map.of()), w.toLive().withKafkaUsers(List.of(
                SecuredWorlds.user("mm2-source", all), SecuredWorlds.user("mm2-target", tasksOnly))));
    }

    private static GoldenPlansTest.Situation adopt(FamilyWorld w, boolean exactlyOnce) {
        return new GoldenPlansTest.Situation(w.adopt(exactlyOnce, Map.of()), w.toLive());
    }

    private static FamilyWorld noRoll(FamilyWorld w) {
        ((MirrorMakerWorld) w).noRoll = true;
        return w;
    }

    /** An owned KafkaMirrorMaker2 to create, with one exactly-once mirror from dc1. */
    private static GoldenPlansTest.Situation created(StrimziApi api, Map<String, String> target, Map<String, String> source) {
        DesiredMirrorMaker2 dm = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.OWN, null, 2,
                "3.9.0", "dc2", "dc2-kafka-bootstrap:9092", target, List.of(new DesiredMirror("dc1",
                "dc1-kafka-bootstrap:9092", source, "orders.*", ".*", 2, Map.of("replication.factor", "3"),
                Map.of("checkpoints.topic.replication.factor", "3"), true, null)), Set.of(), null).derived("replication");
        return new GoldenPlansTest.Situation(MirrorMakerWorld.desired(dm), LiveState.empty(api));
    }
}
