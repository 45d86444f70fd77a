package dev.flowform.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Benchmark 4, start-up: {@code flowform validate}, {@code plan} and {@code apply} (to its first step) on
 * {@code examples/quickstart} as whole processes, against an API server in another process ({@link RemoteServer}) and
 * with the embedded cluster; plain {@code java -jar}, with the AppCDS archive the package phase makes
 * ({@code target/flowform.jsa}, made here by the same training run when missing or older than the jar), and with it and
 * C1 only. Then the phase profile ({@link RemotePhases}, {@link StartupPhases}). With {@code baseline=JAR} the
 * start-up of another build is measured too (e.g. before a start-up change).
 */
final class StartupBench {

    private final BenchMain.Options options;
    private final Report report;
    private Stats lastCpu;
    private Stats lastRss;
    /** The distribution's launcher with the Java it finds, and with the JDK 25+ its AOT cache was made by. */
    private static final String LAUNCHER = "bin/flowform";
    private static final String LAUNCHER_AOT = "bin/flowform, Java 25 + AOT cache";
    private static final String IMAGE = "the image's runtime and launcher";
    /** What {@code plan} of the quickstart reads, as {@code kubectl get} would read it. */
    private static final String KUBECTL_KINDS = "kafkaconnects,kafkaconnectors,strimzipodsets,pods,configmaps";
    private static final String QUICKSTART_NAMESPACE = "replication";

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
        if (!Files.exists(jsa) || modified(jsa) < modified(options.jar())) {
            createArchive(options, options.jar(), jsa, work.resolve("training"));
        }
        Map<String, List<String>> variants = new LinkedHashMap<>();
        if (options.baselineJar() != null) {
            Path baseJsa = work.resolve("baseline.jsa");
            createArchive(options, options.baselineJar(), baseJsa, work.resolve("baseline-training"));
            variants.put("before: java -jar", baseline(List.of()));
            variants.put("before: AppCDS", baseline(List.of("-XX:SharedArchiveFile=" + baseJsa, "-Xlog:cds=off")));
        }
        if (!"launchers".equals(options.extra().get("startup-variants"))) {
            variants.put("java -jar", List.of(Procs.java(), "-jar", options.jar().toString()));
            variants.put("AppCDS", List.of(Procs.java(), "-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off", "-jar",
                    options.jar().toString()));
            variants.put("AppCDS, C1 only", List.of(Procs.java(), "-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off",
                    "-XX:TieredStopAtLevel=1", "-jar", options.jar().toString()));
        }
        // the image's file tree as the package phase assembled it, run in place (its runtime on this machine's libraries)
        Path imageRoot = options.jar().resolveSibling("image-root").resolve("opt");
        if (Files.isExecutable(imageRoot.resolve("flowform/bin/flowform"))) {
            variants.put(IMAGE, List.of("env", "JAVA_HOME=" + imageRoot.resolve("java"),
                    imageRoot.resolve("flowform/bin/flowform").toString()));
        }
        Path launcher = options.jar().resolveSibling("flowform").resolve("bin").resolve("flowform");
        if (Files.isExecutable(launcher)) {
            variants.put(LAUNCHER, List.of(launcher.toString()));
            Path aotJdk = aotJdk(launcher.getParent().resolveSibling("lib").resolve("flowform.aot.jvm"));
            if (aotJdk != null) {
                variants.put(LAUNCHER_AOT, List.of("env", "JAVA_HOME=" + aotJdk, launcher.toString()));
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        List<List<String>> table = new ArrayList<>();
        Map<String, Stats> byKey = new LinkedHashMap<>();
        int v = 0;
        try (RemoteServer server = RemoteServer.start(quickstart, work.resolve("api-server"))) {
            for (Map.Entry<String, List<String>> e : variants.entrySet()) {
                Path state = work.resolve("state-" + v);
                Path remoteState = work.resolve("remote-state-" + v++);
                Stats validate = measure(e.getValue(), List.of("validate", "--dir", quickstart.toString(), "--no-color"), work);
                String validateCpu = cpu();
                Stats remote = measure(e.getValue(), List.of("plan", "--dir", server.config().toString(), "--state-dir",
                        remoteState.toString(), "--no-color"), work);
                String remoteCpu = cpu();
                Stats remoteRss = lastRss;
                Stats apply = applyStart(e.getValue(), quickstart, work.resolve("apply-" + v), true);
                Stats firstApply = applyStart(e.getValue(), quickstart, work.resolve("first-apply-" + v), false);
                Stats plan = measure(e.getValue(), List.of("plan", "--dir", quickstart.toString(), "--state-dir",
                        state.toString(), "--no-color"), work);
                String planCpu = cpu();
                String k = e.getKey();
                byKey.put(k + "/remote-rss", remoteRss);
                byKey.put(k + "/validate", validate);
                byKey.put(k + "/remote", remote);
                byKey.put(k + "/apply", apply);
                byKey.put(k + "/first-apply", firstApply);
                byKey.put(k + "/plan", plan);
                rows.add(BenchMain.map("variant", k, "command", String.join(" ", e.getValue()), "validate_ms", validate.toJson(),
                        "plan_remote_ms", remote.toJson(), "apply_first_step_ms", apply.toJson(), "first_apply_first_step_ms", firstApply.toJson(),
                        "plan_ms", plan.toJson()));
                table.add(List.of(k, validate.format(0), validateCpu, remote.format(0), remoteCpu,
                        String.format("%.2f", remote.median() / validate.median()), apply.format(0), firstApply.format(0),
                        plan.format(0), planCpu));
                System.out.println("startup " + k + ": validate " + validate.format(0) + ", plan remote " + remote.format(0)
                        + ", apply to first step " + apply.format(0) + ", plan embedded " + plan.format(0));
            }
            report.put("startup", rows);
            describe(table);
            Stats kubectl = kubectl(server, work);
            if (kubectl != null) {
                byKey.put("kubectl", kubectl);
                report.md("`kubectl get " + KUBECTL_KINDS + " -n " + QUICKSTART_NAMESPACE + " -o yaml` against the same "
                        + "server, in the same run: " + kubectl.format(0) + " ms, CPU " + cpu() + " ms, peak RSS "
                        + (lastRss == null ? "–" : String.format("%.0f", lastRss.median())) + " MiB.\n");
            }
            verdicts(byKey);
            phases(quickstart, work, server);
        }
    }

    private void describe(List<List<String>> table) {
        report.md("### 4. Start-up\n");
        report.md("Whole processes on `examples/quickstart`, median (min–max) of " + options.runs() + " runs after one "
                + "warm-up, in ms. \"Remote\": the quickstart's configuration on a kubeconfig whose API server (the embedded "
                + "cluster, seeded from `examples/quickstart/seed`) runs in a process of its own, as a real cluster would; "
                + "\"apply to first step\": `apply --auto-approve` against a freshly started such server, from process start "
                + "to the line of its first step, on a state an earlier `plan` created (as every apply of an environment but "
                + "its first finds it); \"first apply\": the same on no state yet, so the state database is created and "
                + "Flyway migrates its schema; \"embedded\": `plan` starting the embedded cluster in-process from its "
                + "persisted file. AppCDS: `-XX:SharedArchiveFile=target/flowform.jsa`, the archive the package phase makes "
                + "with a training run of `plan`; C1 only: also `-XX:TieredStopAtLevel=1`. CPU ms: the process's user + system "
                + "time (median), which other processes on the machine disturb less than wall time.\n");
        report.md(Report.table(List.of("variant", "validate ms", "CPU ms", "plan, remote ms", "CPU ms",
                "plan remote / validate", "apply to first step, remote ms", "first apply to first step, remote ms",
                "plan, embedded ms", "CPU ms"), table));
    }

    /** The targets, judged on the launcher's settings ({@code bin/flowform}: the archive and C1 only) and the image's. */
    private void verdicts(Map<String, Stats> byKey) {
        String launcher = byKey.containsKey(LAUNCHER + "/remote") ? LAUNCHER + "/" : "AppCDS, C1 only/";
        List<String> verdicts = new ArrayList<>();
        if (byKey.containsKey("java -jar/remote") && byKey.containsKey(launcher + "remote")) {
            verdicts.addAll(earlierTargets(byKey, launcher));
        }
        Stats kubectl = byKey.get("kubectl");
        for (String k : List.of(launcher, LAUNCHER_AOT + "/", IMAGE + "/")) {
            if (byKey.containsKey(k + "remote")) {
                verdicts.addAll(targets(byKey, k, kubectl));
            }
        }
        report.put("startup_verdicts", verdicts);
        report.md(String.join("\n", verdicts) + "\n");
    }

    /** The start-up targets set before the comparison with kubectl, against plain {@code java -jar}. */
    private static List<String> earlierTargets(Map<String, Stats> byKey, String launcher) {
        Stats validate = byKey.get(launcher + "validate");
        Stats remote = byKey.get(launcher + "remote");
        Stats apply = byKey.get(launcher + "apply");
        Stats plan = byKey.get(launcher + "plan");
        return List.of(
                "- `plan` against an API server in another process at most 1.0 s (the launcher: archive, C1 only): " + Report.verdict(
                        remote.median() <= 1000, String.format("%.0f ms; plain java -jar %.0f ms", remote.median(),
                                byKey.get("java -jar/remote").median())),
                "- ... and at most 3 × `validate` of the same run: " + Report.verdict(remote.median() <= 3 * validate.median(),
                        String.format("%.2f × (%.0f ms / %.0f ms)", remote.median() / validate.median(), remote.median(),
                                validate.median())),
                "- `apply` start-up to the first step at most 1.0 s (the launcher): " + Report.verdict(apply.median() <= 1000,
                        String.format("%.0f ms; plain java -jar %.0f ms", apply.median(), byKey.get("java -jar/apply").median())),
                "- `plan` with the embedded cluster at most 1.5 s (the launcher): " + Report.verdict(plan.median() <= 1500,
                        String.format("%.0f ms; plain java -jar %.0f ms", plan.median(), byKey.get("java -jar/plan").median())));
    }

    /** The targets of one variant {@code k} ("name/"): 3 × kubectl get, 100 MiB, embedded plan and apply within 1.0 s. */
    private static List<String> targets(Map<String, Stats> byKey, String k, Stats kubectl) {
        List<String> out = new ArrayList<>();
        Stats r = byKey.get(k + "remote");
        String who = k.substring(0, k.length() - 1);
        if (kubectl != null) {
            out.add("- `plan` against a remote API server at most 3 × `kubectl get` of the same objects (" + who + "): "
                    + Report.verdict(r.median() <= 3 * kubectl.median(), String.format("%.2f × (%.0f ms / %.0f ms)",
                    r.median() / kubectl.median(), r.median(), kubectl.median())));
        }
        Stats rss = byKey.get(k + "remote-rss");
        if (rss != null) {
            out.add("- peak memory of `plan` at most 100 MiB (" + who + "): " + Report.verdict(rss.median() <= 100,
                    String.format("%.0f MiB resident at most (median of runs)", rss.median())));
        }
        Stats embedded = byKey.get(k + "plan");
        out.add("- `plan` with the embedded cluster at most 1.0 s (" + who + "): " + Report.verdict(
                embedded.median() <= 1000, String.format("%.0f ms", embedded.median())));
        Stats firstStep = byKey.get(k + "apply");
        out.add("- `apply` to its first step at most 1.0 s (" + who + "): " + Report.verdict(firstStep.median() <= 1000,
                String.format("%.0f ms", firstStep.median())));
        return out;
    }

    /**
     * {@code kubectl get} of what {@code plan} reads, against the same server, when kubectl is on PATH.
     *
     * @return its wall times, or null without kubectl
     */
    private Stats kubectl(RemoteServer server, Path work) {
        if (Procs.run(work, Map.of(), List.of("sh", "-c", "command -v kubectl")).exitCode() != 0) {
            report.md("No `kubectl` on PATH: the comparison with `kubectl get` was not made.\n");
            return null;
        }
        return measure(List.of("kubectl", "--kubeconfig", server.kubeconfig().toString()),
                List.of("get", KUBECTL_KINDS, "-n", QUICKSTART_NAMESPACE, "-o", "yaml"), work);
    }

    /**
     * @param stamp the AOT cache's stamp, the release lines of the Java that made it
     * @return that JDK among those under {@code /usr/lib/jvm}, or null when there is no cache or no such JDK
     */
    private static Path aotJdk(Path stamp) {
        try (var jdks = Files.list(Path.of("/usr/lib/jvm"))) {
            if (!Files.isReadable(stamp)) {
                return null;
            }
            List<String> made = Files.readAllLines(stamp);
            return jdks.filter(j -> {
                try {
                    return Files.readAllLines(j.resolve("release")).containsAll(made);
                } catch (java.io.IOException e) {
                    return false;
                }
            }).findFirst().orElse(null);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /**
     * Apply start-up: each run against a new API server process, so every apply finds the same cluster.
     *
     * @param existingState true to create the state with an untimed {@code plan} first, as every apply of an
     *                      environment but its first finds it; false to start from no state (Flyway creates the schema)
     */
    private Stats applyStart(List<String> launcher, Path quickstart, Path work, boolean existingState) {
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < 1 + options.runs(); i++) {
            Path run = work.resolve("run-" + i);
            try (RemoteServer server = RemoteServer.start(quickstart, run.resolve("api-server"))) {
                List<String> state = List.of("--dir", server.config().toString(), "--state-dir", run.resolve("state").toString(),
                        "--no-color");
                if (existingState) {
                    List<String> plan = concat(launcher, concat(List.of("plan"), state));
                    Procs.check(Procs.run(run, Map.of(), plan), String.join(" ", plan), 0);
                }
                double ms = RemoteServer.untilFirstStep(concat(launcher, concat(List.of("apply", "--auto-approve"), state)), run);
                if (i > 0) {
                    times.add(ms);
                }
            }
        }
        return Stats.of(times);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The profile behind the start-up figures: {@link StartupPhases} run in fresh JVMs (plain, one after another,
     * without the overlap {@code plan} does), the median of each phase in ms.
     */
    private void phases(Path quickstart, Path work, RemoteServer server) {
        Path jsa = archive(options);
        List<String> entries = new ArrayList<>(List.of(options.jar().toString()));
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            entries.add(Path.of(e).toAbsolutePath().toString());
        }
        String cp = String.join(java.io.File.pathSeparator, entries);
        Map<String, List<String>> probes = new LinkedHashMap<>();
        probes.put("remote, java", List.of(Procs.java(), "-cp", cp, RemotePhases.class.getName(), server.config().toString(),
                work.resolve("phases-remote-state").toString(), server.kubeconfig().toString()));
        probes.put("remote, AppCDS", List.of(Procs.java(), "-XX:SharedArchiveFile=" + jsa, "-Xlog:cds=off", "-cp", cp,
                RemotePhases.class.getName(), server.config().toString(), work.resolve("phases-remote-state").toString(),
                server.kubeconfig().toString()));
        probes.put("embedded, java", List.of(Procs.java(), "-cp", cp, StartupPhases.class.getName(), quickstart.toString(),
                work.resolve("phases-state").toString()));
        Map<String, Map<String, Stats>> byProbe = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> p : probes.entrySet()) {
            byProbe.put(p.getKey(), phaseRuns(p.getValue(), work));
        }
        List<String> phases = new ArrayList<>();
        byProbe.values().forEach(m -> m.keySet().stream().filter(k -> !phases.contains(k)).forEach(phases::add));
        List<List<String>> table = new ArrayList<>();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String phase : phases) {
            List<String> row = new ArrayList<>(List.of(phase));
            for (Map.Entry<String, Map<String, Stats>> e : byProbe.entrySet()) {
                Stats st = e.getValue().get(phase);
                row.add(st == null ? "–" : st.format(0));
                if (st != null) {
                    rows.add(BenchMain.map("probe", e.getKey(), "phase", phase, "ms", st.toJson()));
                }
            }
            table.add(row);
        }
        report.put("startup_phases", rows);
        report.md("Where a cold `plan` spends its time (`dev.flowform.bench.RemotePhases` and `StartupPhases`: the phases of "
                + "`plan` one after another in a fresh JVM on the jar's class path; the command itself overlaps opening the "
                + "state with starting an embedded cluster), median (min–max) ms:\n");
        List<String> header = new ArrayList<>(List.of("phase"));
        header.addAll(byProbe.keySet());
        report.md(Report.table(header, table));
    }

