package dev.flowform.kafka;

import java.io.IOException;
import java.io.Writer;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A Kafka Connect worker running in a child JVM ({@link WorkerMain}) with the class path of this one, its
 * output appended to a log file (warnings and errors, and the herder's info lines, with wall-clock times). Small
 * sizing per worker: 192 MB heap, serial GC, C1 only.
 */
final class WorkerProcess {
    /** How long a graceful stop may take before the process is killed: Connect's own shutdown takes 1.5-3 s. */
    private static final long GRACEFUL_STOP_MS = 30_000;

    private final String pod;
    private final int restPort;
    private final Process process;

    WorkerProcess(String pod, int restPort, Process process) {
        this.pod = pod;
        this.restPort = restPort;
        this.process = process;
    }

    /**
     * Writes {@code properties} to {@code <pod>.properties} beside {@code <pod>.log} in {@code dir} and launches the
     * worker on 127.0.0.1:{@code restPort} with {@code classPath}.
     *
     * @return the started process
     * @throws IOException when the files cannot be written or the JVM cannot be launched
     */
    static WorkerProcess launch(String pod, int restPort, Map<String, String> properties, Path dir, String classPath)
            throws IOException {
        Files.createDirectories(dir);
        String base = pod.replace('/', '_');
        Path file = dir.resolve(base + ".properties");
        Properties p = new Properties();
        p.putAll(properties);
        try (Writer w = Files.newBufferedWriter(file)) {
            p.store(w, "worker of pod " + pod);
        }
        Path log = dir.resolve(base + ".log");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1",
                "-XX:ActiveProcessorCount=1", "-Xshare:auto", "-Djava.net.preferIPv4Stack=true",
                "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                // wall-clock times, so that the logs of several workers (and a test's output) line up
                "-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS",
                // the herder's rebalances, task starts and zombie fencing: what explains a task that does not run
                "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.connect.runtime.distributed.DistributedHerder=info",
                // "Stopping task <connector>-<n>": when a task of a connector's old configuration stopped
                "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.connect.runtime.Worker=info",
                "-cp", classPath, WorkerMain.class.getName(), file.toString()));
        Process process = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(Redirect.appendTo(log.toFile()))
                .start();
        return new WorkerProcess(pod, restPort, process);
    }

    /** @return the REST port */
    int restPort() {
        return restPort;
    }

    /** @return the pod it runs for */
    String pod() {
        return pod;
    }

    /** @return true while the process runs */
    boolean alive() {
        return process.isAlive();
    }

    /**
     * Sends a signal with {@code kill -s} (the JDK's process API sends only TERM and KILL).
     *
     * @param signal the signal's name, e.g. {@code STOP} or {@code CONT}
     * @throws IllegalStateException when {@code kill} cannot run or exits with an error
     */
    void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            String out = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -s " + signal + " of the worker of pod " + pod + " failed: " + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException("kill -s " + signal + " could not run: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending SIG" + signal + " to the worker of pod " + pod, e);
        }
    }

    /**
     * Stops the process and waits for it.
     *
     * @param kill true for SIGKILL (a crash), false for SIGTERM (Connect stops gracefully), killed after 30 s
     */
    void stop(boolean kill) {
        if (kill) {
            process.destroyForcibly();
        } else {
            // through the handle: Process.destroy() also closes our end of the worker's standard input, which its
            // ParentWatch takes for this JVM's exit and halts, cutting Connect's graceful shutdown short
            process.toHandle().destroy();
        }
        try {
            if (!process.waitFor(kill ? 10_000 : GRACEFUL_STOP_MS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
