package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flowform.model.Condition;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LivePod;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.RollCheck;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every fault switch does what reliability tests will rely on. */
class SimFaultsTest extends SimTestSupport {

    private Set<String> workerUids(String ns) {
        return cluster.client().pods().inNamespace(ns).withLabel("strimzi.io/cluster", CONNECT).list().getItems().stream()
                .map(p -> p.getMetadata().getUid()).collect(Collectors.toSet());
    }

    private static Condition onlyCondition(LiveConnectCluster c) {
        assertThat(c.conditions()).hasSize(1);
        return c.conditions().get(0);
    }

    @Test
    void failNextWritesAnswersConflictWithAKubernetesStatus() {
        startSeeded("v1beta2");
        cluster.faults().failNextWrites(1, 409);
        assertThatThrownBy(() -> setWorkerEos(NS, "preparing"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
                    assertThat(e.getStatus().getMessage()).isEqualTo("Operation cannot be fulfilled on kafkaconnects.kafka.strimzi.io "
                            + "\"dr-connect\": the object has been modified; please apply your changes to the latest version and try again");
                    assertThat(e.getStatus().getDetails().getKind()).isEqualTo("kafkaconnects");
                });
        assertThat(cluster.faults().pendingWriteFailures()).isZero();
        assertThat(connect(NS).getMetadata().getGeneration()).as("the failed write changed nothing").isEqualTo(4);
        assertThat(setWorkerEos(NS, "preparing")).isEqualTo(5);
        awaitIdle();
        assertThat(RollCheck.evaluate(live(NS), 5, EosMode.PREPARING).isComplete()).isTrue();
    }

