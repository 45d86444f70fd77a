package dev.flowform.sim;

import dev.flowform.live.Fabric8ClusterReader;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.StrimziApi;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Set;

/**
 * Test helper: reads one KafkaConnect or KafkaConnector through the project's real reader, so the
 * simulator is checked with the same mapping and rules ({@code RollCheck}, {@code ConnectorCheck}) that
 * flowform applies.
 */
final class LiveMapper {
    private LiveMapper() {
    }

    /** @return the KafkaConnect {@code ns/name} with its PodSet, pods and ConfigMap, or null when absent */
    static LiveConnectCluster cluster(KubernetesClient client, StrimziApi api, String ns, String name) {
        LiveState live = read(client, api, ns);
        return live.cluster(ns, name).orElse(null);
    }

    /** @return the KafkaConnector {@code ns/name}, or null when absent */
    static LiveConnector connector(KubernetesClient client, StrimziApi api, String ns, String name) {
        return read(client, api, ns).connector(ns, name).orElse(null);
    }

    private static LiveState read(KubernetesClient client, StrimziApi api, String ns) {
        LiveState live = new Fabric8ClusterReader(client).read(Set.of(ns));
        if (live.api() != api) {
            throw new AssertionError("server serves " + live.api() + ", test expected " + api);
        }
        return live;
    }
}
