package dev.flowform.cli.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.connect.RealKafka.Counted;
import dev.flowform.connect.RealKafka.Produced;
import dev.flowform.run.ExactlyOnceProof;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lines {@code flowform prove} prints, from the events of its operation. */
class ProveViewTest {

    @Test
    void prints_progress_counts_and_the_summary_table() {
        StringWriter text = new StringWriter();
        ProveView view = new ProveView(new PrintWriter(text));
        Produced p = new Produced(1000, 300);
        Counted exact = new Counted(1000, 1000, 0, 0);
        Counted leaky = new Counted(1300, 1000, 0, 300);
        view.settling(1, 2, 0, 1, List.of("a: not ready", "mm2: no status"));
        view.killed("ns/pod-0", LocalTime.of(8, 1, 2, 3_000_000), "why");
        view.counted("p1", p, leaky);
        view.summary(new ExactlyOnceProof.Report(p, leaky, p, new Counted(1100, 1000, 100, 300), p, exact, p, exact,
                new Counted(1010, 1000, 10, 0), exact));
        view.done(Duration.ofMillis(1500));
        String n = System.lineSeparator();
        assertThat(text.toString()).isEqualTo(String.join(n,
                "  1 of 2 connectors running, 0 of 1 KafkaMirrorMaker2s with every connector running",
                "    a: not ready",
                "    mm2: no status",
                "  killed the worker of pod ns/pod-0 (SIGKILL at 08:01:02.003; why); its container restarts",
                "  produced 1000 committed + 300 aborted; target (read_committed) has 1300 records of p1: 1000 committed"
                        + " (1000 distinct), 300 aborted, 0 duplicates",
                "",
                "Exactly-once proof (target read with read_committed):",
                "  phase                              committed   aborted replicated  aborted duplicates",
                "                                      produced  produced   distinct     seen           ",
                "  before: at-least-once                   1000       300       1000      300          0",
                "  before: at-least-once + SIGKILL         1000       300       1000      300        100",
                "  after: the moment apply returned        1000       300       1000        0          0",
                "  after: exactly-once + SIGKILL           1000       300       1000        0          0",
                "Result: exactly-once does NOT hold after the rollout.",
                String.format("Done in %.1f s.", 1.5), ""));
    }
}
