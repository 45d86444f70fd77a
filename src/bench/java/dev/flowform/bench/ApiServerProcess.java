package dev.flowform.bench;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A Kubernetes API server in a process of its own, as a user's real cluster is: the embedded cluster (mock API
 * server and simulated operator, demo timings) seeded from a folder, its kubeconfig written to a file. Prints
 * {@code ready} once it serves, and stops when its standard input closes. Arguments:
 * {@code <seed dir> <kubeconfig file>}.
 */
public final class ApiServerProcess {

    private ApiServerProcess() {
    }

    /**
     * @param args the seed folder and where to write the kubeconfig
     * @throws IOException when standard input fails
     */
    public static void main(String[] args) throws IOException {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(Path.of(args[0]))
                .settings(SimSettings.demo()).build())) {
            cluster.writeKubeconfig(Path.of(args[1]));
            System.out.println("ready");
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the harness to close our input
            }
        }
        System.exit(0);
    }
}
