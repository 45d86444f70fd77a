package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.state.RunOutcome;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Sim;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator's fault switches against a whole {@code flowform apply} (through a kubeconfig, as
 * against a real cluster): each fault either converges, or ends with exit 1 and a message naming the
 * cause, within its timeout, and in every case the lock is released and the run recorded.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class FaultSuiteTest {

    /** Startup and the two fast rolls take a few seconds; a fault must not add more than its own timeout. */
    private static final Duration SLACK = Duration.ofSeconds(20);

    @TempDir
    Path tmp;

    /** What one faulted apply did. */
    record Outcome(CliRunner.Result result, Duration took, RunOutcome recorded, boolean lockFree) {
    }

    private Outcome apply(SimSettings settings, Consumer<EmbeddedCluster> fault, String... more) {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, settings)) {
            Path dir = CliFiles.kubeconfigConfig(tmp.resolve("conf"), cluster, "");
            Path stateDir = tmp.resolve("state");
            fault.accept(cluster);
            long start = System.nanoTime();
            CliRunner.Result r = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, concat("--auto-approve", more)));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            cluster.faults().clear();
            try (StateStore state = StateStore.open(stateDir, "prod", Clock.systemUTC())) {
                RunRecord run = state.journal().runs().get(0);
                return new Outcome(r, took, run.outcome(), state.lockTable().current().isEmpty());
            }
        }
    }

    /** @return {@code text} with line breaks and runs of spaces made single spaces (diagnostics are wrapped) */
    static String flat(String text) {
        return text.replaceAll("\\s+", " ");
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    @Test
    void conflicts_on_patch_are_re_read_and_the_apply_converges() {
        Outcome o = apply(SimSettings.fast(), c -> c.faults().failNextWrites(4, 409));

        assertThat(o.result().exitCode()).as("%s", o.result()).isZero();
        assertThat(o.recorded()).isEqualTo(RunOutcome.SUCCEEDED);
        assertThat(o.lockFree()).isTrue();
    }

    @Test
    void server_errors_are_retried_with_backoff_and_the_apply_converges() {
        Outcome o = apply(SimSettings.fast(), c -> c.faults().failNextWrites(3, 500));

        assertThat(o.result().exitCode()).as("%s", o.result()).isZero();
        assertThat(o.recorded()).isEqualTo(RunOutcome.SUCCEEDED);
        assertThat(o.lockFree()).isTrue();
    }

    @Test
    void watches_dropped_again_and_again_are_re_listed_and_the_apply_converges() {
        ScheduledExecutorService dropper = Executors.newSingleThreadScheduledExecutor();
        AtomicInteger dropped = new AtomicInteger();
        try {
            Outcome o = apply(SimSettings.fast().withPodReadyDelay(Duration.ofMillis(150)),
                    c -> dropper.scheduleAtFixedRate(() -> dropped.addAndGet(c.faults().dropWatches()), 100, 150,
                            TimeUnit.MILLISECONDS));

            assertThat(o.result().exitCode()).as("%s", o.result()).isZero();
            assertThat(dropped.get()).as("watches dropped while flowform waited").isPositive();
            assertThat(o.lockFree()).isTrue();
        } finally {
            dropper.shutdownNow();
        }
    }

    @Test
    void a_slow_roll_converges_reporting_each_worker() {
        Outcome o = apply(SimSettings.fast(), c -> c.faults().slowRoll(Duration.ofMillis(250)));

        assertThat(o.result().exitCode()).as("%s", o.result()).isZero();
        assertThat(o.result().out()).contains("1/3 workers on the new revision", "2/3 workers on the new revision",
                "observedGeneration 4/5");
        assertThat(o.lockFree()).isTrue();
    }

    @Test
    void a_stuck_pod_ends_at_the_wait_timeout_naming_the_pod() {
        Outcome o = apply(SimSettings.fast().withStuckTimeout(Duration.ofMinutes(5)),
                c -> c.faults().stuckPod("mm2-connect-connect-1"), "--timeout", "3s");

        assertThat(o.result().exitCode()).isEqualTo(1);
        assertThat(flat(o.result().err())).contains("Apply failed", "timed out after 3.0s",
                "Worker pod mm2-connect-connect-1 is not Ready");
        assertThat(o.took()).isLessThan(Duration.ofSeconds(3).plus(SLACK));
        assertThat(o.recorded()).isEqualTo(RunOutcome.FAILED);
        assertThat(o.lockFree()).isTrue();
    }

    @Test
    void a_stuck_pod_the_operator_gives_up_on_ends_with_its_not_ready_message() {
        Outcome o = apply(SimSettings.fast().withStuckTimeout(Duration.ofMillis(500)),
                c -> c.faults().stuckPod("mm2-connect-connect-1"));

        assertThat(o.result().exitCode()).isEqualTo(1);
        assertThat(flat(o.result().err())).contains("the operator reported NotReady", "TimeoutException", "mm2-connect-connect-1");
        assertThat(o.lockFree()).isTrue();
    }

    @Test
    void a_failed_reconcile_ends_with_the_operators_message() {
        Outcome o = apply(SimSettings.fast(), c -> c.faults().failNextReconcile(
                "Failed to connect to dc2-kafka-bootstrap.kafka-dc2.svc:9093: connection refused"));

        assertThat(o.result().exitCode()).isEqualTo(1);
        assertThat(flat(o.result().err())).contains("NotReady", "Failed to connect to dc2-kafka-bootstrap", "Done:", "Failed:",
                "Not run:");
        assertThat(o.recorded()).isEqualTo(RunOutcome.FAILED);
        assertThat(o.lockFree()).isTrue();
    }

    @Test
    void a_paused_operator_ends_at_the_wait_timeout_saying_it_never_reconciled() {
        Outcome o = apply(SimSettings.fast(), c -> c.faults().pauseOperator(true), "--timeout", "2s");

        assertThat(o.result().exitCode()).isEqualTo(1);
        assertThat(flat(o.result().err())).contains("timed out after 2.0s", "has not finished reconciling generation 5",
                "Strimzi cluster operator is running", "reconciliation is not paused");
        assertThat(o.took()).isLessThan(Duration.ofSeconds(2).plus(SLACK));
        assertThat(o.lockFree()).isTrue();
    }

    @Test
    void reconciliation_paused_by_annotation_is_refused_before_anything_changes() {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            cluster.client().genericKubernetesResources("kafka.strimzi.io/v1beta2", "KafkaConnect").inNamespace("replication")
                    .withName("mm2-connect").edit(kc -> {
                        kc.getMetadata().getAnnotations().put("strimzi.io/pause-reconciliation", "true");
                        return kc;
                    });
            Path dir = CliFiles.kubeconfigConfig(tmp.resolve("conf"), cluster, "");
            Path stateDir = tmp.resolve("state");

            CliRunner.Result r = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));

            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("Reconciliation is paused", "strimzi.io/pause-reconciliation");
            try (StateStore state = StateStore.open(stateDir, "prod", Clock.systemUTC())) {
                assertThat(state.journal().runs()).isEmpty();
                assertThat(state.lockTable().current()).isEmpty();
            }
        }
    }
}
