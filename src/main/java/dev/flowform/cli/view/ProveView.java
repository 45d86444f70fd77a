package dev.flowform.cli.view;

import dev.flowform.connect.RealKafka;
import dev.flowform.run.ExactlyOnceProof;
import dev.flowform.run.ProveHooks;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;

/** Prints what {@code flowform prove} reports as people read it: progress lines, the counts, the summary table. */
public final class ProveView implements ProveHooks {
    private final PrintWriter out;

    /** @param out where to print (the command's standard output) */
    public ProveView(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void kafkaStarting(List<String> aliases, Path work) {
        line("Starting Kafka clusters " + String.join(", ", aliases) + " (working folder " + work + ")");
    }

    @Override
    public void kafkaUp(Duration elapsed, Path workerLogs) {
        line(String.format("Kafka up in %.1f s; the embedded operator starts the Connect workers (logs in %s)",
                seconds(elapsed), workerLogs));
    }

    @Override
    public void settling(long running, int connectors, long mm2Running, int mm2s, List<String> waiting) {
        out.printf("  %d of %d connectors running%s%n", running, connectors, mm2s == 0 ? ""
                : ", " + mm2Running + " of " + mm2s + " KafkaMirrorMaker2s with every connector running");
        waiting.forEach(w -> out.println("    " + w));
        out.flush();
    }

    @Override
    public void connectorsRunning(Duration elapsed) {
        line(String.format("Every connector runs (%.1f s since start)", seconds(elapsed)));
    }

    @Override
    public void phase(String headline) {
        line(headline);
    }

    @Override
    public void awaitingOffsetCommit(Duration wait) {
        line("  waiting " + wait.toSeconds() + " s, so the at-least-once task commits the offsets of phase 1 before the crash");
    }

    @Override
    public void killed(String pod, LocalTime at, String why) {
        line("  killed the worker of pod " + pod + " (SIGKILL at " + at + "; " + why + "); its container restarts");
    }

    @Override
    public void counted(String phase, RealKafka.Produced p, RealKafka.Counted c) {
        line(String.format("  produced %d committed + %d aborted; target (read_committed) has %d records of %s: "
                        + "%d committed (%d distinct), %d aborted, %d duplicates", p.committed(), p.aborted(),
                c.records(), phase, c.committed() + c.duplicates(), c.committed(), c.aborted(), c.duplicates()));
    }

    @Override
    public void countedUncommitted(RealKafka.Counted c) {
        line(String.format("  read_uncommitted on the target: %d records, %d of them copies from the killed task's "
                + "unfinished transaction", c.records(), c.duplicates()));
    }

    @Override
    public void countedAgain(RealKafka.Counted c) {
        line(String.format("Phase 1 counted again: %d records (%d committed, %d aborted, %d duplicates)",
                c.records(), c.committed(), c.aborted(), c.duplicates()));
    }

    @Override
    public void summary(ExactlyOnceProof.Report r) {
        out.println();
        out.println("Exactly-once proof (target read with read_committed):");
        out.printf("  %-34s %9s %9s %10s %8s %10s%n", "phase", "committed", "aborted", "replicated", "aborted", "duplicates");
        out.printf("  %-34s %9s %9s %10s %8s %10s%n", "", "produced", "produced", "distinct", "seen", "");
        row("before: at-least-once", r.p1(), r.t1());
        row("before: at-least-once + SIGKILL", r.p2(), r.t2());
        row("after: the moment apply returned", r.pNow(), r.tNow());
        row("after: exactly-once + SIGKILL", r.p3(), r.t3());
        if (!r.contrastShown()) {
            out.println("The at-least-once phases did not show what they are for (aborted records copied, duplicates "
                    + "after the kill): the proof proves nothing about this run.");
        }
        line(r.holds()
                ? "Result: exactly-once holds after the rollout: 0 aborted, 0 duplicates, nothing missing."
                : "Result: exactly-once does NOT hold after the rollout.");
    }

    @Override
    public void done(Duration elapsed) {
        line(String.format("Done in %.1f s.", seconds(elapsed)));
    }

    private void row(String name, RealKafka.Produced p, RealKafka.Counted c) {
        out.printf("  %-34s %9d %9d %10d %8d %10d%n", name, p.committed(), p.aborted(), c.committed(), c.aborted(),
                c.duplicates());
    }

    private void line(String text) {
        out.println(text);
        out.flush();
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
