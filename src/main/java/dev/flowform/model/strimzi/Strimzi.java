package dev.flowform.model.strimzi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

/**
 * The names the Strimzi cluster operator gives to what it manages for a KafkaConnect, defined once: label
 * and annotation keys, the names of the objects it derives from a KafkaConnect's name, Kafka Connect's
 * defaults as Strimzi renders them, and its hash of configuration text. Pure: no I/O.
 *
 * <p>Sources, all strimzi/strimzi-kafka-operator: {@code Labels} and {@code Annotations} (keys),
 * {@code KafkaConnectResources} (object names), {@code KafkaConnectConfiguration} and
 * {@code KafkaConnectCluster} (defaults, config file), {@code Util.hashStub} (hashes).
 */
public final class Strimzi {
    /** Label naming the KafkaConnect an object (pod, PodSet, ConfigMap, KafkaConnector) belongs to. */
    public static final String CLUSTER_LABEL = "strimzi.io/cluster";
    /** Label naming the kind of the Strimzi resource an object was created for, e.g. {@code KafkaConnect}. */
    public static final String KIND_LABEL = "strimzi.io/kind";
    /** Label naming the component ({@code <name>-connect}) an object belongs to. */
    public static final String NAME_LABEL = "strimzi.io/name";
    /** Value of {@link #KIND_LABEL} on the objects of a KafkaConnect. */
    public static final String KAFKA_CONNECT_KIND = "KafkaConnect";
    /** Pod annotation carrying the pod template revision ({@code PodRevision}). */
    public static final String REVISION_ANNOTATION = "strimzi.io/revision";
    /** Pod annotation carrying the hash of the worker configuration file (Strimzi 0.46+). */
    public static final String CONFIG_HASH_ANNOTATION = "strimzi.io/configuration-hash";
    /** Annotation that pauses reconciliation of a Strimzi resource. */
    public static final String PAUSE_RECONCILIATION_ANNOTATION = "strimzi.io/pause-reconciliation";
    /** KafkaConnect annotation that makes Strimzi manage connectors through KafkaConnector resources. */
    public static final String USE_CONNECTOR_RESOURCES_ANNOTATION = "strimzi.io/use-connector-resources";
    /**
     * Annotations that ask the operator for a one-off operation (restart a connector or task, alter offsets,
     * roll the pods) and that the operator removes once done ({@code Annotations}, {@code KafkaConnector}).
     */
    public static final Set<String> OPERATION_ANNOTATIONS = Set.of("strimzi.io/restart", "strimzi.io/restart-task",
            "strimzi.io/restart-connector", "strimzi.io/restart-connector-task", "strimzi.io/connector-offsets",
            "strimzi.io/manual-rolling-update");
    /** Kubernetes' recommended label naming the tool that manages an object. */
    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

    /** Data key of the worker configuration in ConfigMap {@code <name>-connect-config} (Strimzi 0.46+). */
    public static final String CONNECT_PROPERTIES_KEY = "kafka-connect.properties";
    /** Environment variable carrying the worker configuration in Strimzi 0.45 and older. */
    public static final String CONNECT_CONFIGURATION_ENV = "KAFKA_CONNECT_CONFIGURATION";
    /** Port of the Kafka Connect REST API on every worker pod and on the {@code <name>-connect-api} service. */
    public static final int CONNECT_REST_PORT = 8083;

    /** Kafka Connect group id when none is configured. */
    public static final String DEFAULT_GROUP_ID = "connect-cluster";
    /** {@code config.storage.topic} when none is configured. */
    public static final String DEFAULT_CONFIG_STORAGE_TOPIC = "connect-cluster-configs";
    /** {@code offset.storage.topic} when none is configured. */
    public static final String DEFAULT_OFFSET_STORAGE_TOPIC = "connect-cluster-offsets";
    /** {@code status.storage.topic} when none is configured. */
    public static final String DEFAULT_STATUS_STORAGE_TOPIC = "connect-cluster-status";

    /** Kind of Strimzi's MirrorMaker 2 resource. */
    public static final String KAFKA_MIRROR_MAKER_2_KIND = "KafkaMirrorMaker2";
    /** Component suffix of a KafkaMirrorMaker2's objects (Strimzi {@code KafkaMirrorMaker2Resources}). */
    public static final String MIRROR_MAKER_2_SUFFIX = "-mirrormaker2";
    /** Annotation that makes the operator restart one connector task of a KafkaMirrorMaker2 (Strimzi docs). */
    public static final String RESTART_CONNECTOR_TASK_ANNOTATION = "strimzi.io/restart-connector-task";
    /** Annotation ({@code "true"}) that makes the operator restart a KafkaConnector's connector (Strimzi docs). */
    public static final String RESTART_ANNOTATION = "strimzi.io/restart";
    /**
     * Annotation ({@code "<task id>"}) that makes the operator restart one task of a KafkaConnector, then remove the
     * annotation (Strimzi {@code AbstractConnectOperator.maybeRestartConnectorTask}, when the connector needs no new
     * configuration).
     */
    public static final String RESTART_TASK_ANNOTATION = "strimzi.io/restart-task";
    /**
     * Annotation on a StrimziPodSet (value {@code "true"}) that makes the operator roll every pod of the PodSet at
     * its next reconciliation and then remove the annotation (Strimzi 0.48 docs,
     * {@code proc-manual-rolling-update-strimzipodset.adoc}; Connect and MirrorMaker 2 since PR 9153).
     */
    public static final String MANUAL_ROLLING_UPDATE_ANNOTATION = "strimzi.io/manual-rolling-update";
    /** Kind of the object that owns a Strimzi component's pods. */
    public static final String STRIMZI_POD_SET_KIND = "StrimziPodSet";

    private static final String CONNECT_SUFFIX = "-connect";

    private Strimzi() {
    }

    /** @return {@code <cluster>-connect}: the StrimziPodSet of KafkaConnect {@code cluster}, its component name */
    public static String podSetName(String cluster) {
        return cluster + CONNECT_SUFFIX;
    }

    /** @return {@code <cluster>-connect-config}: the ConfigMap of KafkaConnect {@code cluster}'s worker configuration */
    public static String configMapName(String cluster) {
        return cluster + CONNECT_SUFFIX + "-config";
    }

    /** @return {@code <cluster>-connect-api}: the service in front of KafkaConnect {@code cluster}'s REST API */
    public static String serviceName(String cluster) {
        return cluster + CONNECT_SUFFIX + "-api";
    }

    /** @return {@code <cluster>-connect-<ordinal>}: worker pod {@code ordinal} (from 0) of KafkaConnect {@code cluster} */
    public static String podName(String cluster, int ordinal) {
        return cluster + CONNECT_SUFFIX + "-" + ordinal;
    }

    /** @return the ordinal of a worker pod of {@code cluster} named by {@link #podName}, or null for any other name */
    public static Integer podOrdinal(String cluster, String podName) {
        String prefix = cluster + CONNECT_SUFFIX + "-";
        if (podName == null || !podName.startsWith(prefix)) {
            return null;
        }
        try {
            return Integer.parseInt(podName.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * @return the first 8 hex characters of the SHA-1 of {@code text} (UTF-8), e.g. of a worker configuration file, as
     *         Strimzi computes {@code strimzi.io/configuration-hash} and revisions
     */
    public static String sha1Prefix(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d).substring(0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java platform", e);
        }
    }
}
