package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LivePod;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.RollCheck;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The simulated operator rolls Connect workers like Strimzi's KafkaConnectRoller. */
class RollSimulationTest extends SimTestSupport {

    /** Follows worker pods through a watch and records the most workers unavailable at any moment. */
    static final class PodRecorder implements Watcher<Pod> {
        final int replicas;
        final Map<String, Boolean> ready = new HashMap<>();
        final List<String> addedWithRevision = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger maxUnavailable = new AtomicInteger();

        PodRecorder(int replicas, List<Pod> initial) {
            this.replicas = replicas;
            initial.forEach(p -> ready.put(p.getMetadata().getName(), StrimziSimulator.ready(p)));
        }

        @Override
        public synchronized void eventReceived(Action action, Pod pod) {
            String name = pod.getMetadata().getName();
            if (action == Action.DELETED) {
                ready.remove(name);
            } else {
                Boolean before = ready.put(name, StrimziSimulator.ready(pod));
                if (action == Action.ADDED && before == null) {
                    addedWithRevision.add(name + "@" + pod.getMetadata().getAnnotations().get("strimzi.io/revision"));
                }
            }
            long readyCount = ready.values().stream().filter(b -> b).count();
            maxUnavailable.accumulateAndGet((int) (replicas - readyCount), Math::max);
        }

        @Override
        public void onClose(WatcherException cause) {
        }
    }

    Watch watchWorkers(String ns, PodRecorder recorder) {
        return cluster.client().pods().inNamespace(ns).withLabel("strimzi.io/cluster", CONNECT).watch(recorder);
    }

    List<Pod> workers(String ns) {
        return cluster.client().pods().inNamespace(ns).withLabels(Map.of("strimzi.io/cluster", CONNECT,
                "strimzi.io/kind", "KafkaConnect")).list().getItems();
    }

