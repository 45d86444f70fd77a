package dev.flowform.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster holds for the namespaces an environment touches, read in one pass.
 *
 * @param api          the Strimzi API version the server serves for KafkaConnect (v1 preferred), or null
 *                     when the Strimzi CRDs are not installed
 * @param server       the API server URL the objects came from (for the cluster identity guard)
 * @param clusters     every KafkaConnect in those namespaces
 * @param connectors   every KafkaConnector in those namespaces
 * @param fingerprints object key ({@code Kind ns/name}) to a content fingerprint, for stale-plan checks
 * @param mirrorMakers every KafkaMirrorMaker2 in those namespaces
 * @param kafkaUsers   every KafkaUser in those namespaces; null when they were not read (the API serves no KafkaUser:
 *                     Strimzi's User Operator and its CRD are not installed)
 */
public record LiveState(
        StrimziApi api,
        String server,
        List<LiveConnectCluster> clusters,
        List<LiveConnector> connectors,
        Map<String, String> fingerprints,
        List<LiveMirrorMaker2> mirrorMakers,
        List<LiveKafkaUser> kafkaUsers) {

    /** A live state without KafkaMirrorMaker2 resources, KafkaUsers not read. */
    public LiveState(StrimziApi api, String server, List<LiveConnectCluster> clusters, List<LiveConnector> connectors,
                     Map<String, String> fingerprints) {
        this(api, server, clusters, connectors, fingerprints, List.of(), null);
    }

    /** A live state whose KafkaUsers were not read. */
    public LiveState(StrimziApi api, String server, List<LiveConnectCluster> clusters, List<LiveConnector> connectors,
                     Map<String, String> fingerprints, List<LiveMirrorMaker2> mirrorMakers) {
        this(api, server, clusters, connectors, fingerprints, mirrorMakers, null);
    }

    /** Copies the lists into indexed immutable lists, so the look-ups below take constant time. */
    public LiveState {
        clusters = new LiveIndex<>(clusters, c -> key(c.namespace(), c.name()), c -> null);
        connectors = new LiveIndex<>(connectors, c -> key(c.namespace(), c.name()),
                c -> c.connectCluster() == null ? null : key(c.namespace(), c.connectCluster()));
        fingerprints = Maps.sorted(fingerprints);
        mirrorMakers = List.copyOf(mirrorMakers);
        kafkaUsers = kafkaUsers == null ? null : List.copyOf(kafkaUsers);
    }

    /** @return a copy holding these KafkaUsers (null: not read) */
    public LiveState withKafkaUsers(List<LiveKafkaUser> users) {
        return new LiveState(api, server, clusters, connectors, fingerprints, mirrorMakers, users);
    }

    /** @return the KafkaUser {@code namespace/name}, if KafkaUsers were read and it exists */
    public Optional<LiveKafkaUser> kafkaUser(String namespace, String name) {
        return kafkaUsers == null ? Optional.empty() : kafkaUsers.stream()
                .filter(u -> u.namespace().equals(namespace) && u.name().equals(name)).findFirst();
    }

    /** @return an empty live state (nothing installed), for tests */
    public static LiveState empty(StrimziApi api) {
        return new LiveState(api, null, List.of(), List.of(), Map.of());
    }

    /** @return the KafkaConnect {@code namespace/name}, if it exists */
    public Optional<LiveConnectCluster> cluster(String namespace, String name) {
        return Optional.ofNullable(index(clusters).byKey(key(namespace, name)));
    }

    /** @return the KafkaMirrorMaker2 {@code namespace/name}, if it exists */
    public Optional<LiveMirrorMaker2> mirrorMaker(String namespace, String name) {
        return mirrorMakers.stream().filter(m -> m.namespace().equals(namespace) && m.name().equals(name)).findFirst();
    }

    /** @return the KafkaConnector {@code namespace/name}, if it exists */
    public Optional<LiveConnector> connector(String namespace, String name) {
        return Optional.ofNullable(index(connectors).byKey(key(namespace, name)));
    }

    /**
     * @return the whole object {@code namespace/name} of {@code kind} ({@code KafkaConnect}, {@code KafkaConnector} or
     *         {@code KafkaMirrorMaker2}) as read, as JSON-like maps, if it exists; empty for any other kind
     */
    public Optional<Map<String, Object>> body(String kind, String namespace, String name) {
        return switch (kind) {
            case "KafkaConnect" -> cluster(namespace, name).map(LiveConnectCluster::raw);
            case "KafkaConnector" -> connector(namespace, name).map(LiveConnector::raw);
            case "KafkaMirrorMaker2" -> mirrorMaker(namespace, name).map(m -> m.workers().raw());
            default -> Optional.empty();
        };
    }

    /** @return the connectors labelled for the KafkaConnect {@code namespace/cluster} */
    public List<LiveConnector> connectorsOf(String namespace, String cluster) {
        return index(connectors).byGroup(key(namespace, cluster));
    }

    /** The canonical constructor puts a {@link LiveIndex} into both list components. */
    @SuppressWarnings("unchecked")
    private static <T> LiveIndex<T> index(List<T> list) {
        return (LiveIndex<T>) list;
    }

    private static String key(String namespace, String name) {
        return namespace + "/" + name;
    }
}
