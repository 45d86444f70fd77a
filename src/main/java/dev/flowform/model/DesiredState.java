package dev.flowform.model;

import java.util.List;
import java.util.Optional;

/**
 * Everything one environment's configuration asks for.
 *
 * @param environment the selected environment name
 * @param clusters    Connect clusters, in address order
 * @param flows       replication flows, in address order
 * @param mirrorMakers KafkaMirrorMaker2 resources, in address order
 */
public record DesiredState(String environment, List<DesiredConnectCluster> clusters, List<DesiredFlow> flows,
                           List<DesiredMirrorMaker2> mirrorMakers) {

    /** A desired state without KafkaMirrorMaker2 resources. */
    public DesiredState(String environment, List<DesiredConnectCluster> clusters, List<DesiredFlow> flows) {
        this(environment, clusters, flows, List.of());
    }

    /** Copies the lists. */
    public DesiredState {
        clusters = List.copyOf(clusters);
        flows = List.copyOf(flows);
        mirrorMakers = List.copyOf(mirrorMakers);
    }

    /** @return the cluster named {@code name} in {@code namespace}, if declared */
    public Optional<DesiredConnectCluster> cluster(String namespace, String name) {
        return clusters.stream().filter(c -> c.name().equals(name) && c.namespace().equals(namespace)).findFirst();
    }

    /** @return the flows that run on the given cluster */
    public List<DesiredFlow> flowsOn(DesiredConnectCluster cluster) {
        return flows.stream()
                .filter(f -> f.connectCluster().equals(cluster.name()) && f.namespace().equals(cluster.namespace()))
                .toList();
    }
}