    @Test
    void eosChangeRollsOneWorkerAtATimeAndSatisfiesRollCheck() {
        startSeeded("v1beta2");
        Set<String> oldUids = workers(NS).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        PodRecorder recorder = new PodRecorder(3, workers(NS));
        Watch watch = watchWorkers(NS, recorder);
        try {
            long generation = setWorkerEos(NS, "preparing");
            assertThat(generation).isEqualTo(5);
            assertThat(RollCheck.evaluate(live(NS), generation, EosMode.PREPARING)).isInstanceOf(Readiness.InProgress.class);
            awaitIdle();

            LiveConnectCluster live = live(NS);
            Readiness readiness = RollCheck.evaluate(live, generation, EosMode.PREPARING);
            assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);
            assertThat(live.pods()).hasSize(3).allSatisfy(p -> {
                assertThat(p.ready()).isTrue();
                assertThat(p.uid()).isNotIn(oldUids);
                assertThat(p.revision()).isEqualTo(live.podSet().podRevisions().get(p.name())).isNotEqualTo("9d41c2e7");
                assertThat(p.connectConfiguration()).contains("exactly.once.source.support=preparing");
            });
            await().atMost(Duration.ofSeconds(5)).until(() -> recorder.addedWithRevision.size() == 3);
            String revision = live.pods().get(0).revision();
            assertThat(recorder.addedWithRevision).containsExactly("dr-connect-connect-0@" + revision,
                    "dr-connect-connect-1@" + revision, "dr-connect-connect-2@" + revision);
            assertThat(recorder.maxUnavailable.get()).as("workers unavailable at once").isEqualTo(1);
            assertThat(live.observedGeneration()).isEqualTo(generation);
            assertThat(live.podSet().pods()).isEqualTo(3);
            assertThat(live.podSet().observedGeneration()).isEqualTo(live.podSet().generation());
            @SuppressWarnings("unchecked")
            List<Object> plugins = (List<Object>) ((Map<String, Object>) live.raw().get("status")).get("connectorPlugins");
            assertThat(plugins).hasSize(3);
        } finally {
            watch.close();
        }
    }

    @Test
    void v1ClusterRollWritesConfigMapAndConfigurationHash() {
        startSeeded("v1");
        assertThat(cluster.api().version()).isEqualTo("v1");
        long generation = setWorkerEos(NS_V1, "preparing");
        awaitIdle();
        LiveConnectCluster live = live(NS_V1);
        Readiness readiness = RollCheck.evaluate(live, generation, EosMode.PREPARING);
        assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);
        assertThat(live.configMap().properties()).contains("exactly.once.source.support=preparing")
                .startsWith("# Do not change this generated file.")
                .contains("group.id=dr-connect\nconfig.storage.topic=dr-connect-configs\n");
        String hash = Strimzi.sha1Prefix(live.configMap().properties());
        assertThat(live.pods()).hasSize(2).extracting(LivePod::configurationHash).containsOnly(hash);
        assertThat(live.pods()).extracting(LivePod::connectConfiguration).containsOnly((String) null);
    }

    @Test
    void newerGenerationDuringARollIsReconciledAfterTheRollFinishes() {
        startSeeded("v1beta2", SimSettings.fast().withPodReadyDelay(Duration.ofMillis(80)));
        PodRecorder recorder = new PodRecorder(3, workers(NS));
        Watch watch = watchWorkers(NS, recorder);
        try {
            long preparing = setWorkerEos(NS, "preparing");
            await().pollInterval(Duration.ofMillis(5)).atMost(Duration.ofSeconds(5)).until(() -> cluster.simulator().podsCreated() >= 1);
            long enabled = setWorkerEos(NS, "enabled");
            assertThat(enabled).isEqualTo(preparing + 1);
            awaitIdle();
            Readiness readiness = RollCheck.evaluate(live(NS), enabled, EosMode.ENABLED);
            assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);
            await().atMost(Duration.ofSeconds(5)).until(() -> recorder.addedWithRevision.size() == 6);
            List<String> revisions = recorder.addedWithRevision.stream().map(s -> s.substring(s.indexOf('@') + 1)).toList();
            assertThat(revisions.subList(0, 3)).as("first reconcile finishes its roll").containsOnly(revisions.get(0));
            assertThat(revisions.subList(3, 6)).containsOnly(revisions.get(3)).doesNotContain(revisions.get(0));
            assertThat(recorder.maxUnavailable.get()).isEqualTo(1);
            assertThat(cluster.simulator().reconcileCount()).isGreaterThanOrEqualTo(2);
        } finally {
            watch.close();
        }
    }

    @Test
    void pauseAnnotationWritesReconciliationPausedAndFreezesObservedGeneration() {
        startSeeded("v1beta2");
        Set<String> uids = workers(NS).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        annotate(Strimzi.PAUSE_RECONCILIATION_ANNOTATION, "true");
        long generation = setWorkerEos(NS, "preparing");
        awaitIdle();
        LiveConnectCluster live = live(NS);
        assertThat(live.observedGeneration()).isEqualTo(4);
        assertThat(live.conditions()).singleElement().satisfies(c -> {
            assertThat(c.type()).isEqualTo("ReconciliationPaused");
            assertThat(c.isTrue()).isTrue();
        });
        assertThat(RollCheck.evaluate(live, generation, EosMode.PREPARING)).isInstanceOf(Readiness.Paused.class);
        assertThat(workers(NS)).extracting(p -> p.getMetadata().getUid()).containsExactlyInAnyOrderElementsOf(uids);

        annotate(Strimzi.PAUSE_RECONCILIATION_ANNOTATION, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> RollCheck.evaluate(live(NS), generation, EosMode.PREPARING).isComplete());
    }

    @Test
    void scalesDownToZeroAndUpAgain() {
        startSeeded("v1beta2");
        setReplicas(1);
        awaitIdle();
        assertThat(workers(NS)).extracting(p -> p.getMetadata().getName()).containsExactly("dr-connect-connect-0");
        LiveConnectCluster one = live(NS);
        assertThat(RollCheck.evaluate(one, one.generation(), null).isComplete()).isTrue();
        assertThat(one.podSet().pods()).isEqualTo(1);

        setReplicas(0);
        awaitIdle();
        LiveConnectCluster zero = live(NS);
        assertThat(zero.pods()).isEmpty();
        assertThat(zero.podSet().podRevisions()).isEmpty();
        assertThat(RollCheck.evaluate(zero, zero.generation(), null).isComplete()).isTrue();
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) zero.raw().get("status");
        assertThat(status).containsEntry("replicas", 0).doesNotContainKey("connectorPlugins");

        setReplicas(2);
        awaitIdle();
        LiveConnectCluster two = live(NS);
        assertThat(two.pods()).extracting(LivePod::name).containsExactly("dr-connect-connect-0", "dr-connect-connect-1");
        assertThat(RollCheck.evaluate(two, two.generation(), EosMode.DISABLED).isComplete()).isTrue();
    }

    @Test
    void deletingAKafkaConnectDeletesItsPodsPodSetAndConfigMap() {
        startSeeded("v1");
        cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(api())).inNamespace(NS_V1).withName(CONNECT).delete();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(workers(NS_V1)).isEmpty();
            assertThat(cluster.client().genericKubernetesResources(StrimziCrds.podSet(api())).inNamespace(NS_V1).list().getItems()).isEmpty();
            assertThat(cluster.client().configMaps().inNamespace(NS_V1).withName(CONNECT + "-connect-config").get()).isNull();
        });
        awaitIdle();
        assertThat(liveConnector(NS_V1, SOURCE).conditions()).singleElement().satisfies(c -> {
            assertThat(c.type()).isEqualTo("NotReady");
            assertThat(c.reason()).isEqualTo("NoSuchResourceException");
            assertThat(c.message()).isEqualTo("KafkaConnect resource 'dr-connect' identified by label 'strimzi.io/cluster' "
                    + "does not exist in namespace mirror-v1.");
        });
    }

    @Test
    void aWorkerPodDeletedFromOutsideIsRecreatedFromItsPodSet() {
        startSeeded("v1beta2");
        Pod before = cluster.client().pods().inNamespace(NS).withName("dr-connect-connect-1").get();
        cluster.client().pods().inNamespace(NS).withName("dr-connect-connect-1").delete();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Pod after = cluster.client().pods().inNamespace(NS).withName("dr-connect-connect-1").get();
            assertThat(after).isNotNull();
            assertThat(after.getMetadata().getUid()).isNotEqualTo(before.getMetadata().getUid());
            assertThat(StrimziSimulator.ready(after)).isTrue();
            assertThat(after.getMetadata().getAnnotations()).containsEntry("strimzi.io/revision", "9d41c2e7");
        });
        awaitIdle();
        LiveConnectCluster live = live(NS);
        assertThat(RollCheck.evaluate(live, 4, EosMode.DISABLED).isComplete()).isTrue();
    }

    @Test
    void aNewClusterIsCreatedFromNothing() {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().api(dev.flowform.model.StrimziApi.V1).build());
        cluster.client().namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("fresh").endMetadata().build()).create();
        GenericKubernetesResource kc = new GenericKubernetesResource();
        kc.setApiVersion("kafka.strimzi.io/v1");
        kc.setKind("KafkaConnect");
        kc.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(CONNECT).withNamespace("fresh")
                .addToAnnotations(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION, "true").build());
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("version", "4.1.1");
        spec.put("replicas", 2);
        spec.put("bootstrapServers", "kafka:9092");
        spec.put("groupId", "fresh-group");
        spec.put("configStorageTopic", "fresh-configs");
        spec.put("offsetStorageTopic", "fresh-offsets");
        spec.put("statusStorageTopic", "fresh-status");
        spec.put("config", Map.of("exactly.once.source.support", "enabled"));
        kc.setAdditionalProperty("spec", spec);
        cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(api())).inNamespace("fresh").resource(kc).create();
        awaitIdle();
        LiveConnectCluster live = LiveMapper.cluster(cluster.client(), api(), "fresh", CONNECT);
        Readiness readiness = RollCheck.evaluate(live, 1, EosMode.ENABLED);
        assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);
        assertThat(live.configMap().properties()).contains("group.id=fresh-group\n");
        Pod pod = cluster.client().pods().inNamespace("fresh").withName("dr-connect-connect-0").get();
        assertThat(pod.getMetadata().getLabels()).containsEntry("strimzi.io/cluster", CONNECT)
                .containsEntry("strimzi.io/kind", "KafkaConnect").containsEntry("strimzi.io/name", "dr-connect-connect")
                .containsEntry("strimzi.io/pod-name", "dr-connect-connect-0").containsEntry("strimzi.io/controller", "strimzipodset")
                .containsEntry("strimzi.io/controller-name", "dr-connect-connect")
                .containsEntry("strimzi.io/component-type", "kafka-connect")
                .containsEntry("app.kubernetes.io/instance", CONNECT);
        assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        assertThat(pod.getStatus().getPodIP()).isNotBlank();
    }

    @Test
    void anAnnotationOnlyReconcileOfASeededClusterRollsNothing() {
        startSeeded("v1");
        Set<String> uids = workers(NS_V1).stream().map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
        String properties = cluster.client().configMaps().inNamespace(NS_V1).withName(CONNECT + "-connect-config").get()
                .getData().get("kafka-connect.properties");
        long reconciles = cluster.simulator().reconcileCount();
        var op = cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(api())).inNamespace(NS_V1);
        GenericKubernetesResource kc = op.withName(CONNECT).get();
        kc.getMetadata().getAnnotations().put("example.com/touched", "yes");
        op.resource(kc).update();
        await().atMost(Duration.ofSeconds(5)).until(() -> cluster.simulator().reconcileCount() > reconciles);
        awaitIdle();
        assertThat(workers(NS_V1)).extracting(p -> p.getMetadata().getUid()).containsExactlyInAnyOrderElementsOf(uids);
        assertThat(cluster.client().configMaps().inNamespace(NS_V1).withName(CONNECT + "-connect-config").get()
                .getData().get("kafka-connect.properties")).isEqualTo(properties);
        assertThat(RollCheck.evaluate(live(NS_V1), 3, EosMode.DISABLED).isComplete()).isTrue();
    }

    private void annotate(String key, String value) {
        var op = cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(api())).inNamespace(NS);
        GenericKubernetesResource kc = op.withName(CONNECT).get();
        Map<String, String> annotations = new LinkedHashMap<>(kc.getMetadata().getAnnotations());
        if (value == null) {
            annotations.remove(key);
        } else {
            annotations.put(key, value);
        }
        kc.getMetadata().setAnnotations(annotations);
        op.resource(kc).update();
    }

    private void setReplicas(int replicas) {
        editSpec(StrimziCrds.kafkaConnect(api()), NS, CONNECT, spec -> spec.put("replicas", replicas));
    }

    @Test
    void aSeededRollInProgressIsFinishedWithoutRollingFinishedWorkersAgain() {
        startSeeded("v1beta2-rolling");
        Map<String, String> uids = workers(NS).stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
        assertThat(connect(NS).getMetadata().getGeneration()).isEqualTo(5);
        awaitIdle();
        LiveConnectCluster live = live(NS);
        Readiness readiness = RollCheck.evaluate(live, 5, EosMode.PREPARING);
        assertThat(readiness).as(readiness.detail()).isInstanceOf(Readiness.Complete.class);
        Map<String, LivePod> pods = live.pods().stream().collect(Collectors.toMap(LivePod::name, p -> p));
        assertThat(pods.get("dr-connect-connect-0").uid()).as("already rolled").isEqualTo(uids.get("dr-connect-connect-0"));
        assertThat(pods.get("dr-connect-connect-1").uid()).as("restarting on the new revision: waited for")
                .isEqualTo(uids.get("dr-connect-connect-1"));
        assertThat(pods.get("dr-connect-connect-2").uid()).as("still on the old revision: rolled")
                .isNotEqualTo(uids.get("dr-connect-connect-2"));
        assertThat(live.pods()).extracting(LivePod::revision).containsOnly("4c1f0b2e");
        assertThat(cluster.simulator().podsCreated()).isEqualTo(1);
    }
}
