package dev.flowform.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * What a CI runner does around a job's scripts, for the tests that play the recipes of {@code examples/ci}: a
 * repository holding this working tree, fresh clones of it, and shell scripts run as the runner runs them (bash,
 * {@code -e -o pipefail}), with a given environment, in a given folder.
 */
final class CiScript {

    /** Longest a script may run: a build from source plus an apply on the embedded cluster. */
    static final Duration SCRIPT_LIMIT = Duration.ofMinutes(15);

    private CiScript() {
    }

    /**
     * What a script did.
     *
     * @param exitCode its exit code
     * @param output   its standard output and error, interleaved
     */
    record Result(int exitCode, String output) {
    }

    /**
     * Makes a git repository of the working tree: every file git tracks or would track (not ignored), as it is now,
     * committed on {@code main}.
     *
     * @param tree the working tree (the project root)
     * @param repo the repository to create
     * @return {@code repo}
     */
    static Path repository(Path tree, Path repo) {
        Result files = git(tree, "ls-files", "-z", "--cached", "--others", "--exclude-standard");
        try {
            Files.createDirectories(repo);
            for (String f : files.output().split("\0")) {
                Path from = tree.resolve(f);
                if (!f.isEmpty() && Files.isRegularFile(from)) {
                    Path to = repo.resolve(f);
                    Files.createDirectories(to.getParent());
                    Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        git(repo, "init", "-q", "-b", "main");
        git(repo, "add", "-A");
        git(repo, "-c", "user.name=ci", "-c", "user.email=ci@example.com", "commit", "-q", "-m", "the working tree");
        return repo;
    }

    /** @return a fresh clone of {@code repo} in {@code dir} (which must not exist or be empty) */
    static Path cloneInto(Path repo, Path dir) {
        git(dir.getParent(), "clone", "-q", repo.toString(), dir.toString());
        return dir;
    }

    private static Result git(Path dir, String... args) {
        List<String> cmd = new ArrayList<>(List.of("git"));
        cmd.addAll(List.of(args));
        Result r = run(dir, Map.of(), cmd, Duration.ofMinutes(2));
        if (r.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + r.output());
        }
        return r;
    }

    /**
     * Runs a shell script as GitHub's and GitLab's runners run one: {@code bash --noprofile --norc -eo pipefail}.
     *
     * @param dir    the working directory
     * @param env    the whole environment of the script
     * @param script the script
     * @return its exit code and output
     */
    static Result bash(Path dir, Map<String, String> env, String script) {
        try {
            Path file = Files.createTempFile(dir.getParent(), "step", ".sh");
            Files.writeString(file, script);
            return run(dir, env, List.of("bash", "--noprofile", "--norc", "-eo", "pipefail", file.toString()), SCRIPT_LIMIT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @return the environment a runner starts a job with: this JVM's {@code PATH} (git, bash, curl, Maven) with the
     *         test JVM's Java first, {@code JAVA_HOME}, {@code HOME}, {@code TMPDIR} and {@code CI=true}
     */
    static Map<String, String> runnerEnvironment(Path tmp) {
        Map<String, String> env = new LinkedHashMap<>();
        String javaHome = System.getProperty("java.home");
        env.put("PATH", Path.of(javaHome, "bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("JAVA_HOME", javaHome);
        env.put("HOME", System.getProperty("user.home"));
        env.put("TMPDIR", tmp.toString());
        env.put("CI", "true");
        env.put("LANG", "C.UTF-8");
        return env;
    }

    private static Result run(Path dir, Map<String, String> env, List<String> cmd, Duration limit) {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        if (!env.isEmpty()) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        try {
            Path out = Files.createTempFile("ci-script", ".log");
            pb.redirectOutput(out.toFile());
            Process p = pb.start();
            if (!p.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
                return new Result(-1, Files.readString(out, StandardCharsets.UTF_8) + "\n(killed after " + limit + ")");
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            Files.delete(out);
            return new Result(p.exitValue(), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** @return the YAML document of {@code file}, as maps and lists */
    static Map<String, Object> yaml(Path file) {
        try {
            return map(new Load(LoadSettings.builder().setLabel(file.toString()).build()).loadFromString(Files.readString(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return {@code o} as a map; an absent value as an empty map */
    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        if (o == null) {
            return Map.of();
        }
        if (!(o instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("not a mapping: " + o);
        }
        return (Map<String, Object>) o;
    }

    /** @return {@code o} as a list; an absent value as an empty list */
    @SuppressWarnings("unchecked")
    static List<Object> list(Object o) {
        if (o == null) {
            return List.of();
        }
        if (!(o instanceof List<?>)) {
            throw new IllegalArgumentException("not a sequence: " + o);
        }
        return (List<Object>) o;
    }

    /**
     * Reads a file the runner gives a step to write {@code NAME=value} lines to ({@code GITHUB_OUTPUT},
     * {@code GITHUB_ENV}), including the {@code NAME<<DELIMITER} form for values of several lines.
     */
    static Map<String, String> keyValues(Path file) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        try {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                int heredoc = line.indexOf("<<");
                int eq = line.indexOf('=');
                if (heredoc > 0 && (eq < 0 || heredoc < eq)) {
                    String name = line.substring(0, heredoc);
                    String end = line.substring(heredoc + 2);
                    StringBuilder value = new StringBuilder();
                    for (i++; i < lines.size() && !lines.get(i).equals(end); i++) {
                        value.append(value.length() == 0 ? "" : "\n").append(lines.get(i));
                    }
                    out.put(name, value.toString());
                } else if (eq > 0) {
                    out.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies the file or folder {@code from} to {@code to} (a folder's content into the folder {@code to}). */
    static void copy(Path from, Path to) {
        try {
            if (Files.isDirectory(from)) {
                CliFiles.copy(from, to);
            } else {
                Files.createDirectories(to.getParent());
                Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
