package dev.flowform.testing;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Starts the embedded cluster seeded with one of the project's fixtures. */
public final class Sim {
    private Sim() {
    }

    /**
     * @param fixture  a file name under {@code src/test/resources/fixtures} without {@code .yaml}
     * @param workDir  a scratch folder (the seed is copied there)
     * @param settings simulated operator timings
     * @return a running embedded cluster; close it
     */
    public static EmbeddedCluster start(String fixture, Path workDir, SimSettings settings) {
        return start(fixture, workDir, settings, null);
    }

    /**
     * @param fixture  a file name under {@code src/test/resources/fixtures} without {@code .yaml}
     * @param workDir  a scratch folder (the seed is copied there)
     * @param settings simulated operator timings
     * @param runtime  the Kafka Connect behind the worker pods, or null for a new simulated one
     * @return a running embedded cluster; close it
     */
    public static EmbeddedCluster start(String fixture, Path workDir, SimSettings settings,
                                        java.util.function.Supplier<dev.flowform.connect.ConnectRuntime> runtime) {
        Path seed = workDir.resolve("seed-" + fixture);
        try (InputStream in = Sim.class.getResourceAsStream("/fixtures/" + fixture + ".yaml")) {
            Files.createDirectories(seed);
            Files.copy(in, seed.resolve(fixture + ".yaml"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed).settings(settings).connectRuntime(runtime)
                .build());
    }
}
