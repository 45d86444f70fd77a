package dev.flowform.cli;

import dev.flowform.run.ExactlyOnceProof;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A KafkaMirrorMaker2 (v1beta2 layout, two workers) on real Kafka 4.3.1: the embedded operator starts a real Connect
 * worker for each {@code mm2-mirrormaker2-<n>} pod with the worker configuration it renders from the resource, and
 * creates {@code dc1->dc2.MirrorSourceConnector} and {@code dc1->dc2.MirrorCheckpointConnector} through the real
 * Connect REST API with the configuration Strimzi generates from {@code mirrors[]}. {@code flowform prove} then
 * counts records before the rollout (at-least-once: aborted records replicated, duplicates after a SIGKILL), runs
 * flowform's plan and apply (the {@code preparing} roll, the {@code enabled} roll, the source connector patch, each
 * acted on by real workers), and counts again with the same SIGKILL: every committed record once, no aborted one.
 *
 * <p>The seed enables Strimzi's {@code autoRestart} on the source connector: after the SIGKILL of the exactly-once
 * phase the killed worker can rejoin as the group's leader before it has read the session key, so the surviving
 * worker's zombie-fencing request for the restarted task is refused (503) and the task is FAILED until restarted
 * ({@code DistributedHerder.fenceZombieSourceTasks}); the operator restarts it at its next reconcile. The worker logs of
 * the last run are kept in {@code target/mirrormaker2-real-logs}; a failure prints their relevant lines.
 */
@Tag("kafka")
class MirrorMaker2OnRealKafkaTest {
    /** Where the worker logs of the last run are kept (prove's own working folder is a temporary one). */
    private static final Path LOGS = Path.of("target/mirrormaker2-real-logs");

    @Test
    void a_kafka_mirror_maker_2_rolled_out_by_flowform_replicates_exactly_once_on_real_kafka() {
        RealKafkaExample.Proved run = RealKafkaExample.prove(Path.of("src/test/resources/mirrormaker2-real"));
        List<Path> logs = WorkerLogs.keep(run.out(), LOGS);
        try {
            check(run);
        } catch (AssertionError e) {
            System.out.println("Worker logs kept in " + LOGS + "; the relevant lines:\n" + WorkerLogs.relevant(logs));
            throw e;
        }
    }

    private static void check(RealKafkaExample.Proved run) {
        ExactlyOnceProof.Report r = run.report();
        assertThat(r).as("the rollout ran; output:\n%s\n%s", run.out(), run.err()).isNotNull();

        // flowform planned the KafkaMirrorMaker2 rollout and the real workers went through it
        assertThat(run.out()).containsSubsequence(
                "spec.clusters[alias=dc2].config.\"exactly.once.source.support\"",
                "SET_WORKER_EOS", "exactly.once.source.support = preparing",
                "WAIT_FOR_ROLL", "mm2-mirrormaker2",
                "SET_WORKER_EOS", "exactly.once.source.support = enabled",
                "WAIT_FOR_ROLL",
                "STOP_CONNECTOR", "sourceConnector.state: stopped", "WAIT_FOR_CONNECTOR_READY",
                "UPDATE_CONNECTOR", "source.consumer.isolation.level=read_committed", "exactly.once.support=required",
                "WAIT_FOR_CONNECTOR_READY",
                "2/2 workers on the new revision with exactly.once.source.support=enabled",
                "Apply complete!");

        // before: at-least-once, aborted records replicated as if committed
        assertThat(r.p1().committed()).isEqualTo(1000);
        assertThat(r.t1().committed()).isEqualTo(1000);
        assertThat(r.t1().aborted()).isEqualTo(300);
        assertThat(r.t1().duplicates()).isZero();
        // before, with the SIGKILL of the worker running the source task: nothing lost, duplicates
        assertThat(r.t2().committed()).isEqualTo(2000);
        assertThat(r.t2().duplicates()).isPositive();
        assertThat(r.t2().aborted()).isGreaterThanOrEqualTo(500);

        // the moment apply returned: no task of the old read_uncommitted configuration copied an aborted record
        assertThat(r.tNow().committed()).isEqualTo(500);
        assertThat(r.tNow().aborted()).isZero();
        assertThat(r.tNow().duplicates()).isZero();

        // after the rollout, the same writes and the same SIGKILL: exactly once
        assertThat(r.p3().committed()).isEqualTo(2000);
        assertThat(r.p3().aborted()).isEqualTo(500);
        assertThat(r.t3().committed()).isEqualTo(2000);
        assertThat(r.t3().duplicates()).isZero();
        assertThat(r.t3().aborted()).isZero();
        assertThat(r.t3().records()).isEqualTo(2000);
        // read_uncommitted shows the killed task's unfinished transaction: the kill landed inside one
        assertThat(r.t3u().duplicates()).isPositive();
        // the switch replicated nothing again
        assertThat(r.t1again()).isEqualTo(r.t1());
        assertThat(r.contrastShown()).isTrue();
        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("Result: exactly-once holds");
    }
}
