package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.locking.Sleeper;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Sim;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stop request ends a real informer-based wait at once, whatever API call the wait is in. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class WatcherStopTest {

    private static final ObjectRef KC = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", Configs.NS, "mm2-connect");

    @TempDir
    Path tmp;

    @Test
    void a_stop_ends_a_wait_that_would_otherwise_last_its_whole_timeout() throws Exception {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            cluster.faults().pauseOperator(true);
            long g = new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM).patch(KC,
                    List.of(FieldEdit.set(List.of("spec", "config", EosMode.CONFIG_KEY), "preparing", false)));
            Fabric8RolloutWatcher watcher = new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofSeconds(10));
            StopSignal stop = new StopSignal();
            CountDownLatch reported = new CountDownLatch(1);
            Thread stopper = new Thread(() -> {
                try {
                    if (reported.await(30, TimeUnit.SECONDS)) {
                        stop.requestStop("test");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            stopper.start();
            long start = System.nanoTime();

            assertThatThrownBy(() -> stop.interruptibly(() -> watcher.awaitRoll(KC, g, EosMode.PREPARING,
                    Duration.ofMinutes(5), (state, elapsed) -> reported.countDown()))).isInstanceOf(InterruptedException.class);

            stopper.join();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }
}
