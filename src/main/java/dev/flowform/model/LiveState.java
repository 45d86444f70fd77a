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
 */
public record LiveState(
        StrimziApi api,
        String server,
        List<LiveConnectCluster> clusters,
        List<LiveConnector> connectors,
        Map<String, String> fingerprints) {

    public LiveState {
        clusters = List.copyOf(clusters);
        connectors = List.copyOf(connectors);
        fingerprints = Maps.sorted(fingerprints);
    }

    /** @return an empty live state (nothing installed), for tests */
    public static LiveState empty(StrimziApi api) {
        return new LiveState(api, null, List.of(), List.of(), Map.of());
    }

    /** @return the KafkaConnect {@code namespace/name}, if it exists */
    public Optional<LiveConnectCluster> cluster(String namespace, String name) {
        return clusters.stream().filter(c -> c.name().equals(name) && c.namespace().equals(namespace)).findFirst();
    }

    /** @return the KafkaConnector {@code namespace/name}, if it exists */
    public Optional<LiveConnector> connector(String namespace, String name) {
        return connectors.stream().filter(c -> c.name().equals(name) && c.namespace().equals(namespace)).findFirst();
    }

    /** @return the connectors labelled for the KafkaConnect {@code namespace/cluster} */
    public List<LiveConnector> connectorsOf(String namespace, String cluster) {
        return connectors.stream()
                .filter(c -> c.namespace().equals(namespace) && cluster.equals(c.connectCluster()))
                .toList();
    }
}
