package dev.flowform.bench;

import dev.flowform.cli.CliContext;
import dev.flowform.cli.Main;
import dev.flowform.cli.Prompter;
import dev.flowform.plan.Json;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark {@code apply-flows}: many flows on one Connect cluster. One KafkaConnect of 3 workers runs N MirrorMaker 2
 * flows without exactly-once; the configuration asks for exactly-once, so {@code flowform apply --auto-approve}
 * (default {@code --parallelism} unless {@code flows-parallelism=N}) rolls the workers to {@code preparing}, then
 * {@code enabled}, then updates the N source connectors, each waited for until RUNNING. With the simulator's demo
 * timings ({@link SimSettings#demo()}).
 *
 * <p>Measured twice: with the workers on Kafka 3.9.0, where the connector updates run concurrently after the last
 * roll, and on Kafka 3.5.2, where they run one at a time (KAFKA-15059), which is also how every version ran before
 * connector lanes existed. Reports the wall time at 1 and at N flows and their ratio (target: at most 3 at 200
 * flows). Arguments: {@code flows=1,200} (the flow counts), {@code flows-runs=N} (runs at each count above 1,
 * default 1; the count of 1 runs {@code runs} times), {@code flows-parallelism=N}, {@code flows-kafka=3.9.0} (only
 * these versions).
 */
final class FlowsBench {

    /** The Kafka versions measured: concurrent connector lanes, and one at a time (KAFKA-15059). */
    private static final List<String> VERSIONS = List.of("3.9.0", "3.5.2");

    private final BenchMain.Options options;
    private final Report report;

    FlowsBench(BenchMain.Options options, Report report) {
        this.options = options;
        this.report = report;
    }

    void run() throws Exception {
        List<Integer> counts = counts();
        List<List<String>> table = new ArrayList<>();
        List<Map<String, Object>> rows = new ArrayList<>();
        List<String> verdicts = new ArrayList<>();
        List<String> versions = options.extra().containsKey("flows-kafka")
                ? List.of(options.extra().get("flows-kafka").split(",")) : VERSIONS;
        for (int i = 0; i < options.warmup(); i++) {
            System.out.printf("apply-flows warm-up %d: %.0f ms%n", i, applyOnce(1, versions.get(0), -1 - i));
        }
        for (String version : versions) {
            Stats one = null;
            for (int n : counts) {
                int runs = n == 1 ? options.runs() : Integer.parseInt(options.extra().getOrDefault("flows-runs", "1"));
                List<Double> walls = new ArrayList<>();
                for (int i = 0; i < runs; i++) {
                    double ms = applyOnce(n, version, i);
                    System.out.printf("apply-flows N=%d Kafka %s run %d: %.0f ms (load %.2f)%n", n, version, i, ms,
                            Machine.load());
                    walls.add(ms);
                }
                Stats wall = Stats.of(walls);
                one = n == 1 ? wall : one;
                double ratio = one == null ? Double.NaN : wall.median() / one.median();
                rows.add(BenchMain.map("flows", n, "kafka", version, "parallelism", parallelism(), "connectors", mode(version),
                        "apply_wall_ms",
                        wall.toJson(), "ratio_to_one_flow", ratio, "load_average_1m", Machine.load()));
                table.add(List.of(String.valueOf(n), version, mode(version), wall.format(0), String.format("%.2f", ratio),
                        String.format("%.2f", Machine.load())));
                if (n > 1 && !version.startsWith("3.5")) {
                    verdicts.add("- " + n + " flows on one Connect cluster in at most 3 × the time of one (Kafka " + version
                            + "): " + Report.verdict(ratio <= 3, String.format("%.2f ×", ratio)));
                }
            }
        }
        report.put("apply_flows", rows);
        report.md("### Many flows on one Connect cluster (`only=apply-flows`)\n");
        report.md("One KafkaConnect (3 workers) runs N flows without exactly-once; the configuration asks for it: two "
                + "rolls, then the N source connectors updated, each waited for until RUNNING. `flowform apply "
                + "--auto-approve --parallelism " + parallelism() + "` in-process, simulator demo timings. Kafka 3.9.0: "
                + "the connector steps run concurrently after the last roll; "
                + "3.5.2: one at a time (KAFKA-15059), as every version did before. Median (min–max) in ms after " + options.warmup()
                + " warm-up applies of one flow; the ratio is to one flow on the same version.\n");
        report.md(Report.table(List.of("flows", "Kafka", "connector steps", "apply", "÷ 1 flow", "load (1 min)"), table));
        report.md(String.join("\n", verdicts) + "\n");
    }

    /** @return the {@code --parallelism} of every apply: {@code flows-parallelism=N}, default flowform's own */
    private int parallelism() {
        return Integer.parseInt(options.extra().getOrDefault("flows-parallelism",
                String.valueOf(dev.flowform.apply.Applier.DEFAULT_PARALLELISM)));
    }

    private List<Integer> counts() {
        String v = options.extra().get("flows");
        return v == null ? List.of(1, options.quick() ? 20 : 200)
                : java.util.Arrays.stream(v.split(",")).map(Integer::valueOf).toList();
    }

    private static String mode(String version) {
        return version.startsWith("3.5") ? "one at a time" : "concurrent";
    }

    /** @return the wall time of one {@code apply} of {@code n} flows on workers running Kafka {@code version}, ms */
    private double applyOnce(int n, String version, int iteration) throws IOException {
        Fixtures fx = new Fixtures(1, n, 1);
        Path work = options.work().resolve("flows-" + n + "-" + version + "-" + iteration);
        BenchMain.deleteTree(work);
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                .seedDir(writeSeed(fx, version, work.resolve("seed"))).settings(SimSettings.demo()).build())) {
            Path config = fx.writeConfig(work.resolve("config"), cluster.writeKubeconfig(work.resolve("kubeconfig")));
            Path state = work.resolve("state");
            StateStore.open(state, Fixtures.ENVIRONMENT, Clock.systemUTC()).close();
            CliContext ctx = new CliContext(Clock.systemUTC(), Prompter.system(), System.getenv(), null, Duration.ofSeconds(10));
            var cl = Main.commandLine(ctx);
            StringWriter err = new StringWriter();
            cl.setOut(new PrintWriter(Writer.nullWriter()));
            cl.setErr(new PrintWriter(err));
            long t0 = System.nanoTime();
            int code = cl.execute("apply", "--dir", config.toString(), "--state-dir", state.toString(), "--auto-approve",
                    "--no-color", "--parallelism", String.valueOf(parallelism()));
            double wall = (System.nanoTime() - t0) / 1e6;
            if (code != 0) {
                throw new IllegalStateException("apply of " + n + " flows (Kafka " + version + ") exited " + code + ": " + err);
            }
            try (StateStore store = StateStore.open(state, Fixtures.ENVIRONMENT, Clock.systemUTC())) {
                List<StepRecord> steps = store.journal().steps(store.journal().runs(1).get(0).id());
                java.time.Instant first = steps.stream().map(StepRecord::startedAt).min(java.util.Comparator.naturalOrder())
                        .orElseThrow();
                java.time.Instant last = steps.stream().map(StepRecord::finishedAt).max(java.util.Comparator.naturalOrder())
                        .orElseThrow();
                System.out.printf("apply-flows N=%d Kafka %s: %d steps in %d ms of the apply's %.0f ms%n", n, version,
                        steps.size(), Duration.between(first, last).toMillis(), wall);
            }
            return wall;
        } finally {
            BenchMain.deleteTree(work);
        }
    }

    /** Writes the seed of {@code fx} with its KafkaConnect's {@code spec.version} and reported versions set to {@code version}. */
    @SuppressWarnings("unchecked")
    private static Path writeSeed(Fixtures fx, String version, Path dir) throws IOException {
        List<Map<String, Object>> items = fx.objects();
        for (Map<String, Object> o : items) {
            if ("KafkaConnect".equals(o.get("kind"))) {
                ((Map<String, Object>) o.get("spec")).put("version", version);
                Object status = o.get("status");
                if (status instanceof Map<?, ?> s && s.get("connectorPlugins") instanceof List<?> plugins) {
                    List<Map<String, Object>> versioned = new ArrayList<>();
                    for (Object p : plugins) {
                        Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) p);
                        copy.put("version", version);
                        versioned.add(copy);
                    }
                    ((Map<String, Object>) status).put("connectorPlugins", versioned);
                }
            }
        }
        Files.createDirectories(dir);
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("apiVersion", "v1");
        list.put("kind", "List");
        list.put("items", items);
        Files.writeString(dir.resolve("c00000.yaml"), Json.MAPPER.writeValueAsString(list));
        return dir;
    }
}
