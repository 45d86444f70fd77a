package dev.flowform.model;

/**
 * The Strimzi API versions flowform reads and writes.
 *
 * <p>{@code v1beta2} was the only version up to Strimzi 0.48; {@code v1} arrived in 0.49 and is the
 * only one from 1.0 (Strimzi CHANGELOG). In {@code v1} the Connect group id lives in
 * {@code spec.groupId}; in {@code v1beta2} in {@code spec.config."group.id"} (default
 * {@code connect-cluster}).
 */
public enum StrimziApi {
    /** {@code kafka.strimzi.io/v1beta2} with {@code core.strimzi.io/v1beta2} pod sets. */
    V1BETA2("v1beta2"),
    /** {@code kafka.strimzi.io/v1} with {@code core.strimzi.io/v1} pod sets. */
    V1("v1");

    /** API group of KafkaConnect and KafkaConnector. */
    public static final String KAFKA_GROUP = "kafka.strimzi.io";
    /** API group of StrimziPodSet. */
    public static final String CORE_GROUP = "core.strimzi.io";

    private final String version;

    StrimziApi(String version) {
        this.version = version;
    }

    /** @return the version part, {@code v1beta2} or {@code v1} */
    public String version() {
        return version;
    }

    /** @return e.g. {@code kafka.strimzi.io/v1} */
    public String kafkaApiVersion() {
        return KAFKA_GROUP + "/" + version;
    }

    /** @return e.g. {@code core.strimzi.io/v1} */
    public String coreApiVersion() {
        return CORE_GROUP + "/" + version;
    }

    /** @return the API for an {@code apiVersion} string such as {@code kafka.strimzi.io/v1}, or null */
    public static StrimziApi fromApiVersion(String apiVersion) {
        if (apiVersion == null) {
            return null;
        }
        for (StrimziApi a : values()) {
            if (apiVersion.endsWith("/" + a.version)) {
                return a;
            }
        }
        return null;
    }
}
