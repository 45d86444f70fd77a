package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.Conditions;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.LivePod;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.MirrorCheck;
import dev.flowform.plan.rules.RollCheck;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The simulated KafkaMirrorMaker2 operator on the {@code examples/mirrormaker2} seed (v1beta2 layout): a worker-config
 * change writes the ConfigMap and rolls every {@code mm2-mirrormaker2} pod to the new revision and hash; connectors go
 * through Kafka Connect's validation (required before enabled is refused, NotReady); a FAILED task leaves the resource
 * Ready while {@link MirrorCheck} reports it. A seed in the v1 layout ({@code spec.target}) is served as v1 and
 * reconciled the same way.
 */
class MirrorMakerSimulationTest extends SimTestSupport {

    private static final String MM2 = "mm2";
    private static final String NAMESPACE = "mirror";
    private static final String SOURCE_CONNECTOR = MirrorMaker2Names.sourceConnector("dc1", "dc2");

    private void start() {
        start(Path.of("examples", "mirrormaker2", "seed"));
    }

    private void start(Path seed) {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed).settings(SimSettings.fast()).build());
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
    private long setV1WorkerMode(String mode) {
        return edit(spec -> ((Map<String, Object>) ((Map<String, Object>) spec.get("target")).get("config"))
                .put(EosMode.CONFIG_KEY, mode));
    }

    @SuppressWarnings("unchecked")
    private long setSourceConfig(Map<String, String> entries) {
        return edit(spec -> ((Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) ((List<Object>) spec
                .get("mirrors")).get(0)).get("sourceConnector")).get("config")).putAll(entries));
    }

    @Test
    void a_worker_config_change_rolls_every_pod_to_the_new_revision_and_hash() {
        start();
        LiveMirrorMaker2 before = live();
        assertThat(RollCheck.evaluate(before.workers(), before.workers().generation(), EosMode.DISABLED).isComplete()).isTrue();
        Set<String> oldUids = before.workers().pods().stream().map(LivePod::uid).collect(Collectors.toSet());

        long g = setWorkerMode("preparing");
        awaitIdle();

        LiveMirrorMaker2 after = live();
        assertThat(after.workers().configMap().properties()).contains(EosMode.CONFIG_KEY + "=preparing");
        String hash = RollCheck.configHash(after.workers());
        assertThat(after.workers().pods()).hasSize(2).allSatisfy(p -> {
            assertThat(p.configurationHash()).isEqualTo(hash);
            assertThat(p.uid()).isNotIn(oldUids);
            assertThat(p.ready()).isTrue();
        });
        Readiness roll = RollCheck.evaluate(after.workers(), g, EosMode.PREPARING);
        assertThat(roll.isComplete()).as(roll.detail()).isTrue();
        assertThat(MirrorCheck.evaluate(after, g).isComplete()).isTrue();
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_roll_goes_in_the_roll_order_missing_pods_first_then_pods_off_the_target() throws Exception {
        start();
        List<String> created = new java.util.concurrent.CopyOnWriteArrayList<>();
        Set<String> before = live().workers().pods().stream().map(LivePod::uid).collect(Collectors.toSet());
        try (var informer = cluster.client().pods().inNamespace(NAMESPACE).inform(
                new io.fabric8.kubernetes.client.informers.ResourceEventHandler<io.fabric8.kubernetes.api.model.Pod>() {
                    @Override
                    public void onAdd(io.fabric8.kubernetes.api.model.Pod p) {
                        if (!before.contains(p.getMetadata().getUid())) {
                            created.add(p.getMetadata().getName());
                        }
                    }

                    @Override
                    public void onUpdate(io.fabric8.kubernetes.api.model.Pod a, io.fabric8.kubernetes.api.model.Pod b) {
                    }

                    @Override
                    public void onDelete(io.fabric8.kubernetes.api.model.Pod p, boolean unknown) {
                    }
                })) {
            edit(spec -> {
                spec.put("replicas", 3);
                ((Map<String, Object>) ((Map<String, Object>) ((List<Object>) spec.get("clusters")).get(1)).get("config"))
                        .put(EosMode.CONFIG_KEY, "preparing");
            });
            awaitIdle();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> created.size() >= 3);
        }

        assertThat(created).containsExactly(MirrorMaker2Names.podName(MM2, 2), MirrorMaker2Names.podName(MM2, 0),
                MirrorMaker2Names.podName(MM2, 1));
    }

    @Test
    void required_is_refused_before_enabled_and_runs_after_it() {
        start();
        Map<String, String> eos = Map.of("exactly.once.support", "required", "source.consumer.isolation.level",
                "read_committed");
        long early = setSourceConfig(eos);
        awaitIdle();
        Readiness refused = MirrorCheck.evaluate(live(), early);
        assertThat(refused).isInstanceOf(Readiness.Failed.class);
        assertThat(refused.detail()).contains("exactly-once source support");

        setWorkerMode("preparing");
        awaitIdle();
        long g = setWorkerMode("enabled");
        awaitIdle();
        Readiness ok = MirrorCheck.evaluate(live(), g);
        assertThat(ok.isComplete()).as(ok.detail()).isTrue();
    }

    @Test
    void the_v1_layout_rolls_on_a_target_config_change_and_refuses_required_on_preparing_workers() {
        start(Path.of("src", "test", "resources", "mirrormaker2-v1", "seed"));
        assertThat(cluster.api()).isEqualTo(dev.flowform.model.StrimziApi.V1);
        LiveMirrorMaker2 before = live();
        assertThat(before.v1Layout()).isTrue();
        assertThat(before.target()).isEqualTo("dc2");
        assertThat(before.mirrors()).extracting(LiveMirrorMaker2.Mirror::source).containsExactly("dc1");
        assertThat(RollCheck.evaluate(before.workers(), before.workers().generation(), EosMode.DISABLED).isComplete()).isTrue();
        assertThat(MirrorCheck.evaluate(before, before.workers().generation()).isComplete()).isTrue();
        Set<String> oldUids = before.workers().pods().stream().map(LivePod::uid).collect(Collectors.toSet());

        long g = setV1WorkerMode("preparing");
        awaitIdle();
        LiveMirrorMaker2 after = live();
        assertThat(after.workers().configMap().properties()).contains(EosMode.CONFIG_KEY + "=preparing",
                "group.id=mm2-cluster", "offset.storage.topic=mm2-cluster-offsets");
        String hash = RollCheck.configHash(after.workers());
        assertThat(after.workers().pods()).hasSize(2).allSatisfy(p -> {
            assertThat(p.configurationHash()).isEqualTo(hash);
            assertThat(p.uid()).isNotIn(oldUids);
        });
        Readiness roll = RollCheck.evaluate(after.workers(), g, EosMode.PREPARING);
        assertThat(roll.isComplete()).as(roll.detail()).isTrue();

        long early = setSourceConfig(Map.of("exactly.once.support", "required", "source.consumer.isolation.level",
                "read_committed"));
        awaitIdle();
        Readiness refused = MirrorCheck.evaluate(live(), early);
        assertThat(refused).isInstanceOf(Readiness.Failed.class);
        assertThat(refused.detail()).contains("exactly-once source support");

        long enabled = setV1WorkerMode("enabled");
        awaitIdle();
        Readiness ok = MirrorCheck.evaluate(live(), enabled);
        assertThat(ok.isComplete()).as(ok.detail()).isTrue();
        assertThat(RollCheck.evaluate(live().workers(), enabled, EosMode.ENABLED).isComplete()).isTrue();
    }

    @Test
    void a_failed_task_leaves_the_resource_ready_and_the_check_reports_it() {
        start();
        long g = live().workers().generation();
        cluster.simulator().failMirrorMakerTask(NAMESPACE, MM2, SOURCE_CONNECTOR, 0,
                "org.apache.kafka.connect.errors.ConnectException: boom");

        LiveMirrorMaker2 m = live();
        assertThat(Conditions.isTrue(m.workers().conditions(), "Ready")).isTrue();
        assertThat(m.connector(SOURCE_CONNECTOR).orElseThrow().tasks()).extracting(t -> t.state())
                .containsExactly("FAILED");
        Readiness r = MirrorCheck.evaluate(m, g);
        assertThat(r).isInstanceOf(Readiness.Failed.class);
        assertThat(r.detail()).isEqualTo("task 0 of " + SOURCE_CONNECTOR + " FAILED while KafkaMirrorMaker2 mm2 is Ready");
        // right after a change the same status may predate it: Connect restarts reconfigured tasks
        Readiness maybeStale = MirrorCheck.evaluate(m, g, true);
        assertThat(maybeStale).isInstanceOf(Readiness.InProgress.class);
        assertThat(maybeStale.detail()).startsWith("task 0 of " + SOURCE_CONNECTOR + " FAILED, possibly before this change");
    }

    @Test
    void the_restart_annotation_restarts_the_failed_task_and_is_removed() {
        start();
        cluster.simulator().failMirrorMakerTask(NAMESPACE, MM2, SOURCE_CONNECTOR, 0, "boom");
        var op = cluster.client().genericKubernetesResources(StrimziCrds.kafkaMirrorMaker2(cluster.api())).inNamespace(NAMESPACE);
        GenericKubernetesResource m = op.withName(MM2).get();
        m.getMetadata().getAnnotations().put(Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION, SOURCE_CONNECTOR + ":0");
        op.resource(m).update();

        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).untilAsserted(() -> {
            LiveMirrorMaker2 now = live();
            assertThat(now.workers().annotations()).doesNotContainKey(Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION);
            assertThat(now.connector(SOURCE_CONNECTOR).orElseThrow().tasks()).extracting(t -> t.state()).containsOnly("RUNNING");
        });
    }
    @Test
    @SuppressWarnings("unchecked")
    void auto_restart_restarts_a_failed_task_once_then_backs_off() {
        start();
        edit(spec -> ((Map<String, Object>) ((Map<String, Object>) ((List<Object>) spec.get("mirrors")).get(0))
                .get("sourceConnector")).put("autoRestart", Map.of("enabled", true)));
        awaitIdle();

        cluster.simulator().failMirrorMakerTask(NAMESPACE, MM2, SOURCE_CONNECTOR, 0, "boom");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(live().connector(SOURCE_CONNECTOR).orElseThrow().tasks()).extracting(t -> t.state())
                        .containsOnly("RUNNING"));
        assertThat(autoRestartStatuses()).singleElement().satisfies(e -> {
            assertThat(e).containsEntry("connectorName", SOURCE_CONNECTOR).containsEntry("count", 1);
            assertThat(e).containsKey("lastRestartTimestamp");
        });

        // the next automatic restart waits n * n + n = 2 minutes: a second failure stays FAILED
        cluster.simulator().failMirrorMakerTask(NAMESPACE, MM2, SOURCE_CONNECTOR, 0, "boom again");
        awaitIdle();
        assertThat(live().connector(SOURCE_CONNECTOR).orElseThrow().tasks()).extracting(t -> t.id() + ":" + t.state())
                .contains("0:FAILED");
        assertThat(autoRestartStatuses()).singleElement().satisfies(e -> assertThat(e).containsEntry("count", 1));
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> autoRestartStatuses() {
        GenericKubernetesResource m = cluster.client().genericKubernetesResources(StrimziCrds.kafkaMirrorMaker2(cluster.api()))
                .inNamespace(NAMESPACE).withName(MM2).get();
        Map<String, Object> status = (Map<String, Object>) m.getAdditionalProperties().get("status");
        return (List<Map<String, Object>>) status.getOrDefault("autoRestartStatuses", List.of());
    }
}
