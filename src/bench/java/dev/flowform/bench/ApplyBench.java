package dev.flowform.bench;

import dev.flowform.locking.Sleeper;
import dev.flowform.cli.CliContext;
import dev.flowform.cli.Main;
import dev.flowform.cli.Prompter;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.sim.StrimziSimulator;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import dev.flowform.state.pg.PgConnection;
import dev.flowform.testing.PgServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Benchmarks 2 and 3, apply overhead and wait latency: K Connect clusters that each need the full exactly-once
 * sequence (preparing, roll, enabled, roll, then 4 source connectors), applied by {@code flowform apply
 * --auto-approve --parallelism K} in-process against the embedded cluster with a roll time of R per pod, with the
 * state in H2 ({@code --state-dir}) and in PostgreSQL (the {@code pg} backend block and {@code FLOWFORM_PG_CONN_STR},
 * on the test fixture's embedded PostgreSQL 14 over loopback, a fresh database for each run), one after the other
 * at each K.
 *
 * <p>The simulator reports, for every generation flowform wrote, when its informer saw it and when it wrote
 * the Ready status ({@link StrimziSimulator.Observer}). A cluster's critical path is the length of
 * the union of those operator intervals (two rolls and four connector reconciles, which may overlap); the apply is compared with the slowest
 * cluster's. Wait latency is the time from a Ready status write to the journal entry of the step after a roll
 * wait (the applier starting it), or of a connector wait's own completion (its lane may end there: connectors
 * run concurrently on Kafka 3.6 or newer).
 *
 * <p>The manual procedure does the same work one cluster after another: merge-patch, then read every 2 s
 * until the object reports Ready at the new generation.
 */
final class ApplyBench {

    /** Simulated operator timing: reconcile after 300 ms, each pod Ready 1 s after re-creation, connectors after 300 ms. */
    static final SimSettings SETTINGS = new SimSettings(Duration.ofMillis(300), Duration.ofMillis(1000),
            Duration.ofMillis(300), Duration.ofSeconds(60));
    private static final int FLOWS = 4;
    private static final Duration MANUAL_POLL = Duration.ofSeconds(2);
    /** The simulator's own minimum for one cluster: two rolls (reconcile, then each worker in turn) and the connectors, ms. */
    private static final double THEORETICAL_MS = 2 * (SETTINGS.reconcileDelay().toMillis()
            + Fixtures.WORKERS * SETTINGS.podReadyDelay().toMillis()) + FLOWS * SETTINGS.connectorDelay().toMillis();
    /** The schema of the {@code pg} backend block the apply is pointed at. */
    private static final String PG_SCHEMA = "flowform";
    /** How the verdicts name each backend. */
    private static final Map<String, String> NAMES = Map.of("h2", "H2", "pg", "PostgreSQL");

    private final BenchMain.Options options;
    private final Report report;

    ApplyBench(BenchMain.Options options, Report report) {
        this.options = options;
        this.report = report;
    }

    /** One measured apply. */
    private record Run(double wallMs, double stepsMs, double criticalMs, List<Double> waitLatencies, long requests,
                       double beforeStepsMs, double afterStepsMs) {
    }

