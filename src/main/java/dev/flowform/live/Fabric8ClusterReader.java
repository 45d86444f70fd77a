package dev.flowform.live;

import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.StrimziApi;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads KafkaConnects, KafkaConnectors, StrimziPodSets, Connect worker pods and Connect config maps
 * with fabric8: per namespace one list request per kind (5 requests), plus 2 discovery requests.
 */
public final class Fabric8ClusterReader implements ClusterReader {

    /** Label selecting Connect worker pods, their PodSet and config map (Strimzi Labels). */
    public static final String KIND_LABEL = "strimzi.io/kind";

    private final KubernetesClient client;

    /** @param client a client for the target API server */
    public Fabric8ClusterReader(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public LiveState read(Set<String> namespaces) {
        StrimziApi api = StrimziResources.detect(client, StrimziApi.KAFKA_GROUP, "KafkaConnect");
        String server = client.getMasterUrl() == null ? null : client.getMasterUrl().toString();
        if (api == null) {
            return new LiveState(null, server, List.of(), List.of(), Map.of());
        }
        StrimziApi podSetApi = StrimziResources.detect(client, StrimziApi.CORE_GROUP, "StrimziPodSet");
        List<LiveConnectCluster> clusters = new ArrayList<>();
        List<LiveConnector> connectors = new ArrayList<>();
        Map<String, String> fingerprints = new TreeMap<>();
        for (String ns : new TreeSet<>(namespaces)) {
            List<GenericKubernetesResource> kcs = client.genericKubernetesResources(StrimziResources.kafkaConnect(api))
                    .inNamespace(ns).list().getItems();
            List<GenericKubernetesResource> kctrs = client.genericKubernetesResources(StrimziResources.kafkaConnector(api))
                    .inNamespace(ns).list().getItems();
            Map<String, GenericKubernetesResource> podSets = new HashMap<>();
            if (podSetApi != null) {
                for (GenericKubernetesResource ps : client.genericKubernetesResources(StrimziResources.podSet(podSetApi))
                        .inNamespace(ns).withLabel(KIND_LABEL, "KafkaConnect").list().getItems()) {
                    podSets.put(ps.getMetadata().getName(), ps);
                }
            }
            Map<String, List<Pod>> pods = new HashMap<>();
            for (Pod p : client.pods().inNamespace(ns).withLabel(KIND_LABEL, "KafkaConnect").list().getItems()) {
                String cluster = p.getMetadata().getLabels().get("strimzi.io/cluster");
                pods.computeIfAbsent(cluster, k -> new ArrayList<>()).add(p);
            }
            Map<String, ConfigMap> configMaps = new HashMap<>();
            for (ConfigMap cm : client.configMaps().inNamespace(ns).withLabel(KIND_LABEL, "KafkaConnect").list().getItems()) {
                configMaps.put(cm.getMetadata().getName(), cm);
            }
            for (GenericKubernetesResource kc : kcs) {
                String name = kc.getMetadata().getName();
                clusters.add(LiveMapper.connectCluster(kc, podSets.get(name + "-connect"),
                        pods.getOrDefault(name, List.of()), configMaps.get(name + "-connect-config")));
                fingerprints.put(LiveMapper.key(kc), LiveMapper.fingerprint(kc));
            }
            for (GenericKubernetesResource c : kctrs) {
                connectors.add(LiveMapper.connector(c));
                fingerprints.put(LiveMapper.key(c), LiveMapper.fingerprint(c));
            }
        }
        return new LiveState(api, server, clusters, connectors, fingerprints);
    }
}
