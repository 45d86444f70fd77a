package dev.flowform.live;

import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveKafkaUser;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.LiveState;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Reads KafkaConnects, KafkaConnectors, StrimziPodSets, Connect worker pods, Connect config maps and KafkaUsers
 * with fabric8: per namespace one list request per kind (6 requests; 5 when the API serves no KafkaUser), plus 3
 * discovery requests, sent concurrently.
 */
public final class Fabric8ClusterReader implements ClusterReader {

    /** Requests in flight at once at most (kubectl's client-side default QPS is 5, burst 10). */
    public static final int MAX_CONCURRENT_REQUESTS = 8;

    private final KubernetesClient client;

    /** @param client a client for the target API server */
    public Fabric8ClusterReader(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Reads the objects of {@code namespaces}. The list requests (6 per namespace) and the three discovery requests
     * are sent concurrently, at most {@value #MAX_CONCURRENT_REQUESTS} at a time, so the answer of one list is
     * decoded while the API server prepares the next; the result does not depend on the order they arrive in.
     *
     * @param namespaces namespaces to read
     * @return the live state, clusters and connectors in namespace then list order
     * @throws io.fabric8.kubernetes.client.KubernetesClientException as fabric8 raised it, when a request fails
     */
    @Override
    public LiveState read(Set<String> namespaces) {
        return read(namespaces, Set.of());
    }

    /**
     * As {@link #read(Set)}, plus one discovery request for KafkaMirrorMaker2 and four lists per namespace of
     * {@code mirrorMakerNamespaces} (resources, PodSets, pods and ConfigMaps labelled {@code strimzi.io/kind=KafkaMirrorMaker2}).
     */
    @Override
    public LiveState read(Set<String> namespaces, Set<String> mirrorMakerNamespaces) {
        String server = client.getMasterUrl() == null ? null : client.getMasterUrl().toString();
        Set<String> all = new TreeSet<>(namespaces);
        all.addAll(mirrorMakerNamespaces);
        List<String> ordered = new ArrayList<>(all);
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(MAX_CONCURRENT_REQUESTS, 3 + 6 * ordered.size())),
                r -> {
                    Thread t = new Thread(r, "flowform-read");
                    t.setDaemon(true);
                    return t;
                });
        try {
            Future<StrimziApi> apiF = pool.submit(() -> StrimziResources.detect(client, StrimziApi.KAFKA_GROUP, "KafkaConnect"));
            Future<StrimziApi> podSetApiF = pool.submit(() -> StrimziResources.detect(client, StrimziApi.CORE_GROUP,
                    "StrimziPodSet"));
            Future<StrimziApi> userApiF = pool.submit(() -> StrimziResources.detect(client, StrimziApi.KAFKA_GROUP,
                    LiveKafkaUser.KIND));
            StrimziApi api = await(apiF);
            if (api == null) {
                podSetApiF.cancel(true);
                userApiF.cancel(true);
                return new LiveState(null, server, List.of(), List.of(), Map.of());
            }
            StrimziApi podSetApi = await(podSetApiF);
            List<Supplier<Namespace>> reads = new ArrayList<>();
            for (String ns : ordered) {
                reads.add(readNamespace(pool, api, podSetApi, ns));
            }
            Map<String, String> fingerprints = new TreeMap<>();
            List<Supplier<List<LiveMirrorMaker2>>> mm2Reads = mirrorMakerReads(pool, podSetApi, mirrorMakerNamespaces,
                    fingerprints);
            Supplier<List<LiveKafkaUser>> users = readUsers(pool, await(userApiF), ordered);
            List<LiveConnectCluster> clusters = new ArrayList<>();
            List<LiveConnector> connectors = new ArrayList<>();
            for (Supplier<Namespace> read : reads) {
                Namespace n = read.get();
                for (GenericKubernetesResource kc : n.kcs()) {
                    String name = kc.getMetadata().getName();
                    clusters.add(LiveMapper.connectCluster(kc, n.podSets().get(Strimzi.podSetName(name)),
                            n.pods().getOrDefault(name, List.of()), n.configMaps().get(Strimzi.configMapName(name))));
                    fingerprints.put(LiveMapper.key(kc), LiveMapper.fingerprint(kc));
                }
                for (GenericKubernetesResource c : n.kctrs()) {
                    connectors.add(LiveMapper.connector(c));
                    fingerprints.put(LiveMapper.key(c), LiveMapper.fingerprint(c));
                }
            }
            List<LiveMirrorMaker2> mirrorMakers = new ArrayList<>();
            mm2Reads.forEach(r -> mirrorMakers.addAll(r.get()));
            return new LiveState(api, server, clusters, connectors, fingerprints, mirrorMakers, users.get());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Sends one KafkaUser list per namespace to the pool (the principals' ACLs, docs/domain-rules.md rule 10).
     *
     * @return a supplier of every KafkaUser of {@code namespaces}; it supplies null when the API serves no KafkaUser
     */
    private Supplier<List<LiveKafkaUser>> readUsers(ExecutorService pool, StrimziApi userApi, List<String> namespaces) {
        if (userApi == null) {
            return () -> null;
        }
        List<Future<List<GenericKubernetesResource>>> lists = new ArrayList<>();
        for (String ns : namespaces) {
            lists.add(pool.submit(() -> client.genericKubernetesResources(StrimziResources.kafkaUser(userApi))
                    .inNamespace(ns).list().getItems()));
        }
        return () -> {
            List<LiveKafkaUser> out = new ArrayList<>();
            lists.forEach(f -> await(f).forEach(u -> out.add(LiveMapper.kafkaUser(u))));
            return out;
        };
    }

    /** What one namespace holds. */
    private record Namespace(List<GenericKubernetesResource> kcs, List<GenericKubernetesResource> kctrs,
                             Map<String, GenericKubernetesResource> podSets, Map<String, List<GenericKubernetesResource>> pods,
                             Map<String, GenericKubernetesResource> configMaps) {
    }

    /** Sends the namespace's five lists to the pool; the returned supplier waits for their answers. */
    private Supplier<Namespace> readNamespace(ExecutorService pool, StrimziApi api, StrimziApi podSetApi, String ns) {
        String kind = Strimzi.KAFKA_CONNECT_KIND;
        Future<List<GenericKubernetesResource>> kcs = list(pool, StrimziResources.kafkaConnect(api), ns, null);
        Future<List<GenericKubernetesResource>> kctrs = list(pool, StrimziResources.kafkaConnector(api), ns, null);
        Future<List<GenericKubernetesResource>> podSets = podSetApi == null ? CompletableFuture.completedFuture(List.of())
                : list(pool, StrimziResources.podSet(podSetApi), ns, kind);
        Future<List<GenericKubernetesResource>> pods = list(pool, CoreResources.PODS, ns, kind);
        Future<List<GenericKubernetesResource>> configMaps = list(pool, CoreResources.CONFIG_MAPS, ns, kind);
        return () -> {
            Map<String, List<GenericKubernetesResource>> podsByCluster = new HashMap<>();
            for (GenericKubernetesResource p : await(pods)) {
                String cluster = p.getMetadata().getLabels().get(Strimzi.CLUSTER_LABEL);
                podsByCluster.computeIfAbsent(cluster, k -> new ArrayList<>()).add(p);
            }
            return new Namespace(await(kcs), await(kctrs), byName(await(podSets)), podsByCluster, byName(await(configMaps)));
        };
    }

    /** @return the reads of the KafkaMirrorMaker2 namespaces, none when there are none or the server serves no such kind */
    private List<Supplier<List<LiveMirrorMaker2>>> mirrorMakerReads(ExecutorService pool, StrimziApi podSetApi,
                                                                    Set<String> namespaces, Map<String, String> fingerprints) {
        StrimziApi mm2Api = namespaces.isEmpty() ? null
                : StrimziResources.detect(client, StrimziApi.KAFKA_GROUP, Strimzi.KAFKA_MIRROR_MAKER_2_KIND);
        List<Supplier<List<LiveMirrorMaker2>>> out = new ArrayList<>();
        if (mm2Api != null) {
            for (String ns : new TreeSet<>(namespaces)) {
                out.add(readMirrorMakers(pool, mm2Api, podSetApi, ns, fingerprints));
            }
        }
        return out;
    }

    /**
     * Sends the four lists of a namespace's KafkaMirrorMaker2 objects (resources, PodSets, pods, ConfigMaps labelled
     * {@code strimzi.io/kind=KafkaMirrorMaker2}) to the pool; the returned supplier waits for them.
     */
    private Supplier<List<LiveMirrorMaker2>> readMirrorMakers(ExecutorService pool, StrimziApi api, StrimziApi podSetApi,
                                                              String ns, Map<String, String> fingerprints) {
        String kind = Strimzi.KAFKA_MIRROR_MAKER_2_KIND;
        Future<List<GenericKubernetesResource>> mm2s = list(pool, StrimziResources.kafkaMirrorMaker2(api), ns, null);
        Future<List<GenericKubernetesResource>> podSets = podSetApi == null ? CompletableFuture.completedFuture(List.of())
                : list(pool, StrimziResources.podSet(podSetApi), ns, kind);
        Future<List<GenericKubernetesResource>> pods = list(pool, CoreResources.PODS, ns, kind);
        Future<List<GenericKubernetesResource>> configMaps = list(pool, CoreResources.CONFIG_MAPS, ns, kind);
        return () -> {
            List<LiveMirrorMaker2> out = new ArrayList<>();
            for (GenericKubernetesResource m : await(mm2s)) {
                String name = m.getMetadata().getName();
                List<GenericKubernetesResource> own = await(pods).stream()
                        .filter(p -> name.equals(p.getMetadata().getLabels().get(Strimzi.CLUSTER_LABEL))).toList();
                out.add(LiveMapper.mirrorMaker(m, byName(await(podSets)).get(MirrorMaker2Names.podSetName(name)), own,
                        byName(await(configMaps)).get(MirrorMaker2Names.configMapName(name))));
                fingerprints.put(LiveMapper.key(m), LiveMapper.fingerprint(m));
            }
            return out;
        };
    }

    /**
     * @return the future's value; what the task threw is rethrown as it was (a KubernetesClientException stays one)
     * @throws KubernetesClientException when the waiting thread is interrupted (the thread's flag is set again)
     */
    /** @return the objects of {@code resource} in {@code ns}, only those labelled {@code strimzi.io/kind=kind} unless null */
    private Future<List<GenericKubernetesResource>> list(ExecutorService pool, ResourceDefinitionContext resource, String ns,
                                                         String kind) {
        return pool.submit(() -> (kind == null ? client.genericKubernetesResources(resource).inNamespace(ns)
                : client.genericKubernetesResources(resource).inNamespace(ns).withLabel(Strimzi.KIND_LABEL, kind))
                .list().getItems());
    }

    private static Map<String, GenericKubernetesResource> byName(List<GenericKubernetesResource> objects) {
        Map<String, GenericKubernetesResource> out = new HashMap<>();
        objects.forEach(o -> out.put(o.getMetadata().getName(), o));
        return out;
    }

    private static <T> T await(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted while reading the cluster", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new KubernetesClientException(String.valueOf(e.getCause()), e.getCause());
        }
    }
}
