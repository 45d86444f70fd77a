package dev.flowform.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Starts child processes and measures their wall time. */
public final class Procs {

    private Procs() {
    }

    /**
     * What a child process did.
     *
     * @param exitCode its exit code
     * @param millis   wall time from start to exit
     * @param stdout   what it printed
     * @param stderr   what it printed on standard error
     */
    public record Result(int exitCode, double millis, String stdout, String stderr) {
    }

    /** @return the {@code java} binary of the running JVM */
    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Runs {@code command} in {@code dir}, output to temporary files, and waits at most 10 minutes.
     *
     * @param dir     working directory
     * @param env     extra environment variables
     * @param command the command line
     * @return what happened
     */
    public static Result run(Path dir, Map<String, String> env, List<String> command) {
        try {
            Path out = Files.createTempFile("bench-out", ".txt");
            Path err = Files.createTempFile("bench-err", ".txt");
            try {
                ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                        .redirectOutput(out.toFile()).redirectError(err.toFile());
                pb.environment().remove("JAVA_TOOL_OPTIONS");
                pb.environment().remove("_JAVA_OPTIONS");
                pb.environment().putAll(env);
                long t0 = System.nanoTime();
                Process p = pb.start();
                if (!p.waitFor(10, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("timed out: " + command);
                }
                long t1 = System.nanoTime();
                return new Result(p.exitValue(), (t1 - t0) / 1e6, Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param jvmOptions options before the main class
     * @param mainClass  a class of the harness's class path
     * @param args       its arguments
     * @return a command line running {@code mainClass} in a new JVM on this JVM's class path
     */
    public static List<String> javaMain(List<String> jvmOptions, String mainClass, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            entries.add(Path.of(e).toAbsolutePath().toString());
        }
        cmd.add(String.join(java.io.File.pathSeparator, entries));
        cmd.add(mainClass);
        cmd.addAll(args);
        return cmd;
    }

    /**
     * @param result a finished process
     * @param what   what it was, for the error
     * @return {@code result}
     * @param ok       the exit codes that count as success; none given means 0
     * @throws IllegalStateException when it exited with a code outside {@code ok}
     */
    public static Result check(Result result, String what, int... ok) {
        for (int c : ok.length == 0 ? new int[] {0} : ok) {
            if (result.exitCode() == c) {
                return result;
            }
        }
        throw new IllegalStateException(what + " exited " + result.exitCode() + "\nstdout: " + tail(result.stdout())
                + "\nstderr: " + tail(result.stderr()));
    }

    private static String tail(String s) {
        return s.length() <= 3000 ? s : "..." + s.substring(s.length() - 3000);
    }
}
