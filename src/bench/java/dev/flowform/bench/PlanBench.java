package dev.flowform.bench;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark 1, plan at scale: the embedded cluster seeded with N Connect clusters (3 workers, 4 MirrorMaker 2
 * flows of 3 connectors each) over 1 or 10 namespaces; {@code flowform plan} of the configuration adopting all
 * of them with exactly-once, measured in-process (a child JVM with {@code -Xmx512m} that repeats the command,
 * so the heap is flowform's alone) and as a whole CLI process ({@code java -jar}). The embedded cluster counts
 * the API requests.
 */
final class PlanBench {

    private final BenchMain.Options options;
    private final Report report;

    PlanBench(BenchMain.Options options, Report report) {
        this.options = options;
        this.report = report;
    }

    void run() {
        List<Map<String, Object>> rows = new ArrayList<>();
        List<List<String>> table = new ArrayList<>();
        Map<String, Double> inProcess = new LinkedHashMap<>();
        Map<String, Double> requestsBy = new LinkedHashMap<>();
        Map<String, Object> serverMs = new LinkedHashMap<>();
        double heap500 = 0;
        for (int namespaces : options.planNamespaces()) {
            for (int n : options.planSizes()) {
                Map<String, Object> row = measure(n, namespaces);
                rows.add(row);
                Stats in = (Stats) row.remove("inProcessStats");
                Stats cli = (Stats) row.remove("cliStats");
                Stats heap = (Stats) row.remove("heapStats");
                Stats seed = (Stats) row.remove("seedStats");
                row.put("in_process_ms", in.toJson());
                row.put("cli_process_ms", cli.toJson());
                row.put("peak_heap_mb", heap.toJson());
                row.put("seed_ms", seed.toJson());
                inProcess.put(n + "/" + namespaces, in.median());
                serverMs.put(n + "/" + namespaces, row.get("api_server_ms_per_plan"));
                requestsBy.put(n + "/" + namespaces, ((Number) row.get("api_requests")).doubleValue());
                if (n == 500) {
                    heap500 = Math.max(heap500, heap.max());
                }
                table.add(List.of(String.valueOf(n), String.valueOf(namespaces), in.format(0),
                        String.valueOf(row.get("api_server_ms_per_plan")), cli.format(0),
                        String.valueOf(row.get("api_requests")), heap.format(0), String.format("%.1f", seed.median() / 1000)));
                System.out.println("plan N=" + n + " ns=" + namespaces + ": " + row);
            }
        }
        report.put("plan", rows);
        report.md("### 1. Plan at scale\n");
        report.md("N Connect clusters × (3 workers + 4 MirrorMaker 2 flows × 3 KafkaConnectors), every flow adopted with "
                + "exactly-once (so each plan holds 2N cluster changes, N source-connector changes and 14N steps). "
                + "In-process: `plan` repeated in one JVM (`-Xmx512m`, after " + options.warmup() + " warm-up runs); "
                + "CLI: `java -jar target/flowform.jar plan` as a new process each time. \"API server ms\": time the embedded "
                + "API server (fabric8's mock, in the harness's JVM) spent answering one plan's requests. Seeding: starting "
                + "the embedded cluster with those objects. Times in ms, median (min–max) of " + options.runs() + " runs.\n");
        report.md(Report.table(List.of("N", "namespaces", "plan in-process ms", "of which API server ms", "plan CLI process ms",
                "API requests", "peak heap MB", "seeding s"), table));
        List<String> verdicts = new ArrayList<>();
        boolean constant = true;
        Map<Integer, Double> byNamespacesUsed = new LinkedHashMap<>();
        for (int namespaces : options.planNamespaces()) {
            for (int n : options.planSizes()) {
                double r = requestsBy.get(n + "/" + namespaces);
                Double before = byNamespacesUsed.putIfAbsent(Math.min(n, namespaces), r);
                constant &= before == null || before == r;
            }
        }
        verdicts.add("- Requests do not grow with N (one list per kind and namespace): "
                + Report.verdict(constant, "requests by namespaces read: " + byNamespacesUsed + ", whatever N"));
        int max = options.planSizes().get(options.planSizes().size() - 1);
        if (max == 500 && inProcess.containsKey("500/1") && inProcess.containsKey("500/10")) {
            StringBuilder figures = new StringBuilder();
            boolean met = true;
            for (String key : List.of("500/1", "500/10")) {
                double t = inProcess.get(key);
                met &= t < 2000;
                figures.append(figures.length() == 0 ? "" : "; ").append(String.format(
                        "%s namespace%s: %.0f ms, of which the embedded API server, on the same cores, %s ms",
                        key.substring(4), key.endsWith("/1") ? "" : "s", t, serverMs.get(key)));
            }
            verdicts.add("- 500 clusters plan in under 2 s in-process: " + Report.verdict(met, figures.toString()));
            verdicts.add("- ... with under 512 MB heap: " + Report.verdict(heap500 < 512,
                    String.format("peak %.0f MB, and the child JVM runs with -Xmx512m", heap500)));
        }
        if (options.planSizes().contains(100) && options.planSizes().contains(500)) {
            double worst = 0;
            for (int namespaces : options.planNamespaces()) {
                worst = Math.max(worst, inProcess.get("500/" + namespaces) / inProcess.get("100/" + namespaces));
            }
            verdicts.add("- Time grows at most linearly: " + Report.verdict(worst <= 5.5,
                    String.format("t(500)/t(100) = %.2f, linear would be 5", worst)));
        }
        report.md(String.join("\n", verdicts) + "\n");
        report.put("plan_verdicts", verdicts);
    }

    private List<String> probeJvm() {
        List<String> jvm = new ArrayList<>(List.of("-Xmx512m", "-XX:+UseG1GC"));
        jvm.addAll(options.probeOptions());
        return jvm;
    }

    private Map<String, Object> measure(int n, int namespaces) {
        Fixtures fx = new Fixtures(n, 4, namespaces);
        Path work = options.work().resolve("plan-" + n + "-" + namespaces);
        BenchMain.deleteTree(work);
        Path seed = fx.writeSeed(work.resolve("seed"));
        long t0 = System.nanoTime();
        List<Double> seedTimes = new ArrayList<>();
        Map<String, Object> row = new LinkedHashMap<>();
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed)
                .settings(SimSettings.fast()).build())) {
            seedTimes.add((System.nanoTime() - t0) / 1e6);
            Path kubeconfig = cluster.writeKubeconfig(work.resolve("kubeconfig"));
            Path config = fx.writeConfig(work.resolve("config"), kubeconfig);
            Path state = work.resolve("state");
            List<String> planArgs = List.of("plan", "--dir", config.toString(), "--state-dir", state.toString(), "--no-color");

            long before = cluster.clientRequestCount();
            long serverBefore = cluster.clientRequestNanos();
            List<String> probeArgs = new ArrayList<>(List.of(String.valueOf(options.warmup()), String.valueOf(options.runs())));
            probeArgs.addAll(planArgs);
            Procs.Result probe = Procs.check(Procs.run(work, Map.of(), Procs.javaMain(probeJvm(),
                    PlanProbe.class.getName(), probeArgs)), "plan probe N=" + n);
            long requests = cluster.clientRequestCount() - before;
            double serverMs = (cluster.clientRequestNanos() - serverBefore) / 1e6 / (options.warmup() + options.runs());
            List<Double> times = new ArrayList<>();
            List<Double> heaps = new ArrayList<>();
            for (String line : probe.stdout().strip().split("\n")) {
                if (!line.matches("[0-9.]+ [0-9.]+")) {
                    continue;
                }
                String[] parts = line.trim().split(" ");
                times.add(Double.parseDouble(parts[0]));
                heaps.add(Double.parseDouble(parts[1]));
            }
            long perRun = Math.round((double) requests / (options.warmup() + options.runs()));

            List<Double> cli = new ArrayList<>();
            List<Long> cliRequests = new ArrayList<>();
            String summary = null;
            for (int i = 0; i < 1 + options.runs(); i++) {
                long b = cluster.clientRequestCount();
                List<String> cmd = new ArrayList<>(List.of(Procs.java(), "-jar", options.jar().toString()));
                cmd.addAll(planArgs);
                Procs.Result r = Procs.check(Procs.run(work, Map.of(), cmd), "flowform plan N=" + n);
                cliRequests.add(cluster.clientRequestCount() - b);
                if (i > 0) {
                    cli.add(r.millis());
                }
                summary = r.stdout().lines().filter(l -> l.startsWith("Plan: ")).findFirst().orElse("(no summary)");
            }
            row.put("clusters", n);
            row.put("namespaces", namespaces);
            row.put("objects", fx.objectCount());
            row.put("plan_summary", summary);
            row.put("api_requests", perRun);
            row.put("api_requests_cli", cliRequests.get(cliRequests.size() - 1));
            row.put("api_server_ms_per_plan", Math.round(serverMs));
            row.put("inProcessStats", Stats.of(times));
            row.put("cliStats", Stats.of(cli));
            row.put("heapStats", Stats.of(heaps));
            row.put("seedStats", Stats.of(seedTimes));
        }
        return row;
    }
}
