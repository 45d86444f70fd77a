package dev.flowform.bench;

import dev.flowform.plan.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The quickstart against an API server in another process, as a user with a real cluster runs it: an
 * {@link ApiServerProcess} child seeded from {@code examples/quickstart/seed}, and a copy of the quickstart's
 * configuration whose environment reads that server's kubeconfig. Close it to stop the server.
 */
final class RemoteServer implements AutoCloseable {

    private final Process process;
    private final Path kubeconfig;
    private final Path config;

    private RemoteServer(Process process, Path kubeconfig, Path config) {
        this.process = process;
        this.kubeconfig = kubeconfig;
        this.config = config;
    }

    /**
     * Starts the server and writes the configuration.
     *
     * @param quickstart {@code examples/quickstart}
     * @param work       a scratch folder (created)
     * @return the running server
     */
    static RemoteServer start(Path quickstart, Path work) {
        try {
            Files.createDirectories(work);
            Path kubeconfig = work.resolve("kubeconfig");
            Files.deleteIfExists(kubeconfig);
            ProcessBuilder pb = new ProcessBuilder(Procs.javaMain(List.of("-Xmx1g"), ApiServerProcess.class.getName(),
                    List.of(quickstart.resolve("seed").toString(), kubeconfig.toString())))
                    .directory(work.toFile()).redirectError(work.resolve("server.err").toFile());
            pb.environment().remove("JAVA_TOOL_OPTIONS");
            Process p = pb.start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = out.readLine()) != null && !line.equals("ready")) {
                // the server prints nothing else before it serves
            }
            if (line == null) {
                throw new IllegalStateException("the API server process exited: " + Files.readString(work.resolve("server.err")));
            }
            return new RemoteServer(p, kubeconfig, writeConfig(quickstart, kubeconfig, work.resolve("config")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the quickstart's {@code main.flow.json} on {@code kubeconfig}, in {@code dir}, without its state backend */
    private static Path writeConfig(Path quickstart, Path kubeconfig, Path dir) throws IOException {
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = Json.MAPPER.readValue(Files.readString(quickstart.resolve("main.flow.json")), LinkedHashMap.class);
        doc.remove("backend");
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> envs = (Map<String, Map<String, Object>>) doc.get("environment");
        for (Map<String, Object> env : envs.values()) {
            env.put("kubernetes", Map.of("kubeconfig", kubeconfig.toAbsolutePath().toString()));
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("main.flow.json"), Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc));
        return dir;
    }

    /** @return the configuration folder on this server */
    Path config() {
        return config;
    }

    /** @return the server's kubeconfig */
    Path kubeconfig() {
        return kubeconfig;
    }

    /**
     * Runs {@code command} until it prints its first step ({@code [1/}), then stops it (SIGTERM: the apply stops
     * gracefully) and waits for it.
     *
     * @param command the apply command line
     * @param dir     its working directory
     * @return milliseconds from starting the process to its first step line
     * @throws IllegalStateException when it ends without starting a step
     */
    static double untilFirstStep(List<String> command, Path dir) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
            pb.environment().remove("JAVA_TOOL_OPTIONS");
            long t0 = System.nanoTime();
            Process p = pb.start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            List<String> seen = new ArrayList<>();
            String line;
            while ((line = out.readLine()) != null) {
                if (line.contains(": [1/")) {
                    double ms = (System.nanoTime() - t0) / 1e6;
                    p.destroy();
                    p.waitFor(60, TimeUnit.SECONDS);
                    return ms;
                }
                seen.add(line);
            }
            p.waitFor();
            throw new IllegalStateException("apply started no step: " + String.join("\n", seen));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
