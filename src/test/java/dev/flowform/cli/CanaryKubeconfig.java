package dev.flowform.cli;

import dev.flowform.sim.EmbeddedCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A kubeconfig for an embedded cluster whose bearer token is a canary, for tests that follow a secret through every
 * output: one cluster, user and context named {@code canary}, the current context.
 */
final class CanaryKubeconfig {
    private CanaryKubeconfig() {
    }

    /**
     * Writes the kubeconfig.
     *
     * @param file    where to write it
     * @param cluster the embedded cluster its server points at
     * @param token   the bearer token (the canary)
     * @throws IOException when the file cannot be written
     */
    static void write(Path file, EmbeddedCluster cluster, String token) throws IOException {
        String server = cluster.url().substring(0, cluster.url().length() - 1);
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: canary
                  cluster:
                    server: %s
                users:
                - name: canary
                  user:
                    token: %s
                contexts:
                - name: canary
                  context:
                    cluster: canary
                    user: canary
                current-context: canary
                """.formatted(server, token));
    }
}