    private Map<String, Stats> phaseRuns(List<String> cmd, Path work) {
        Map<String, List<Double>> byPhase = new LinkedHashMap<>();
        for (int i = 0; i < 1 + options.runs(); i++) {
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
        Map<String, Stats> out = new LinkedHashMap<>();
        byPhase.forEach((k, val) -> out.put(k, Stats.of(val)));
        return out;
    }

    private List<String> baseline(List<String> jvm) {
        List<String> cmd = new ArrayList<>(List.of(Procs.java()));
        cmd.addAll(jvm);
        cmd.addAll(List.of("-jar", options.baselineJar().toString()));
        return cmd;
    }

    /** Measures a command's wall time; its CPU time (user + system, from {@code /usr/bin/time}) goes to {@link #lastCpu}. */
    private Stats measure(List<String> launcher, List<String> args, Path work) {
        List<Double> times = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        List<Double> rss = new ArrayList<>();
        Path time = Path.of("/usr/bin/time");
        Path cpuFile = work.resolve("cpu.txt");
        for (int i = 0; i < 1 + options.runs(); i++) {
            List<String> cmd = new ArrayList<>();
            if (Files.isExecutable(time)) {
                cmd.addAll(List.of(time.toString(), "-f", "%U %S %M", "-o", cpuFile.toString()));
            }
            cmd.addAll(launcher);
            cmd.addAll(args);
            Procs.Result r = Procs.check(Procs.run(work, Map.of(), cmd), String.join(" ", cmd), 0);
            if (i > 0) {
                times.add(r.millis());
                if (Files.isExecutable(time)) {
                    cpu.add(timeField(cpuFile, 0) * 1000 + timeField(cpuFile, 1) * 1000);
                    rss.add(timeField(cpuFile, 2) / 1024);
                }
            }
        }
        lastCpu = cpu.isEmpty() ? null : Stats.of(cpu);
        lastRss = rss.isEmpty() ? null : Stats.of(rss);
        return Stats.of(times);
    }

    /** @return field {@code i} of the last line {@code /usr/bin/time -f "%U %S %M"} wrote: user s, system s, peak KiB */
    private static double timeField(Path file, int i) {
        try {
            List<String> lines = Files.readAllLines(file);
            String[] f = lines.get(lines.size() - 1).trim().split(" ");
            return Double.parseDouble(f[i]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private String cpu() {
        return lastCpu == null ? "–" : String.format("%.0f", lastCpu.median());
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