    @Test
    void failNextWritesAnswersServerErrorsAndSparesReadsAndTheOperator() {
        startSeeded("v1beta2");
        try (KubernetesClient noRetry = cluster.newClient(new ConfigBuilder(cluster.config()).withRequestRetryBackoffLimit(0).build())) {
            cluster.faults().failNextWrites(2, 500);
            var connectors = noRetry.genericKubernetesResources(StrimziCrds.kafkaConnector(api())).inNamespace(NS);
            GenericKubernetesResource c = connectors.withName(SOURCE).get();
            assertThat(c).as("reads are not failed").isNotNull();
            c.getMetadata().setLabels(Map.of("strimzi.io/cluster", CONNECT, "touched", "yes"));
            assertThatThrownBy(() -> connectors.resource(c).update())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(500);
                        assertThat(e.getStatus().getReason()).isEqualTo("InternalError");
                    });
            assertThat(cluster.faults().pendingWriteFailures()).isEqualTo(1);
            // the simulator's own writes are never failed
            cluster.simulator().triggerReconcile(NS, CONNECT);
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.simulator().reconcileCount() >= 1);
            assertThat(cluster.faults().pendingWriteFailures()).isEqualTo(1);
            cluster.faults().failNextWrites(0, 500);
            // the reconcile's pass over the cluster's connectors may still write their statuses: let it finish, or the
            // update below can meet a newer resourceVersion (409)
            awaitIdle();
            GenericKubernetesResource fresh = connectors.withName(SOURCE).get();
            fresh.getMetadata().setLabels(Map.of("strimzi.io/cluster", CONNECT, "touched", "yes"));
            assertThat(connectors.resource(fresh).update().getMetadata().getLabels()).containsEntry("touched", "yes");
        }
    }

    @Test
    void aStuckPodEndsTheReconcileWithStrimzisTimeoutAndRecoversWhenReleased() {
        startSeeded("v1beta2", SimSettings.fast().withStuckTimeout(Duration.ofMillis(300)));
        cluster.faults().stuckPod("dr-connect-connect-1");
        long generation = setWorkerEos(NS, "preparing");
        awaitIdle();
        LiveConnectCluster live = live(NS);
        assertThat(live.observedGeneration()).isEqualTo(generation);
        Condition c = onlyCondition(live);
        assertThat(c.type()).isEqualTo("NotReady");
        assertThat(c.reason()).isEqualTo("TimeoutException");
        assertThat(c.message()).isEqualTo("Exceeded timeout of 300000ms while waiting for Pods resource dr-connect-connect-1 "
                + "in namespace mirror to be ready");
        assertThat(RollCheck.evaluate(live, generation, EosMode.PREPARING)).isInstanceOf(Readiness.Failed.class);
        Map<String, LivePod> pods = live.pods().stream().collect(Collectors.toMap(LivePod::name, p -> p));
        assertThat(pods.get("dr-connect-connect-0").ready()).isTrue();
        assertThat(pods.get("dr-connect-connect-1").ready()).isFalse();
        assertThat(pods.get("dr-connect-connect-2").revision()).as("the roll stopped at the stuck pod").isEqualTo("9d41c2e7");
        assertThat(live.podSet().readyPods()).isEqualTo(2);

        cluster.faults().unstickPod("dr-connect-connect-1");
        await().atMost(Duration.ofSeconds(5)).until(() -> StrimziSimulator.ready(
                cluster.client().pods().inNamespace(NS).withName("dr-connect-connect-1").get()));
        cluster.simulator().triggerReconcile(NS, CONNECT);
        await().atMost(Duration.ofSeconds(10)).until(() -> RollCheck.evaluate(live(NS), generation, EosMode.PREPARING).isComplete());
    }

    @Test
    void failNextReconcileWritesNotReadyAtTheGenerationWithoutRolling() {
        startSeeded("v1");
        Set<String> uids = workerUids(NS_V1);
        cluster.faults().failNextReconcile("Failed to reconcile: injected by the test");
        long generation = setWorkerEos(NS_V1, "preparing");
        awaitIdle();
        LiveConnectCluster live = live(NS_V1);
        assertThat(live.observedGeneration()).isEqualTo(generation);
        Condition c = onlyCondition(live);
        assertThat(c.type()).isEqualTo("NotReady");
        assertThat(c.reason()).isEqualTo("RuntimeException");
        assertThat(c.message()).isEqualTo("Failed to reconcile: injected by the test");
        assertThat(workerUids(NS_V1)).isEqualTo(uids);
        assertThat(RollCheck.evaluate(live, generation, EosMode.PREPARING)).isInstanceOf(Readiness.Failed.class);

        cluster.simulator().triggerReconcile(NS_V1, CONNECT);
        await().atMost(Duration.ofSeconds(10)).until(() -> RollCheck.evaluate(live(NS_V1), generation, EosMode.PREPARING).isComplete());
    }

    @Test
    void aPausedOperatorDoesNothingUntilItIsResumed() {
        startSeeded("v1beta2");
        Set<String> uids = workerUids(NS);
        cluster.faults().pauseOperator(true);
        long generation = setWorkerEos(NS, "preparing");
        editConnectorConfig(NS, SOURCE, c -> c.put("exactly.once.support", "required"));
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).until(() ->
                live(NS).observedGeneration() == 4 && workerUids(NS).equals(uids)
                        && liveConnector(NS, SOURCE).observedGeneration() == 3);
        assertThat(cluster.simulator().awaitIdle(Duration.ofSeconds(1))).as("a paused operator counts as idle").isTrue();

        cluster.faults().pauseOperator(false);
        awaitIdle();
        assertThat(RollCheck.evaluate(live(NS), generation, EosMode.PREPARING).isComplete()).isTrue();
        assertThat(liveConnector(NS, SOURCE).connectorState()).isEqualTo("FAILED");
    }

    @Test
    void slowRollDelaysEveryPod() {
        startSeeded("v1beta2");
        Duration extra = Duration.ofMillis(150);
        cluster.faults().slowRoll(extra);
        long started = System.nanoTime();
        long generation = setWorkerEos(NS, "preparing");
        awaitIdle();
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(took).isGreaterThanOrEqualTo(extra.multipliedBy(3));
        assertThat(RollCheck.evaluate(live(NS), generation, EosMode.PREPARING).isComplete()).isTrue();
        cluster.faults().slowRoll(Duration.ZERO);
        assertThat(cluster.faults().slowRollExtra()).isZero();
    }

    @Test
    void droppedWatchesAreClosedServerSideAndInformersCarryOn() {
        startSeeded("v1beta2");
        List<String> events = new CopyOnWriteArrayList<>();
        Watch watch = cluster.client().pods().inNamespace(NS).watch(new Watcher<Pod>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                events.add(action + " " + pod.getMetadata().getName());
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
        try {
            await().atMost(Duration.ofSeconds(5)).until(() -> cluster.openWatchCount() >= 4);
            int dropped = cluster.faults().dropWatches();
            assertThat(dropped).as("3 simulator informers + the test's watch").isGreaterThanOrEqualTo(4);
            // every dropped watch back, the test's own included (the simulator may hold more than 3 informers)
            await().atMost(Duration.ofSeconds(10)).until(() -> cluster.openWatchCount() >= dropped);

            events.clear();
            long generation = setWorkerEos(NS, "preparing");
            awaitIdle();
            assertThat(RollCheck.evaluate(live(NS), generation, EosMode.PREPARING).isComplete()).isTrue();
            await().atMost(Duration.ofSeconds(5)).until(() -> events.contains("DELETED dr-connect-connect-2"));
        } finally {
            watch.close();
        }
    }

    @Test
    void a_lost_watch_event_leaves_the_change_to_the_periodic_reconciliation() {
        startSeeded("v1beta2");
        awaitIdle();
        long reconciles = cluster.simulator().reconcileCount();
        cluster.faults().loseWatchEvents(1);
        long g = setWorkerEos(NS, "preparing");
        assertThat(cluster.simulator().awaitIdle(Duration.ofMillis(800))).as("the operator never heard of it").isFalse();
        assertThat(cluster.simulator().reconcileCount()).isEqualTo(reconciles);

        cluster.simulator().reconcileUnsettledNow();
        awaitIdle();
        assertThat(RollCheck.evaluate(live(NS), g, EosMode.PREPARING).isComplete()).isTrue();
        assertThat(cluster.simulator().reconcileCount()).isEqualTo(reconciles + 1);
    }
}
