package dev.flowform.sim;

import java.time.Duration;
import java.util.Objects;

/**
 * Timing of the simulated Strimzi operator and kubelet.
 *
 * @param reconcileDelay delay between a KafkaConnect change being seen and its reconcile starting
 * @param podReadyDelay  time a re-created worker pod stays Pending before the kubelet reports it Ready
 * @param connectorDelay delay before a KafkaConnector change is validated and its status written
 * @param stuckTimeout   how much longer than {@code podReadyDelay} a roll waits for a pod that does not become Ready
 *                       before the reconcile ends {@code NotReady} (Strimzi's {@code operationTimeoutMs})
 * @param strimziVersion the Strimzi release played ({@value #DEFAULT_STRIMZI_VERSION} unless chosen); 0.46.0 to 0.48.x
 *                       do not roll KafkaMirrorMaker2 pods on a worker configuration change
 *                       ({@link #rollsMirrorMakerOnConfigChange()}, docs/domain-rules.md 7a)
 */
public record SimSettings(Duration reconcileDelay, Duration podReadyDelay, Duration connectorDelay, Duration stuckTimeout,
                          String strimziVersion) {

    /** The Strimzi release simulated unless another is chosen. */
    public static final String DEFAULT_STRIMZI_VERSION = "0.49.0";

    /** Settings of the default Strimzi release ({@value #DEFAULT_STRIMZI_VERSION}); the components are the record's. */
    public SimSettings(Duration reconcileDelay, Duration podReadyDelay, Duration connectorDelay, Duration stuckTimeout) {
        this(reconcileDelay, podReadyDelay, connectorDelay, stuckTimeout, DEFAULT_STRIMZI_VERSION);
    }

    /**
     * @throws NullPointerException     when a duration is null
     * @throws IllegalArgumentException when a duration is negative, or the version is not {@code major.minor.patch}
     */
    public SimSettings {
        strimziVersion = strimziVersion == null ? DEFAULT_STRIMZI_VERSION : strimziVersion;
        if (!strimziVersion.matches("\\d+\\.\\d+\\.\\d+")) {
            throw new IllegalArgumentException("Strimzi version must be major.minor.patch, got " + strimziVersion);
        }
        for (Duration d : new Duration[] {reconcileDelay, podReadyDelay, connectorDelay, stuckTimeout}) {
            Objects.requireNonNull(d, "durations must not be null");
            if (d.isNegative()) {
                throw new IllegalArgumentException("durations must not be negative: " + d);
            }
        }
    }

    /**
     * Settings for the user demo: reconcile after 300 ms, pods Ready 700 ms after re-creation (so a
     * 3-worker roll takes a few seconds and can be watched), connectors validated after 300 ms, a
     * stuck pod fails the reconcile after 30 s.
     *
     * @return demo settings
     */
    public static SimSettings demo() {
        return new SimSettings(Duration.ofMillis(300), Duration.ofMillis(700), Duration.ofMillis(300), Duration.ofSeconds(30));
    }

    /**
     * Settings for tests: every step takes tens of milliseconds; a stuck pod fails the reconcile 1 s after it
     * should have become Ready (tests of that fault usually shorten it with {@link #withStuckTimeout(Duration)}).
     *
     * @return fast settings
     */
    public static SimSettings fast() {
        return new SimSettings(Duration.ofMillis(20), Duration.ofMillis(30), Duration.ofMillis(20), Duration.ofSeconds(1));
    }

    /**
     * @param timeout the new stuck-pod timeout
     * @return a copy with {@link #stuckTimeout()} replaced
     */
    public SimSettings withStuckTimeout(Duration timeout) {
        return new SimSettings(reconcileDelay, podReadyDelay, connectorDelay, timeout, strimziVersion);
    }

    /**
     * @param version the Strimzi release to play, {@code major.minor.patch}
     * @return a copy with {@link #strimziVersion()} replaced
     */
    public SimSettings withStrimziVersion(String version) {
        return new SimSettings(reconcileDelay, podReadyDelay, connectorDelay, stuckTimeout, version);
    }

    /**
     * @return false for Strimzi 0.46.0 to 0.48.x, whose KafkaMirrorMaker2 pods carry no {@code strimzi.io/configuration-hash}
     *         and are not rolled when only the worker configuration (the ConfigMap) changes (Strimzi PR 11926); true
     *         otherwise
     */
    public boolean rollsMirrorMakerOnConfigChange() {
        String[] v = strimziVersion.split("\\.");
        int major = Integer.parseInt(v[0]);
        int minor = Integer.parseInt(v[1]);
        return !(major == 0 && minor >= 46 && minor <= 48);
    }

    /**
     * @param delay the new pod readiness delay
     * @return a copy with {@link #podReadyDelay()} replaced
     */
    public SimSettings withPodReadyDelay(Duration delay) {
        return new SimSettings(reconcileDelay, delay, connectorDelay, stuckTimeout, strimziVersion);
    }
}
