package dev.flowform.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * flowform running in a child JVM ({@code java -cp <test class path> dev.flowform.cli.Main ...}), so a
 * test can kill it for real. Stdout and stderr are read line by line as they come; {@link #awaitLine}
 * blocks until a line matches, which is how tests time kills and signals from progress output rather
 * than from sleeps.
 */
final class ChildFlowform implements AutoCloseable {

    /**
     * JVM options that shorten start-up of a short-lived child (no C2, serial GC, class data sharing); the class path
     * and the archive of the application's classes come from {@link ChildClassData}.
     */
    private static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto",
            "-Dslf4j.provider=org.slf4j.nop.NOPServiceProvider", "-Dslf4j.internal.verbosity=WARN",
            "-Xss512k");

    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();
    private final Thread outReader;
    private final Thread errReader;

    private ChildFlowform(Process process) {
        this.process = process;
        this.outReader = reader(process.getInputStream(), out, "out");
        this.errReader = reader(process.getErrorStream(), err, "err");
    }

    /**
     * @param workDir working directory of the child
     * @param env     extra environment variables
     * @param args    flowform's arguments
     * @return the running child
     */
    static ChildFlowform start(Path workDir, Map<String, String> env, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(FAST_START);
        cmd.addAll(ChildClassData.forChild(System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")), FAST_START));
        cmd.add(Main.class.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile());
        pb.environment().putAll(env);
        try {
            return new ChildFlowform(pb.start());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Thread reader(InputStream in, List<String> sink, String name) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (this) {
                        sink.add(line);
                        notifyAll();
                    }
                }
            } catch (IOException e) {
                // the child was killed: its pipes close
            }
            synchronized (this) {
                notifyAll();
            }
        }, "child-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** @return the child's pid */
    long pid() {
        return process.pid();
    }

    /**
     * Waits until a stdout line at or after index {@code from} matches.
     *
     * @param from  first line index to look at
     * @param match the condition
     * @param max   how long to wait
     * @return the index of the matching line, or -1 when the child ended or time ran out first
     */
    synchronized int awaitLine(int from, Predicate<String> match, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        int i = from;
        while (true) {
            for (; i < out.size(); i++) {
                if (match.test(out.get(i))) {
                    return i;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || (!process.isAlive() && !outReader.isAlive())) {
                return -1;
            }
            wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        }
    }

    /** Sends SIGKILL (the JVM gets no chance to react). */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /**
     * Sends a signal by name, e.g. {@code INT}, with the system's {@code kill}.
     *
     * @throws IllegalStateException for {@code INT} when the child ignores SIGINT: a process started in the background
     *                               by a shell without job control ({@code mvn ... &} in a script) ignores it, and so
     *                               do the test JVM and the children it starts, which then never see the signal
     */
    void signal(String name) throws IOException, InterruptedException {
        if ("INT".equals(name) && ignoresSigint(process.pid())) {
            throw new IllegalStateException("process " + process.pid() + " ignores SIGINT, inherited from the test JVM "
                    + "(started in the background by a shell without job control, e.g. 'mvn ... &' in a script): run "
                    + "Maven in the foreground, or after 'set -m'");
        }
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    /** @return true when Linux reports SIGINT (signal 2) in the process's ignored-signal mask; false elsewhere */
    private static boolean ignoresSigint(long pid) throws IOException {
        Path status = Path.of("/proc/" + pid + "/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }

    /** @return the exit code, after waiting at most {@code max} (then the child is killed and -1 returned) */
    int waitFor(Duration max) throws InterruptedException {
        if (!process.waitFor(max.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            return -1;
        }
        outReader.join(5000);
        errReader.join(5000);
        return process.exitValue();
    }

    /** @return stdout so far */
    synchronized String out() {
        return String.join("\n", out);
    }

    /** @return stderr so far */
    synchronized String err() {
        return String.join("\n", err);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
