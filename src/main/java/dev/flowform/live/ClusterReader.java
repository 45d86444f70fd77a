package dev.flowform.live;

import dev.flowform.model.LiveState;
import java.util.Set;

/** Port: reads the live state of the namespaces an environment touches. */
public interface ClusterReader {
    /**
     * @param namespaces the namespaces to read
     * @return one consistent-enough snapshot (one list request per kind and namespace)
     * @throws io.fabric8.kubernetes.client.KubernetesClientException when the API server cannot be reached
     *         or refuses (the CLI turns it into a located-as-possible error)
     */
    LiveState read(Set<String> namespaces);

    /**
     * Reads the namespaces, and the KafkaMirrorMaker2 resources (with their PodSets, pods and ConfigMaps) of
     * {@code mirrorMakerNamespaces} when the server serves the kind.
     *
     * @param namespaces            the namespaces of Connect clusters and connectors
     * @param mirrorMakerNamespaces the namespaces of KafkaMirrorMaker2 resources to read; empty reads none
     * @return the snapshot
     * @throws io.fabric8.kubernetes.client.KubernetesClientException as {@link #read(Set)}
     */
    default LiveState read(Set<String> namespaces, Set<String> mirrorMakerNamespaces) {
        return read(namespaces);
    }
}
