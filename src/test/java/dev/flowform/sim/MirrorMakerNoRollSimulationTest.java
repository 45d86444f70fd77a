package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.LivePod;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.ForcedRoll;
import dev.flowform.plan.rules.MirrorCheck;
import dev.flowform.plan.rules.RollCheck;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulated operator playing Strimzi 0.48: KafkaMirrorMaker2 pods carry no {@code strimzi.io/configuration-hash}
 * and a worker configuration change only rewrites the ConfigMap (the resource says Ready, the workers keep their old
 * mode: Kafka Connect then refuses {@code required}); {@code strimzi.io/manual-rolling-update="true"} on the PodSet
 * re-creates every pod at the next reconciliation and is removed (Strimzi docs,
 * proc-manual-rolling-update-strimzipodset.adoc). The seed is {@code examples/mirrormaker2}'s as a 0.48 operator
 * leaves it: no hash on the pods, 0.48 images.
 */
class MirrorMakerNoRollSimulationTest extends SimTestSupport {

    private static final String MM2 = "mm2";
    private static final String NAMESPACE = "mirror";

    @TempDir
    Path tmp;

    /**
     * @param target a folder
     * @return {@code target}, holding the example seed as Strimzi 0.48 writes it (no configuration hash on the pods)
     * @throws IOException when the example cannot be read
     */
    static Path seed048(Path target) throws IOException {
        String yaml = Files.readString(Path.of("examples", "mirrormaker2", "seed", "mm2.yaml"));
        String old = yaml.lines().filter(l -> !l.contains(Strimzi.CONFIG_HASH_ANNOTATION))
                .collect(Collectors.joining("\n", "", "\n")).replace("kafka:0.49.0-kafka", "kafka:0.48.0-kafka");
        Files.createDirectories(target);
        Files.writeString(target.resolve("mm2.yaml"), old);
        return target;
    }

    private void start() throws IOException {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed048(tmp.resolve("seed")))
                .settings(SimSettings.fast().withStrimziVersion("0.48.0")).build());
        awaitIdle();
    }

    private LiveMirrorMaker2 live() {
        return liveMirrorMaker(NAMESPACE, MM2);
    }

    private long edit(Consumer<Map<String, Object>> change) {
        return editMirrorMaker(NAMESPACE, MM2, change);
    }

    private long setWorkerMode(String mode) {
        return setMirrorMakerWorkerMode(NAMESPACE, MM2, mode);
    }

    @SuppressWarnings("unchecked")
    private long requireExactlyOnce() {
        return edit(spec -> ((Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) ((List<Object>) spec
                .get("mirrors")).get(0)).get("sourceConnector")).get("config")).putAll(Map.of("exactly.once.support",
                "required", "source.consumer.isolation.level", "read_committed")));
    }

    /** Annotates the PodSet as {@code kubectl annotate strimzipodset mm2-mirrormaker2 strimzi.io/manual-rolling-update=true}. */
    private Instant annotate() {
        var op = cluster.client().genericKubernetesResources(StrimziCrds.podSet(cluster.api())).inNamespace(NAMESPACE);
        GenericKubernetesResource ps = op.withName(MirrorMaker2Names.podSetName(MM2)).get();
        ps.getMetadata().getAnnotations().put(Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION, "true");
        Instant at = Instant.now();
        op.resource(ps).update();
        return at;
    }

    private Set<String> uids(LiveMirrorMaker2 m) {
        return m.workers().pods().stream().map(LivePod::uid).collect(Collectors.toSet());
    }

    private void forceRollAndWait(Instant[] at, EosMode mode) {
        at[0] = annotate();
        await().atMost(Duration.ofSeconds(20)).until(() -> ForcedRoll.evaluate(live().workers(), at[0], mode).isComplete());
    }

    @Test
    void a_worker_config_change_rewrites_the_config_map_but_rolls_no_pod_and_the_resource_stays_ready() throws IOException {
        start();
        LiveMirrorMaker2 before = live();
        assertThat(ForcedRoll.affected(before.workers())).isTrue();
        assertThat(ForcedRoll.strimziVersion(before.workers())).contains("0.48.0");

        long g = setWorkerMode("preparing");
        awaitIdle();

        LiveMirrorMaker2 after = live();
        assertThat(after.workers().configMap().properties()).contains(EosMode.CONFIG_KEY + "=preparing");
        assertThat(uids(after)).as("no pod was rolled").isEqualTo(uids(before));
        assertThat(after.workers().pods()).allSatisfy(p -> assertThat(p.configurationHash()).isNull());
        assertThat(after.workers().observedGeneration()).isEqualTo(g);
        Readiness reconciled = RollCheck.evaluate(after.workers(), g, EosMode.PREPARING, false);
        assertThat(reconciled.isComplete()).as("Ready while the pods run the old mode: " + reconciled.detail()).isTrue();
        assertThat(RollCheck.evaluate(after.workers(), g, EosMode.PREPARING).isComplete())
                .as("the hash rule can never complete on these pods").isFalse();
        assertThat(ForcedRoll.affected(after.workers())).isTrue();
    }

    @Test
    void without_a_forced_roll_enabled_never_reaches_the_workers_and_required_is_refused() throws IOException {
        start();
        setWorkerMode("preparing");
        awaitIdle();
        setWorkerMode("enabled");
        awaitIdle();
        long g = requireExactlyOnce();
        awaitIdle();
        Readiness r = MirrorCheck.evaluate(live(), g);
        assertThat(r).as(r.detail()).isInstanceOf(Readiness.Failed.class);
        assertThat(r.detail()).contains("exactly-once source support");
    }

    @Test
    void the_manual_rolling_update_annotation_rolls_every_pod_and_is_removed() throws IOException {
        start();
        Set<String> original = uids(live());
        setWorkerMode("preparing");
        awaitIdle();
        Instant[] at = new Instant[1];
        forceRollAndWait(at, EosMode.PREPARING);
        LiveMirrorMaker2 rolled = live();
        assertThat(rolled.workers().podSet().annotations()).doesNotContainKey(Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION);
        assertThat(rolled.workers().pods()).hasSize(2).allSatisfy(p -> {
            assertThat(p.uid()).isNotIn(original);
            assertThat(p.ready()).isTrue();
            assertThat(p.configurationHash()).isNull();
        });
        assertThat(ForcedRoll.evaluate(rolled.workers(), at[0], EosMode.PREPARING).detail()).contains("2/2 pods restarted");

        setWorkerMode("enabled");
        awaitIdle();
        forceRollAndWait(at, EosMode.ENABLED);
        Set<String> onEnabled = uids(live());
        long g = requireExactlyOnce();
        awaitIdle();
        await().atMost(Duration.ofSeconds(20)).until(() -> MirrorCheck.evaluate(live(), g).isComplete());
        assertThat(uids(live())).as("a connector change rolls nothing").isEqualTo(onEnabled);
    }

    @Test
    void pods_older_than_the_annotation_are_not_a_finished_roll() throws IOException {
        start();
        Instant later = Instant.now().plusSeconds(3600);
        Readiness r = ForcedRoll.evaluate(live().workers(), later, EosMode.DISABLED);
        assertThat(r).isInstanceOf(Readiness.InProgress.class);
        assertThat(r.detail()).contains("0/2 pods restarted since the annotation");
    }
}
