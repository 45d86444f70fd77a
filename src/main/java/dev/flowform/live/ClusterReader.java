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
}