    void run() throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        List<List<String>> table = new ArrayList<>();
        Map<String, List<Double>> latencies = new LinkedHashMap<>();
        List<String> verdicts = new ArrayList<>();
        for (int k : options.applySizes()) {
            Stats manual = manual(k);
            // both backends at one K before the next K, so a change in the machine's load hits both alike
            for (String backend : options.applyBackends()) {
                List<Run> runs = measure(k, backend);
                runs.forEach(r -> latencies.computeIfAbsent(backend, b -> new ArrayList<>()).addAll(r.waitLatencies()));
                Row row = row(k, backend, runs, manual);
                rows.add(row.json());
                table.add(row.cells());
                if (k == 50) {
                    verdicts.add("- Apply takes under 1.10 × the critical path at K = 50, state in " + NAMES.get(backend) + ": "
                            + Report.verdict(row.ratio().median() < 1.10, String.format("%.3f for the whole command; %.3f "
                            + "for the steps alone", row.ratio().median(), row.stepRatio().median())));
                }
            }
        }
        Map<String, Object> latencyJson = new LinkedHashMap<>();
        List<String> latencyLines = new ArrayList<>();
        latencies.forEach((backend, values) -> {
            Stats lat = Stats.of(values);
            latencyJson.put(backend, lat.toJson());
            latencyLines.add(String.format("%s median %.1f ms, p99 %.1f ms, max %.1f ms (n = %d)", NAMES.get(backend),
                    lat.median(), lat.p99(), lat.max(), lat.n()));
            verdicts.add("- Wait latency median under 50 ms, state in " + NAMES.get(backend) + ": "
                    + Report.verdict(lat.median() < 50, String.format("%.1f ms", lat.median())));
            verdicts.add("- Wait latency p99 under 200 ms, state in " + NAMES.get(backend) + ": " + Report.verdict(lat.p99() < 200,
                    String.format("%.1f ms over %d waits, max %.1f ms", lat.p99(), lat.n(), lat.max())));
        });
        report.put("apply", rows);
        report.put("apply_settings", BenchMain.map("reconcile_delay_ms", SETTINGS.reconcileDelay().toMillis(),
                "pod_ready_delay_ms", SETTINGS.podReadyDelay().toMillis(), "connector_delay_ms", SETTINGS.connectorDelay().toMillis(),
                "theoretical_critical_path_ms", THEORETICAL_MS, "backends", options.applyBackends()));
        report.put("wait_latency_ms", latencyJson);
        report.put("apply_verdicts", verdicts);
        report.md("### 2. Apply overhead and 3. wait latency\n");
        report.md(description());
        report.md(Report.table(List.of("K", "backend", "critical path", "apply", "apply / critical", "steps", "steps / critical",
                "manual procedure", "speed-up", "API requests"), table));
        report.md("Wait latency (Ready status written → next step journaled), all waits of all measured runs: "
                + String.join("; ", latencyLines) + ".\n");
        report.md(String.join("\n", verdicts) + "\n");
    }

    /** @return the measured runs of {@code apply} at K clusters with the state in {@code backend}, after the warm-up */
    private List<Run> measure(int k, String backend) throws Exception {
        List<Run> runs = new ArrayList<>();
        for (int i = 0; i < options.warmup() + options.runs(); i++) {
            Run r = applyOnce(k, i, backend);
            System.out.println("apply K=" + k + " backend=" + backend + " run " + i + ": " + r);
            if (i >= options.warmup()) {
                runs.add(r);
            }
        }
        return runs;
    }

    /** @return the manual procedure's wall times at K clusters (3 runs at K = 1, else 1), or null when turned off */
    private Stats manual(int k) throws Exception {
        int manualRuns = !"off".equals(options.extra().get("manual")) ? k == 1 ? Math.min(3, options.runs()) : 1 : 0;
        List<Double> manual = new ArrayList<>();
        for (int i = 0; i < manualRuns; i++) {
            double ms = manualOnce(k);
            System.out.println("manual K=" + k + " run " + i + ": " + ms + " ms");
            manual.add(ms);
        }
        return manual.isEmpty() ? null : Stats.of(manual);
    }

    /**
     * One line of the table and of {@code results.json}.
     *
     * @param json      the JSON row
     * @param cells     the markdown cells
     * @param ratio     apply wall time / critical path
     * @param stepRatio steps wall time / critical path
     */
    private record Row(Map<String, Object> json, List<String> cells, Stats ratio, Stats stepRatio) {
    }

    private static Row row(int k, String backend, List<Run> runs, Stats manual) {
        Stats wall = Stats.of(runs.stream().map(Run::wallMs).toList());
        Stats steps = Stats.of(runs.stream().map(Run::stepsMs).toList());
        Stats critical = Stats.of(runs.stream().map(Run::criticalMs).toList());
        Stats ratio = Stats.of(runs.stream().map(r -> r.wallMs() / r.criticalMs()).toList());
        Stats stepRatio = Stats.of(runs.stream().map(r -> r.stepsMs() / r.criticalMs()).toList());
        List<Double> latencies = new ArrayList<>();
        runs.forEach(r -> latencies.addAll(r.waitLatencies()));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("clusters", k);
        row.put("backend", backend);
        row.put("parallelism", k);
        row.put("apply_wall_ms", wall.toJson());
        row.put("steps_wall_ms", steps.toJson());
        row.put("critical_path_ms", critical.toJson());
        row.put("theoretical_critical_path_ms", THEORETICAL_MS);
        row.put("ratio_apply_to_critical_path", ratio.toJson());
        row.put("ratio_steps_to_critical_path", stepRatio.toJson());
        row.put("manual_ms", manual == null ? null : manual.toJson());
        row.put("speedup_vs_manual", manual == null ? null : manual.median() / wall.median());
        row.put("wait_latency_ms", Stats.of(latencies).toJson());
        row.put("api_requests", runs.get(runs.size() - 1).requests());
        row.put("before_first_step_ms", Stats.of(runs.stream().map(Run::beforeStepsMs).toList()).toJson());
        row.put("after_last_step_ms", Stats.of(runs.stream().map(Run::afterStepsMs).toList()).toJson());
        List<String> cells = List.of(String.valueOf(k), backend, critical.format(0), wall.format(0), ratio.format(3),
                steps.format(0), stepRatio.format(3),
                manual == null ? "not measured" : manual.format(0) + (manual.n() == 1 ? " (n=1)" : ""),
                manual == null ? "–" : String.format("%.1f×", manual.median() / wall.median()),
                String.valueOf(row.get("api_requests")));
        return new Row(row, cells, ratio, stepRatio);
    }

    /** @return the paragraph that says what the table measures */
    private String description() {
        return "K Connect clusters each need the whole exactly-once sequence (preparing, roll, enabled, roll, 4 source "
                + "connectors); `flowform apply --auto-approve --parallelism K` in-process. Simulated operator: reconcile after "
                + SETTINGS.reconcileDelay().toMillis() + " ms, roll time R = " + SETTINGS.podReadyDelay().toMillis()
                + " ms per pod (3 pods, one at a time), connectors after " + SETTINGS.connectorDelay().toMillis()
                + " ms; its own minimum for one cluster is " + String.format("%.0f", THEORETICAL_MS) + " ms. Critical path: the "
                + "simulator's own time (from seeing each generation flowform wrote to writing its Ready status) of the "
                + "slowest cluster, overlapping intervals (connectors reconciled together) counted once. \"Apply\" is the "
                + "whole command (configuration, state, read, plan, steps, "
                + "snapshot); \"steps\" runs from the first journaled step to the last. Backend: where the state lives, "
                + "`h2` (`--state-dir`, a file database) or `pg` (the `pg` backend block and `" + PgConnection.CONN_STR_VARIABLE
                + "`, on an embedded PostgreSQL 14 over loopback, a fresh database for each run); the manual procedure keeps "
                + "no state, so both rows of a K share its figure. Manual: one cluster after another, "
                + "merge-patch, then read every 2 s until Ready at the new generation. Median (min–max) of "
                + options.runs() + " runs after " + options.warmup() + " warm-up runs, in ms.\n";
    }

    /**
     * Where one apply keeps its state.
     *
     * @param arguments   the apply's arguments that choose it
     * @param environment the apply's environment variables
     * @param reopen      opens the state afterwards, to read the journal back
     */
    private record StatePlace(List<String> arguments, Map<String, String> environment, Supplier<StateStore> reopen) {
    }

    /**
     * Creates the environment's state in {@code backend} (a plan creates it, so the apply does not create a schema).
     *
     * @param backend {@code h2}: a state folder under {@code work}; {@code pg}: a fresh database on the embedded
     *                PostgreSQL, named by {@value PgConnection#CONN_STR_VARIABLE} and a backend block written
     *                into the configuration folder {@code config}
     */
    private static StatePlace prepareState(String backend, Path work, Path config) throws IOException {
        if ("h2".equals(backend)) {
            Path state = work.resolve("state");
            StateStore.open(state, Fixtures.ENVIRONMENT, Clock.systemUTC()).close();
            return new StatePlace(List.of("--state-dir", state.toString()), System.getenv(),
                    () -> StateStore.open(state, Fixtures.ENVIRONMENT, Clock.systemUTC()));
        }
        if (!"pg".equals(backend)) {
            throw new IllegalArgumentException("apply-backends: unknown backend " + backend + " (h2 or pg)");
        }
        PgServer.Database db = PgServer.get().freshDatabase("apply");
        PgConnection settings = PgConnection.resolve(db.keywordConnStr(), Map.of());
        Supplier<StateStore> open = () -> StateStore.openPostgres(settings, PG_SCHEMA, Fixtures.ENVIRONMENT, Clock.systemUTC(),
                Sleeper.SYSTEM, true);
        open.get().close();
        Files.writeString(config.resolve("backend.flow.json"), "{\"backend\": {\"pg\": {\"schema_name\": \"" + PG_SCHEMA
                + "\"}}}\n");
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put(PgConnection.CONN_STR_VARIABLE, db.keywordConnStr());
        return new StatePlace(List.of(), env, open);
    }

    private Run applyOnce(int k, int iteration, String backend) throws Exception {
        Fixtures fx = new Fixtures(k, FLOWS, 1);
        Path work = options.work().resolve("apply-" + k + "-" + backend + "-" + iteration);
        BenchMain.deleteTree(work);
        Path seed = fx.writeSeed(work.resolve("seed"));
        List<Object[]> events = Collections.synchronizedList(new ArrayList<>());
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed)
                .settings(SETTINGS).build())) {
            cluster.simulator().addObserver((kind, ns, name, generation, seen, ready) ->
                    events.add(new Object[] {kind, name, generation, seen, ready}));
            Path kubeconfig = cluster.writeKubeconfig(work.resolve("kubeconfig"));
            Path config = fx.writeConfig(work.resolve("config"), kubeconfig);
            StatePlace place = prepareState(backend, work, config);
            CliContext ctx = new CliContext(Clock.systemUTC(), Prompter.system(), place.environment(), null, Duration.ofSeconds(10));
            var cl = Main.commandLine(ctx);
            StringWriter err = new StringWriter();
            cl.setOut(new PrintWriter(Writer.nullWriter()));
            cl.setErr(new PrintWriter(err));
            List<String> args = new ArrayList<>(List.of("apply", "--dir", config.toString()));
            args.addAll(place.arguments());
            args.addAll(List.of("--auto-approve", "--parallelism", String.valueOf(k), "--no-color"));
            long before = cluster.clientRequestCount();
            Instant started = Instant.now();
            long t0 = System.nanoTime();
            int code = cl.execute(args.toArray(String[]::new));
            double wall = (System.nanoTime() - t0) / 1e6;
            Instant ended = Instant.now();
            long requests = cluster.clientRequestCount() - before;
            if (code != 0) {
                throw new IllegalStateException("apply K=" + k + " (" + backend + ") exited " + code + ": " + err);
            }
            List<StepRecord> steps;
            try (StateStore store = place.reopen().get()) {
                RunRecord run = store.journal().runs(1).get(0);
                steps = store.journal().steps(run.id());
            }
            return analyse(k, wall, requests, steps, new ArrayList<>(events), started, ended);
        } finally {
            BenchMain.deleteTree(work);
        }
    }

    /** Critical path, steps wall time and wait latencies from the journal and the simulator's reports. */
    private static Run analyse(int k, double wall, long requests, List<StepRecord> steps, List<Object[]> events,
                               Instant started, Instant ended) {
        Map<String, List<StepRecord>> chains = new HashMap<>();
        Instant first = null;
        Instant last = null;
        for (StepRecord s : steps) {
            chains.computeIfAbsent(clusterOf(s.address()), x -> new ArrayList<>()).add(s);
            first = first == null || s.startedAt().isBefore(first) ? s.startedAt() : first;
            last = last == null || s.finishedAt().isAfter(last) ? s.finishedAt() : last;
        }
        Map<String, List<Object[]>> readyByObject = new HashMap<>();
        Map<String, List<Instant[]>> operatorBusy = new HashMap<>();
        Set<String> counted = new java.util.HashSet<>();
        for (Object[] e : events) {
            String name = (String) e[1];
            // only the generations this apply wrote, each once (a status re-written for the same generation is not
            // more operator work)
            if (((Instant) e[3]).isBefore(started) || !counted.add(e[0] + " " + name + " " + e[2])) {
                continue;
            }
            readyByObject.computeIfAbsent(e[0] + " " + name, x -> new ArrayList<>()).add(e);
            operatorBusy.computeIfAbsent(clusterOf(("KafkaConnect".equals(e[0]) ? "connect_cluster." : "kafka_connector.")
                    + name), x -> new ArrayList<>()).add(new Instant[] {(Instant) e[3], (Instant) e[4]});
        }
        readyByObject.values().forEach(l -> l.sort(Comparator.comparing(e -> (Instant) e[4])));
        if (chains.size() != k) {
            throw new IllegalStateException("expected " + k + " chains, journal has " + chains.keySet());
        }
        List<Double> latencies = new ArrayList<>();
        Set<Object[]> used = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (List<StepRecord> chain : chains.values()) {
            chain.sort(Comparator.comparingInt(StepRecord::stepId));
            for (int i = 0; i < chain.size(); i++) {
                StepRecord s = chain.get(i);
                if (!s.kind().startsWith("WAIT_")) {
                    continue;
                }
                String object = (s.kind().equals("WAIT_FOR_ROLL") ? "KafkaConnect " : "KafkaConnector ")
                        + s.address().substring(s.address().indexOf('.') + 1);
                List<Object[]> readies = readyByObject.getOrDefault(object, List.of());
                // the report this wait waited for: the first one about a generation the simulator saw after the step
                // before the wait (the write) started; reports of earlier generations (seeding) do not count
                Instant after = i > 0 ? chain.get(i - 1).startedAt() : s.startedAt();
                Object[] match = null;
                for (Object[] r : readies) {
                    if (!((Instant) r[3]).isBefore(after) && used.add(r)) {
                        match = r;
                        break;
                    }
                }
                if (match == null) {
                    throw new IllegalStateException("no Ready report from the simulator for wait " + s.kind() + " " + s.address()
                            + " (" + readies.size() + " reports)");
                }
                Instant ready = (Instant) match[4];
                // a roll wait is followed by the step that depends on it; a connector wait may be the end of its
                // lane (connectors run concurrently on Kafka 3.6 or newer), so its own journaled completion counts
                Instant next = i + 1 < chain.size() && s.kind().equals("WAIT_FOR_ROLL") ? chain.get(i + 1).startedAt()
                        : s.finishedAt();
                latencies.add(Duration.between(ready, next).toNanos() / 1e6);
            }
        }
        double critical = operatorBusy.values().stream().mapToDouble(ApplyBench::unionMs).max().orElse(0);
        double stepsMs = Duration.between(first, last).toNanos() / 1e6;
        return new Run(wall, stepsMs, critical, latencies, requests, Duration.between(started, first).toNanos() / 1e6,
                Duration.between(last, ended).toNanos() / 1e6);
    }

    /**
     * @param intervals [from, to] pairs
     * @return the length of their union in ms: connectors of one cluster reconciling at the same time count once
     */
    static double unionMs(List<Instant[]> intervals) {
        List<Instant[]> sorted = new ArrayList<>(intervals);
        sorted.sort(Comparator.comparing(i -> i[0]));
        double total = 0;
        Instant from = null;
        Instant to = null;
        for (Instant[] i : sorted) {
            if (to == null || i[0].isAfter(to)) {
                if (to != null) {
                    total += Duration.between(from, to).toNanos() / 1e6;
                }
                from = i[0];
                to = i[1];
            } else if (i[1].isAfter(to)) {
                to = i[1];
            }
        }
        return to == null ? total : total + Duration.between(from, to).toNanos() / 1e6;
    }

    /** @return the cluster name of a step address ({@code connect_cluster.c3}, {@code kafka_connector.c3-f1-source}) */
    private static String clusterOf(String address) {
        String name = address.substring(address.indexOf('.') + 1);
        int dash = name.indexOf('-');
        return dash < 0 ? name : name.substring(0, dash);
    }

    /** The manual procedure for K clusters; returns its wall time in ms. */
    private double manualOnce(int k) throws Exception {
        Fixtures fx = new Fixtures(k, FLOWS, 1);
        Path work = options.work().resolve("manual-" + k);
        BenchMain.deleteTree(work);
        Path seed = fx.writeSeed(work.resolve("seed"));
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed)
                .settings(SETTINGS).build());
             KubernetesClient client = cluster.newClient(cluster.config())) {
            ResourceDefinitionContext kc = new ResourceDefinitionContext.Builder().withGroup("kafka.strimzi.io")
                    .withVersion("v1beta2").withKind("KafkaConnect").withPlural("kafkaconnects").withNamespaced(true).build();
            ResourceDefinitionContext kctr = new ResourceDefinitionContext.Builder().withGroup("kafka.strimzi.io")
                    .withVersion("v1beta2").withKind("KafkaConnector").withPlural("kafkaconnectors").withNamespaced(true).build();
            long t0 = System.nanoTime();
            for (int i = 0; i < k; i++) {
                String name = Fixtures.cluster(i);
                String ns = fx.namespace(i);
                for (String mode : List.of("preparing", "enabled")) {
                    long g = patch(client, kc, ns, name, "{\"spec\":{\"config\":{\"exactly.once.source.support\":\"" + mode + "\"}}}");
                    pollUntilReady(client, kc, ns, Map.of(name, g));
                }
                Map<String, Long> generations = new LinkedHashMap<>();
                for (int f = 0; f < FLOWS; f++) {
                    String connector = name + "-f" + f + "-source";
                    generations.put(connector, patch(client, kctr, ns, connector, "{\"spec\":{\"config\":{\"exactly.once.support\":"
                            + "\"required\",\"source.consumer.isolation.level\":\"read_committed\"}}}"));
                }
                pollUntilReady(client, kctr, ns, generations);
            }
            return (System.nanoTime() - t0) / 1e6;
        } finally {
            BenchMain.deleteTree(work);
        }
    }

    private static long patch(KubernetesClient client, ResourceDefinitionContext ctx, String ns, String name, String json) {
        GenericKubernetesResource r = client.genericKubernetesResources(ctx).inNamespace(ns).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), json);
        return r.getMetadata().getGeneration();
    }

    /**
     * Reads the objects every 2 s until each reports Ready at its generation (what a person checks with
     * {@code kubectl get}); an object that is done is not read again.
     */
    private static void pollUntilReady(KubernetesClient client, ResourceDefinitionContext ctx, String ns,
                                       Map<String, Long> generations) throws InterruptedException {
        Map<String, Long> pending = new LinkedHashMap<>(generations);
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (!pending.isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("manual procedure: " + pending + " not Ready after 5 minutes");
            }
            Thread.sleep(MANUAL_POLL.toMillis());
            pending.entrySet().removeIf(e -> ready(client.genericKubernetesResources(ctx).inNamespace(ns).withName(e.getKey()).get(),
                    e.getValue()));
        }
    }

    private static boolean ready(GenericKubernetesResource r, long generation) {
        Object status = r.getAdditionalProperties().get("status");
        if (status instanceof Map<?, ?> st && st.get("observedGeneration") instanceof Number og && og.longValue() >= generation
                && st.get("conditions") instanceof List<?> conditions) {
            for (Object c : conditions) {
                if (c instanceof Map<?, ?> m && "Ready".equals(m.get("type")) && "True".equals(m.get("status"))) {
                    return true;
                }
            }
        }
        return false;
    }
}
