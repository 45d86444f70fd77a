package dev.flowform.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark 4, start-up: {@code flowform validate} and {@code flowform plan} on {@code examples/quickstart} as
 * whole processes ({@code plan} starts the embedded cluster), plain {@code java -jar} and with an AppCDS archive
 * ({@code -XX:SharedArchiveFile}). The archive is made here by a training run with
 * {@code -XX:ArchiveClassesAtExit=target/flowform.jsa}, so after the benchmark users have it next to the jar.
 * With {@code baseline=JAR} the same is measured for another build (e.g. before a start-up change).
 */
final class StartupBench {

    private final BenchMain.Options options;
    private final Report report;

    StartupBench(BenchMain.Options options, Report report) {
        this.options = options;
        this.report = report;
    }

    /** @return where the AppCDS archive goes: next to the jar */
    static Path archive(BenchMain.Options options) {
        return options.jar().resolveSibling("flowform.jsa");
    }

    void run() {
        Path quickstart = options.project().resolve("examples/quickstart");
        Path work = options.work().resolve("startup");
        BenchMain.deleteTree(work);
        Path jsa = archive(options);
        createArchive(options, options.jar(), jsa, work.resolve("training"));
        Map<String, List<String>> variants = new LinkedHashMap<>();
        if (options.baselineJar() != null) {
            Path baseJsa = work.resolve("baseline.jsa");
            createArchive(options, options.baselineJar(), baseJsa, work.resolve("baseline-training"));
            variants.put("before: java -jar", baseline(List.of()));
            variants.put("before: AppCDS", baseline(List.of("-XX:SharedArchiveFile=" + baseJsa, "-Xlog:cds=off")));
        }
        variants.put("java -jar", List.of(Procs.java(), "-jar", options.jar().toString()));
        variants.put("AppCDS", List.of(Procs.java(), "-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off", "-jar",
                options.jar().toString()));
        List<Map<String, Object>> rows = new ArrayList<>();
        List<List<String>> table = new ArrayList<>();
        Map<String, Stats> byKey = new LinkedHashMap<>();
        int v = 0;
        for (Map.Entry<String, List<String>> e : variants.entrySet()) {
            Path state = work.resolve("state-" + v++);
            Stats validate = measure(e.getValue(), List.of("validate", "--dir", quickstart.toString(), "--no-color"), work);
            Stats plan = measure(e.getValue(), List.of("plan", "--dir", quickstart.toString(), "--state-dir", state.toString(),
                    "--no-color"), work);
            byKey.put(e.getKey() + "/validate", validate);
            byKey.put(e.getKey() + "/plan", plan);
            rows.add(BenchMain.map("variant", e.getKey(), "command", String.join(" ", e.getValue()),
                    "validate_ms", validate.toJson(), "plan_ms", plan.toJson()));
            table.add(List.of(e.getKey(), validate.format(0), plan.format(0)));
            System.out.println("startup " + e.getKey() + ": validate " + validate.format(0) + ", plan " + plan.format(0));
        }
        report.put("startup", rows);
        report.md("### 4. Start-up\n");
        report.md("Whole processes on `examples/quickstart` (`plan` includes starting the embedded cluster from its persisted "
                + "file and opening the state), median (min–max) of " + options.runs() + " runs after one warm-up, in ms. "
                + "AppCDS: `java -XX:SharedArchiveFile=target/flowform.jsa -jar target/flowform.jar ...`, the archive made by "
                + "a training run of `plan` with `-XX:ArchiveClassesAtExit`.\n");
        report.md(Report.table(List.of("variant", "validate ms", "plan ms"), table));
        Stats bestValidate = best(byKey, "/validate");
        Stats bestPlan = best(byKey, "/plan");
        List<String> verdicts = List.of(
                "- `validate` under 0.6 s: " + Report.verdict(bestValidate.median() < 600, String.format("%.0f ms with AppCDS, %.0f ms plain",
                        byKey.get("AppCDS/validate").median(), byKey.get("java -jar/validate").median())),
                "- `plan` under 2 s including the embedded cluster: " + Report.verdict(bestPlan.median() < 2000,
                        String.format("%.0f ms with AppCDS, %.0f ms plain", byKey.get("AppCDS/plan").median(),
                                byKey.get("java -jar/plan").median())));
        report.put("startup_verdicts", verdicts);
        report.md(String.join("\n", verdicts) + "\n");
        phases(quickstart, work);
    }

