package dev.flowform.bench;

import dev.flowform.cli.CliContext;
import dev.flowform.cli.Main;
import dev.flowform.cli.Prompter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * Runs one flowform command repeatedly in this JVM and prints one line per measured run:
 * {@code <wall ms> <peak heap MB>}. Started by the harness as a child JVM (with {@code -Xmx512m}), so the
 * heap it reports is flowform's alone, not the embedded cluster's.
 *
 * <p>Arguments: {@code <warm-up runs> <measured runs> <flowform arguments...>}. The command must exit 0 or 2.
 */
public final class PlanProbe {

    private PlanProbe() {
    }

    /**
     * @param args warm-up count, measured count, then the flowform command line
     */
    public static void main(String[] args) {
        int warmup = Integer.parseInt(args[0]);
        int runs = Integer.parseInt(args[1]);
        String[] command = List.of(args).subList(2, args.length).toArray(String[]::new);
        CliContext ctx = new CliContext(Clock.systemUTC(), Prompter.system(), System.getenv(), null, Duration.ofSeconds(10));
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        for (int i = 0; i < warmup + runs; i++) {
            System.gc();
            heap.forEach(MemoryPoolMXBean::resetPeakUsage);
            StringWriter err = new StringWriter();
            var cl = Main.commandLine(ctx);
            cl.setOut(new PrintWriter(Writer.nullWriter()));
            cl.setErr(new PrintWriter(err));
            long t0 = System.nanoTime();
            int code = cl.execute(command);
            long t1 = System.nanoTime();
            if (code != 0 && code != 2) {
                System.err.println("flowform exited " + code + ": " + err);
                System.exit(1);
            }
            long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
            if (i >= warmup) {
                System.out.println((t1 - t0) / 1e6 + " " + peak / (1024.0 * 1024.0));
            }
        }
        System.exit(0);
    }
}
