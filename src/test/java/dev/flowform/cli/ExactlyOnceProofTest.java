package dev.flowform.cli;

import dev.flowform.run.ExactlyOnceProof;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The data proof on real Kafka: {@code flowform prove} on {@code examples/real-kafka} (an adopted Connect
 * cluster whose MirrorMaker 2 flow runs at-least-once with read_uncommitted, 3 source tasks over 6 partitions), with real
 * rolls of real Connect workers, and exact counts of what reached the target before, the moment after, and after the
 * rollout. Nothing but flowform's plan and apply runs between the phases.
 */
@Tag("kafka")
class ExactlyOnceProofTest {

    @Test
    void the_rollout_makes_the_flow_exactly_once_and_the_contrast_shows_why() {
        RealKafkaExample.Proved run = RealKafkaExample.prove(Path.of("examples/real-kafka"));
        int code = run.code();
        String out = run.out();
        String err = run.err();
        ExactlyOnceProof.Report r = run.report();
        assertThat(r).as("the rollout ran; output:\n%s\n%s", out, err).isNotNull();

        // before: at-least-once shows the seed's warning: aborted records replicated as committed
        assertThat(r.p1().committed()).isEqualTo(1000);
        assertThat(r.p1().aborted()).isEqualTo(300);
        assertThat(r.t1().committed()).isEqualTo(1000);
        assertThat(r.t1().aborted()).isEqualTo(300);
        assertThat(r.t1().duplicates()).isZero();

        // before, with the crash: nothing lost, but duplicates (the contrast that makes the proof mean something)
        assertThat(r.p2().committed()).isEqualTo(2000);
        assertThat(r.p2().aborted()).isEqualTo(500);
        assertThat(r.t2().committed()).isEqualTo(2000);
        assertThat(r.t2().duplicates()).isPositive();
        assertThat(r.t2().aborted()).isGreaterThanOrEqualTo(500);

        // the moment apply returned: no task of the old read_uncommitted configuration copied an aborted record
        assertThat(r.pNow().committed()).isEqualTo(500);
        assertThat(r.pNow().aborted()).isEqualTo(500);
        assertThat(r.tNow().committed()).isEqualTo(500);
        assertThat(r.tNow().aborted()).isZero();
        assertThat(r.tNow().duplicates()).isZero();

        // after the rollout, with the same crash: exactly once
        assertThat(r.p3().committed()).isEqualTo(2000);
        assertThat(r.t3().committed()).isEqualTo(2000);
        assertThat(r.t3().duplicates()).isZero();
        assertThat(r.t3().aborted()).isZero();
        assertThat(r.t3().records()).isEqualTo(2000);
        // read_uncommitted shows the killed task's unfinished transaction: the kill landed inside one
        assertThat(r.t3u().duplicates()).isPositive();

        // the switch replicated nothing again
        assertThat(r.t1again()).isEqualTo(r.t1());
        assertThat(r.contrastShown()).isTrue();
        assertThat(code).isZero();
        assertThat(out).contains("Apply complete!").contains("Result: exactly-once holds");
    }
}