    /**
     * The profile behind the start-up figures: {@link StartupPhases} run in fresh JVMs (plain, one after another,
     * without the overlap {@code plan} does), the median of each phase in ms.
     */
    private void phases(Path quickstart, Path work) {
        Map<String, List<Double>> byPhase = new LinkedHashMap<>();
        for (int i = 0; i < 1 + options.runs(); i++) {
            Path state = work.resolve("phases-state");
            List<String> cmd = List.of(Procs.java(), "-cp", System.getProperty("java.class.path"),
                    StartupPhases.class.getName(), quickstart.toString(), state.toString());
            Procs.Result r = Procs.check(Procs.run(work, Map.of(), cmd), "start-up phases", 0);
            if (i == 0) {
                continue;
            }
            for (String line : r.stdout().split("\n")) {
                String[] f = line.trim().split(" ");
                if (f.length == 2 && f[1].matches("\\d+") && !f[0].equals("plan-chars")) {
                    byPhase.computeIfAbsent(f[0], k -> new ArrayList<>()).add(Double.valueOf(f[1]));
                }
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        List<List<String>> table = new ArrayList<>();
        for (Map.Entry<String, List<Double>> e : byPhase.entrySet()) {
            Stats st = Stats.of(e.getValue());
            rows.add(BenchMain.map("phase", e.getKey(), "ms", st.toJson()));
            table.add(List.of(e.getKey(), st.format(0)));
        }
        report.put("startup_phases", rows);
        report.md("Where a cold `plan` spends its time (`dev.flowform.bench.StartupPhases`: the phases run one after another "
                + "in a fresh JVM without AppCDS; `plan` itself overlaps opening the state with starting the embedded "
                + "cluster), median (min–max) ms:\n");
        report.md(Report.table(List.of("phase", "ms"), table));
    }

    private List<String> baseline(List<String> jvm) {
        List<String> cmd = new ArrayList<>(List.of(Procs.java()));
        cmd.addAll(jvm);
        cmd.addAll(List.of("-jar", options.baselineJar().toString()));
        return cmd;
    }

    private static Stats best(Map<String, Stats> byKey, String suffix) {
        return byKey.entrySet().stream().filter(e -> e.getKey().endsWith(suffix) && !e.getKey().startsWith("before"))
                .map(Map.Entry::getValue).min((a, b) -> Double.compare(a.median(), b.median())).orElseThrow();
    }

    private Stats measure(List<String> launcher, List<String> args, Path work) {
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < 1 + options.runs(); i++) {
            List<String> cmd = new ArrayList<>(launcher);
            cmd.addAll(args);
            Procs.Result r = Procs.check(Procs.run(work, Map.of(), cmd), String.join(" ", cmd), 0);
            if (i > 0) {
                times.add(r.millis());
            }
        }
        return Stats.of(times);
    }

    /**
     * Makes an AppCDS archive for {@code jar}: one {@code plan} of the quickstart (which loads what {@code validate}
     * loads too) with {@code -XX:ArchiveClassesAtExit}.
     */
    static void createArchive(BenchMain.Options options, Path jar, Path jsa, Path scratch) {
        try {
            Files.deleteIfExists(jsa);
            Files.createDirectories(scratch);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<String> cmd = List.of(Procs.java(), "-XX:ArchiveClassesAtExit=" + jsa, "-Xlog:cds=off", "-jar", jar.toString(),
                "plan", "--dir", options.project().resolve("examples/quickstart").toString(), "--state-dir",
                scratch.resolve("state").toString(), "--no-color");
        Procs.check(Procs.run(scratch, Map.of(), cmd), "AppCDS training run", 0);
        if (!Files.exists(jsa)) {
            throw new IllegalStateException("the training run did not write " + jsa);
        }
    }
}
