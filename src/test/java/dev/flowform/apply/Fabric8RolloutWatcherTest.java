package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.locking.Sleeper;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Readiness;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Sim;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rule 7 waits against the simulated operator: completion, failure, pause, timeout and progress. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class Fabric8RolloutWatcherTest {

    private static final ObjectRef KC = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", Configs.NS, "mm2-connect");

    @TempDir
    Path tmp;

    private static long setMode(EmbeddedCluster cluster, EosMode mode) {
        return new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM).patch(KC,
                List.of(FieldEdit.set(List.of("spec", "config", EosMode.CONFIG_KEY), mode.value(), false)));
    }

    @Test
    void completes_only_after_every_worker_rolled_and_reports_progress_in_between() throws Exception {
        // slow enough pods that the informers see each worker come back, even on a loaded machine
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp,
                SimSettings.fast().withPodReadyDelay(Duration.ofMillis(300)))) {
            long g = setMode(cluster, EosMode.PREPARING);
            List<Readiness> seen = new ArrayList<>();

            Readiness r = new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofSeconds(10))
                    .awaitRoll(KC, g, EosMode.PREPARING, Duration.ofSeconds(30), (s, e) -> seen.add(s));

            assertThat(r).isInstanceOf(Readiness.Complete.class);
            assertThat(r.detail()).contains("3/3 workers", "observedGeneration " + g + "/" + g);
            assertThat(seen).extracting(Readiness::detail)
                    .anyMatch(d -> d.startsWith("1/3 workers") || d.startsWith("2/3 workers"));
            assertThat(seen).allMatch(s -> s instanceof Readiness.InProgress);
        }
    }

    @Test
    void a_cache_that_missed_the_last_event_is_read_past_after_a_quiet_progress_interval() throws Exception {
        Fabric8RolloutWatcher watcher = new Fabric8RolloutWatcher(null, Clock.systemUTC(), Duration.ofMillis(50));
        java.util.concurrent.atomic.AtomicInteger directReads = new java.util.concurrent.atomic.AtomicInteger();
        Readiness stale = new Readiness.InProgress("2/3 workers on the new revision", 2, 3);

        Readiness r = watcher.loop(new Fabric8RolloutWatcher.Signal(), () -> stale, () -> {
            directReads.incrementAndGet();
            return new Readiness.Complete("3/3 workers on the new revision");
        }, Duration.ofSeconds(30), (s, e) -> { }, () -> "");

        assertThat(r).isInstanceOf(Readiness.Complete.class);
        assertThat(directReads).hasValue(1);
    }

    @Test
    void a_stuck_pod_ends_in_the_operators_not_ready_message() throws Exception {
        SimSettings settings = SimSettings.fast().withStuckTimeout(Duration.ofMillis(500));
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, settings)) {
            cluster.faults().stuckPod("mm2-connect-connect-1");
            long g = setMode(cluster, EosMode.PREPARING);

            Readiness r = new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofSeconds(10))
                    .awaitRoll(KC, g, EosMode.PREPARING, Duration.ofSeconds(30), (s, e) -> { });

            assertThat(r).isInstanceOf(Readiness.Failed.class);
            assertThat(r.detail()).contains("NotReady", "mm2-connect-connect-1");
        }
    }

    @Test
    void times_out_with_what_is_missing_and_reports_at_least_every_interval() throws Exception {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            cluster.faults().pauseOperator(true);
            long g = setMode(cluster, EosMode.PREPARING);
            List<Readiness> seen = new ArrayList<>();

            Readiness r = new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofMillis(200))
                    .awaitRoll(KC, g, EosMode.PREPARING, Duration.ofMillis(1500), (s, e) -> seen.add(s));

            assertThat(r).isInstanceOf(Readiness.TimedOut.class);
            assertThat(r.detail()).contains("0/3 workers on the new revision", "observedGeneration 4/" + g);
            // nothing changed while the operator was down, yet progress kept coming
            assertThat(seen.size()).isGreaterThanOrEqualTo(4);
        }
    }

    @Test
    void paused_reconciliation_aborts_the_wait() throws Exception {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM).patch(KC, List.of(
                    FieldEdit.set(List.of("metadata", "annotations", "strimzi.io/pause-reconciliation"), "true", false)));
            long g = setMode(cluster, EosMode.PREPARING);

            Readiness r = new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofSeconds(10))
                    .awaitRoll(KC, g, EosMode.PREPARING, Duration.ofSeconds(30), (s, e) -> { });

            assertThat(r).isInstanceOf(Readiness.Paused.class);
        }
    }
}
