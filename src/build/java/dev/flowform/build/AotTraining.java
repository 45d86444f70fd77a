package dev.flowform.build;

import dev.flowform.cli.CliContext;
import dev.flowform.cli.Main;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.json.JsonMapper;

/**
 * Build-time training runs for flowform's class-data archives (not part of flowform.jar). A JVM records the classes
 * one run loads: the archive should hold what the commands people run load, and not what they do not (on Java 25 an
 * AOT cache loads every class it holds at start, JEP 483), so the training runs {@code plan} the way it is used:
 * against a remote API server and with the embedded cluster, each on a state an earlier run created (so Flyway's
 * migration, which runs once per state, is not in it).
 *
 * <p>Usage, with flowform.jar and this class's jar on the class path, in that order:
 * <pre>
 *   AotTraining MODE JAVA_HOME WORK QUICKSTART JVM_OPTION...
 * </pre>
 * MODE: {@code embedded} (one {@code plan} with the embedded cluster), {@code remote} (one {@code plan} against
 * {@code flowform cluster serve} of QUICKSTART in a process of its own, through a kubeconfig) or {@code both} (the
 * two in one JVM, which needs a JDK 25+ AOT cache: it accepts the run's class path without this jar at its end, a
 * Java 17 dynamic archive does not). JAVA_HOME: the Java that trains, WORK: an empty folder for states, the server
 * and logs, QUICKSTART: a configuration folder whose environment is the embedded cluster (examples/quickstart),
 * JVM_OPTION...: the archive options of the training JVM (e.g. {@code -XX:AOTCacheOutput=FILE}), which also gets the
 * launcher's own options, so the archive fits the JVM that uses it. Exits 0 when the training run succeeded, 1
 * otherwise, with the reason on stderr and the runs' output in WORK/*.log.
 */
public final class AotTraining {

    /** The JVM options the launcher (src/dist/bin/flowform) gives every command: the archive must fit that JVM. */
    private static final List<String> LAUNCHER_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-Xms16m");

    private static final long SERVER_START_MS = 60_000;

    private AotTraining() {
    }

    /**
     * Prepares the states (and the server for {@code remote} and {@code both}), then runs the training JVM; with
     * {@code train-both WORK QUICKSTART} as arguments it is that training JVM's main and runs both plans in-process.
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("train-both")) {
            Path work = Path.of(args[1]);
            int embedded = Main.run(CliContext.system(), plan(Path.of(args[2]), work.resolve("embedded-state")));
            int remote = Main.run(CliContext.system(), plan(work.resolve("remote"), work.resolve("remote-state")));
            System.exit(embedded == 0 && remote == 0 ? 0 : 1);
        }
        if (args.length < 4 || !List.of("embedded", "remote", "both").contains(args[0])) {
            System.err.println("usage: AotTraining embedded|remote|both JAVA_HOME WORK QUICKSTART JVM_OPTION...");
            System.exit(2);
        }
        String java = Path.of(args[1], "bin", "java").toString();
        Path work = Path.of(args[2]).toAbsolutePath();
        Path quickstart = Path.of(args[3]).toAbsolutePath();
        List<String> options = Arrays.asList(args).subList(4, args.length);
        try {
            System.exit(new Run(args[0], java, work, quickstart, options).train() ? 0 : 1);
        } catch (IOException | IllegalStateException e) {
            System.err.println("aot-training: " + e.getMessage());
            System.exit(1);
        }
    }

    private static String[] plan(Path dir, Path state) {
        return new String[] {"plan", "--dir", dir.toString(), "--state-dir", state.toString(), "--no-color"};
    }

    /** One training: its mode, the training Java and its options, and the folders it works in. */
    private record Run(String mode, String java, Path work, Path quickstart, List<String> options) {

        boolean train() throws IOException, InterruptedException {
            Files.createDirectories(work);
            String[] classPath = System.getProperty("java.class.path").split(File.pathSeparator);
            String jar = classPath[0];
            Process server = null;
            try {
                if (!mode.equals("remote")) {
                    prepare("embedded-state", jar, plan(quickstart, work.resolve("embedded-state")));
                }
                if (!mode.equals("embedded")) {
                    server = serve(jar);
                    writeRemoteConfig(work.resolve("kubeconfig"), work.resolve("remote"));
                    prepare("remote-state", jar, plan(work.resolve("remote"), work.resolve("remote-state")));
                }
                List<String> cmd = new ArrayList<>(List.of(java));
                cmd.addAll(options);
                cmd.addAll(LAUNCHER_OPTIONS);
                if (mode.equals("both")) {
                    cmd.addAll(List.of("-cp", String.join(File.pathSeparator, classPath), AotTraining.class.getName(),
                            "train-both", work.toString(), quickstart.toString()));
                } else {
                    cmd.addAll(List.of("-jar", jar));
                    cmd.addAll(List.of(plan(mode.equals("remote") ? work.resolve("remote") : quickstart,
                            work.resolve(mode + "-state"))));
                }
                return start("training", cmd).waitFor() == 0;
            } finally {
                if (server != null) {
                    server.destroy();
                    if (!server.waitFor(20, TimeUnit.SECONDS)) {
                        server.destroyForcibly();
                    }
                }
            }
        }

        /** Runs flowform once without an archive, so the training finds the state that run made. */
        private void prepare(String name, String jar, String[] args) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>(List.of(java, "-jar", jar));
            cmd.addAll(List.of(args));
            if (start(name, cmd).waitFor() != 0) {
                throw new IllegalStateException("the run that makes the " + name + " failed: see " + log(name));
            }
        }

        /** Starts {@code flowform cluster serve} of the quickstart; returns once it serves. */
        private Process serve(String jar) throws IOException, InterruptedException {
            Path kubeconfig = work.resolve("kubeconfig");
            Path log = log("server");
            Process p = start("server", List.of(java, "-jar", jar, "cluster", "serve", "--dir", quickstart.toString(),
                    "--state-dir", work.resolve("server-state").toString(), "--port", "0", "--kubeconfig",
                    kubeconfig.toString()));
            long deadline = System.currentTimeMillis() + SERVER_START_MS;
            while (System.currentTimeMillis() < deadline) {
                if (Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains("serving at")) {
                    return p;
                }
                if (!p.isAlive()) {
                    throw new IllegalStateException("flowform cluster serve exited " + p.exitValue() + ": see " + log);
                }
                Thread.sleep(100);
            }
            p.destroyForcibly();
            throw new IllegalStateException("flowform cluster serve did not serve within " + SERVER_START_MS + " ms");
        }

        /** The quickstart's main.flow.json in {@code dir}, its environments on {@code kubeconfig}, no backend. */
        @SuppressWarnings("unchecked")
        private void writeRemoteConfig(Path kubeconfig, Path dir) throws IOException {
            JsonMapper mapper = JsonMapper.builder().build();
            Map<String, Object> doc = mapper.readValue(quickstart.resolve("main.flow.json").toFile(), LinkedHashMap.class);
            doc.remove("backend");
            for (Object env : ((Map<String, Object>) doc.get("environment")).values()) {
                ((Map<String, Object>) env).put("kubernetes", Map.of("kubeconfig", kubeconfig.toString()));
            }
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("main.flow.json"), mapper.writeValueAsString(doc));
        }

        /** Starts {@code cmd} with its output in WORK/NAME.log, without the caller's JAVA_TOOL_OPTIONS. */
        private Process start(String name, List<String> cmd) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log(name).toFile());
            pb.environment().remove("JAVA_TOOL_OPTIONS");
            return pb.start();
        }

        private Path log(String name) {
            return work.resolve(name + ".log");
        }
    }
}
