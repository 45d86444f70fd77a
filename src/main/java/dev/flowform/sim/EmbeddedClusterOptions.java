package dev.flowform.sim;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.model.StrimziApi;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * How to start an {@link EmbeddedCluster}.
 *
 * @param persistFile JSON file of every object, reloaded on start and rewritten atomically after each write before it
 *                    is answered, and on close; null keeps the cluster in memory only
 * @param seedDir     folder of {@code *.yaml} / {@code *.yml} loaded when there is no persist file yet; null for none
 * @param api         the Strimzi API version to serve; null detects it from the objects, else {@link StrimziApi#V1BETA2}
 * @param settings    simulator timing; null means {@link SimSettings#fast()}
 * @param persistReadOnly true to load {@code persistFile} but never overwrite it (commands that only read)
 * @param connectRuntime makes the Kafka Connect behind the worker pods, closed with the cluster; null means a
 *                    {@link SimulatedConnectRuntime}
 * @param https       true to serve HTTPS with the mock's self-signed certificate
 *                    ({@link EmbeddedCluster#certificateFile()}); false for plain HTTP
 * @param port        the TCP port on 127.0.0.1 to serve on, from 1 to 65535; 0 for any free port
 */
public record EmbeddedClusterOptions(Path persistFile, Path seedDir, StrimziApi api, SimSettings settings,
                                     boolean persistReadOnly, Supplier<ConnectRuntime> connectRuntime, boolean https,
                                     int port) {

    /** @throws IllegalArgumentException when {@code port} is outside 0 to 65535 */
    public EmbeddedClusterOptions {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be from 1 to 65535 (0: any free port), got " + port);
        }
        settings = settings == null ? SimSettings.fast() : settings;
        connectRuntime = connectRuntime == null ? SimulatedConnectRuntime::new : connectRuntime;
    }

    /** @return a builder starting from an empty in-memory cluster with fast settings */
    public static Builder builder() {
        return new Builder();
    }

    /** Fluent builder for {@link EmbeddedClusterOptions}. */
    public static final class Builder {
        private Path persistFile;
        private Path seedDir;
        private StrimziApi api;
        private SimSettings settings;
        private boolean persistReadOnly;
        private Supplier<ConnectRuntime> connectRuntime;
        private int port;
        private boolean https;

        private Builder() {
        }

        /** @return this builder with {@code file} as the persist file (null: in memory only) */
        public Builder persistFile(Path file) {
            this.persistFile = file;
            return this;
        }

        /** @return this builder with {@code dir} as the seed folder (null: none) */
        public Builder seedDir(Path dir) {
            this.seedDir = dir;
            return this;
        }

        /** @return this builder serving {@code strimziApi} (null: detected from the objects) */
        public Builder api(StrimziApi strimziApi) {
            this.api = strimziApi;
            return this;
        }

        /** @return this builder with the simulator timing {@code simSettings} (null: {@link SimSettings#fast()}) */
        public Builder settings(SimSettings simSettings) {
            this.settings = simSettings;
            return this;
        }

        /** @return this builder; {@code readOnly} true reads the persist file but never writes it */
        public Builder persistReadOnly(boolean readOnly) {
            this.persistReadOnly = readOnly;
            return this;
        }

        /** @return this builder with {@code runtime} making the workers' Kafka Connect (null: simulated) */
        public Builder connectRuntime(Supplier<ConnectRuntime> runtime) {
            this.connectRuntime = runtime;
            return this;
        }

        /** @return this builder; {@code useHttps} true serves HTTPS with a self-signed certificate */
        public Builder https(boolean useHttps) {
            this.https = useHttps;
            return this;
        }

        /** @return this builder serving on {@code tcpPort} of 127.0.0.1 (0, the default: any free port) */
        public Builder port(int tcpPort) {
            this.port = tcpPort;
            return this;
        }

        /** @return the options */
        public EmbeddedClusterOptions build() {
            return new EmbeddedClusterOptions(persistFile, seedDir, api, settings, persistReadOnly, connectRuntime, https,
                    port);
        }
    }
}
