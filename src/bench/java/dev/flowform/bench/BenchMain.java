package dev.flowform.bench;

import dev.flowform.plan.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark harness (issue 6), run by {@code mvn -Pbench verify}: plan at scale, apply overhead against
 * the simulated operator's critical path (and the manual procedure), wait latency, start-up, state growth.
 * Writes {@code results.json} and {@code results.md} into the output folder and prints the markdown.
 *
 * <p>Arguments: {@code --project DIR --jar FLOWFORM_JAR --out DIR}, then optional {@code only=a,b}
 * (sections: plan, apply, startup, apply-flows, state; {@code apply-flows} takes {@code flows=1,200},
 * {@code flows-runs=N} and {@code flows-parallelism=N}, see {@link FlowsBench}), {@code runs=N} (measured runs, default 5), {@code warmup=N}
 * (default 2), {@code quick} (smaller sizes, to try the harness), {@code baseline=JAR} (also measure the start-up
 * of another build), {@code startup-variants=launchers} (start-up of the launcher and the image's tree only).
 */
public final class BenchMain {

    private BenchMain() {
    }

    /**
     * Harness options.
     *
     * @param project the repository root (for {@code examples/quickstart})
     * @param jar     the shaded flowform jar
     * @param out     where results go
     * @param only    sections to run
     * @param runs    measured runs per figure
     * @param warmup  warm-up runs per figure
     * @param quick   smaller sizes
     * @param baselineJar another flowform jar whose start-up is measured too (the build before a change), or null
     * @param extra       other {@code key=value} arguments: {@code plan-sizes=1,10}, {@code plan-namespaces=1},
     *                    {@code apply-sizes=1,10}, {@code probe-opts=-XX:StartFlightRecording=filename=x.jfr} (JVM
     *                    options of the in-process plan probe, separated by |), {@code manual=off} (skip the manual
     *                    procedure), {@code apply-backends=h2,pg} (where the apply benchmark keeps the state)
     */
    public record Options(Path project, Path jar, Path out, Set<String> only, int runs, int warmup, boolean quick,
                          Path baselineJar, Map<String, String> extra) {

        /** @return scratch folder under {@link #out()} */
        public Path work() {
            return out.resolve("work");
        }

        /** @return the N of the plan benchmark */
        public List<Integer> planSizes() {
            return ints("plan-sizes", quick ? List.of(1, 10, 100) : List.of(1, 10, 100, 500));
        }

        /** @return the namespace counts of the plan benchmark */
        public List<Integer> planNamespaces() {
            return ints("plan-namespaces", List.of(1, 10));
        }

        /** @return extra JVM options of the in-process plan probe */
        public List<String> probeOptions() {
            String v = extra.get("probe-opts");
            return v == null || v.isBlank() ? List.of() : List.of(v.split("\\|"));
        }

        private List<Integer> ints(String key, List<Integer> otherwise) {
            String v = extra.get(key);
            return v == null ? otherwise : java.util.Arrays.stream(v.split(",")).map(Integer::valueOf).toList();
        }

        /** @return the K of the apply benchmark */
        public List<Integer> applySizes() {
            return ints("apply-sizes", quick ? List.of(1, 10) : List.of(1, 10, 50));
        }

        /** @return the state backends of the apply benchmark, {@code h2} and {@code pg} unless {@code apply-backends=} says */
        public List<String> applyBackends() {
            String v = extra.get("apply-backends");
            return v == null ? List.of("h2", "pg") : List.of(v.split(","));
        }

        boolean wants(String section) {
            return only.isEmpty() || only.contains(section);
        }
    }

    /**
     * @param args see the class comment
     * @throws Exception when a benchmark fails
     */
    public static void main(String[] args) throws Exception {
        Options options = parse(args);
        Files.createDirectories(options.out());
        Report report = new Report();
        Map<String, Object> machine = Machine.describe();
        report.put("machine", machine);
        report.put("started_at", Instant.now().toString());
        report.put("command", "mvn -Pbench verify");
        report.put("runs", options.runs());
        report.put("warmup", options.warmup());
        List<Double> loads = new ArrayList<>();
        loads.add(Machine.load());
        report.md("## Performance\n");
        report.md("Measured with `mvn -Pbench verify` (results in `target/bench/results.json` and `results.md`) on "
                + Machine.summary(machine) + ".\n");
        // start-up first: whole-process timings of a few hundred ms are the most sensitive to what ran before
        if (options.wants("startup")) {
            report.section(4);
            new StartupBench(options, report).run();
            loads.add(Machine.load());
        }
        if (options.wants("plan")) {
            report.section(1);
            new PlanBench(options, report).run();
            loads.add(Machine.load());
        }
        if (options.wants("apply")) {
            report.section(2);
            new ApplyBench(options, report).run();
            loads.add(Machine.load());
        }
        if (options.wants("apply-flows")) {
            report.section(6);
            new FlowsBench(options, report).run();
            loads.add(Machine.load());
        }
        if (options.wants("state")) {
            report.section(5);
            new StateBench(options, report).run();
            loads.add(Machine.load());
        }
        report.put("load_average_1m", loads);
        report.put("finished_at", Instant.now().toString());
        report.section(9);
        report.md("Load average (1 min) when the harness started (it includes the Maven build just before it): "
                + String.format("%.2f", loads.get(0)) + "; after each section (the benchmarks' own load): "
                + loads.subList(1, loads.size()).stream().map(l -> String.format("%.2f", l)).toList() + ".\n");
        Files.writeString(options.out().resolve("results.json"),
                Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report.json()));
        Files.writeString(options.out().resolve("results.md"), report.markdown());
        System.out.println();
        System.out.println(report.markdown());
        System.out.println("Wrote " + options.out().resolve("results.json") + " and results.md");
        System.exit(0);
    }

    private static Options parse(String[] args) {
        Path project = Path.of(".");
        Path jar = Path.of("target/flowform.jar");
        Path out = Path.of("target/bench");
        Set<String> only = new java.util.TreeSet<>();
        int runs = 5;
        int warmup = 2;
        boolean quick = false;
        Path baselineJar = null;
        Map<String, String> extra = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--project" -> project = Path.of(args[++i]);
                case "--jar" -> jar = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "quick" -> quick = true;
                default -> {
                    if (a.startsWith("only=")) {
                        only.addAll(List.of(a.substring(5).split(",")));
                    } else if (a.startsWith("runs=")) {
                        runs = Integer.parseInt(a.substring(5));
                    } else if (a.startsWith("baseline=")) {
                        baselineJar = Path.of(a.substring(9)).toAbsolutePath().normalize();
                    } else if (a.startsWith("warmup=")) {
                        warmup = Integer.parseInt(a.substring(7));
                    } else if (a.matches("(plan-sizes|plan-namespaces|apply-sizes|apply-backends|probe-opts|manual|flows|flows-runs|flows-parallelism|flows-kafka|startup-variants)=.*")) {
                        extra.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
                    } else if (!a.isBlank()) {
                        throw new IllegalArgumentException("unknown argument " + a);
                    }
                }
            }
        }
        return new Options(project.toAbsolutePath().normalize(), jar.toAbsolutePath().normalize(),
                out.toAbsolutePath().normalize(), only, runs, warmup, quick,
                baselineJar, extra);
    }

    /** @param dir a folder to delete with everything in it; nothing happens when it does not exist */
    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.delete(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return JVM uptime, for logs */
    static String uptime() {
        return ManagementFactory.getRuntimeMXBean().getUptime() / 1000 + " s";
    }

    /** @return a map builder shortcut */
    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(String.valueOf(kv[i]), kv[i + 1]);
        }
        return m;
    }
}
