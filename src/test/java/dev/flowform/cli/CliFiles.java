package dev.flowform.cli;

import dev.flowform.sim.EmbeddedCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Configuration folders for CLI tests: the quickstart example, or an adopting config on a kubeconfig. */
final class CliFiles {
    private CliFiles() {
    }

    /** Copies {@code examples/quickstart} to {@code target} and returns it. */
    static Path quickstart(Path target) {
        return copy(Path.of("examples", "quickstart"), target);
    }

    /** Copies the folder {@code source} with everything in it to {@code target} and returns {@code target}. */
    static Path copy(Path source, Path target) {
        try (Stream<Path> files = Files.walk(source)) {
            for (Path p : files.toList()) {
                Path t = target.resolve(source.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    /**
     * Writes a configuration adopting mm2-connect and flow dc1-to-dc2 (EOS on) in environment {@code prod},
     * reached through a kubeconfig for {@code cluster}.
     *
     * @param dir            the folder to create
     * @param cluster        the cluster to point at
     * @param extraEnvFields more JSON members of the environment block (e.g. {@code "expected_server": "..."}), or empty
     * @return {@code dir}
     */
    static Path kubeconfigConfig(Path dir, EmbeddedCluster cluster, String extraEnvFields) {
        try {
            Files.createDirectories(dir);
            Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig.yaml"));
            Files.writeString(dir.resolve("main.flow.json"), """
                    {
                      "environment": {
                        "prod": {
                          "kubernetes": { "kubeconfig": "%s", "context": "%s" },
                          "namespace": "replication"%s
                        }
                      },
                      "connect_cluster": { "mm2-connect": { "manage": "adopt" } },
                      "replication_flow": {
                        "dc1-to-dc2": { "manage": "adopt", "connect_cluster": "mm2-connect" }
                      }
                    }
                    """.formatted(kubeconfig.toString().replace("\\", "\\\\"), EmbeddedCluster.CONTEXT,
                    extraEnvFields.isEmpty() ? "" : ",\n      " + extraEnvFields));
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return {@code command --dir dir --state-dir stateDir --no-color more...} */
    static String[] args(String command, Path dir, Path stateDir, String... more) {
        List<String> all = new ArrayList<>(List.of(command.split(" ")));
        all.addAll(List.of("--dir", dir.toString(), "--state-dir", stateDir.toString(), "--no-color"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }
}
