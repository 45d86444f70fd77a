package dev.flowform.bench;

import dev.flowform.plan.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Generates what the benchmarks run on: a seed for the embedded cluster with {@code clusters} Strimzi
 * (v1beta2) Connect clusters of 3 Ready workers, each running {@code flows} MirrorMaker 2 flows of three
 * KafkaConnectors (source, checkpoint, heartbeat) without exactly-once, spread over {@code namespaces}
 * namespaces; and the flowform configuration that adopts them all and asks for exactly-once.
 *
 * <p>Cluster {@code i} is {@code c<i>} in namespace {@code ns<i % namespaces>}; its flows are
 * {@code c<i>-f<j>}, whose connectors are {@code c<i>-f<j>-source} and so on.
 *
 * @param clusters   number of Connect clusters
 * @param flows      flows per cluster
 * @param namespaces number of namespaces
 */
public record Fixtures(int clusters, int flows, int namespaces) {

    /** Workers per Connect cluster. */
    public static final int WORKERS = 3;
    /** The environment name of generated configurations. */
    public static final String ENVIRONMENT = "bench";
    private static final String KAFKA = "kafka.strimzi.io/v1beta2";
    private static final String CORE = "core.strimzi.io/v1beta2";
    private static final String REVISION = "0a1b2c3d";
    private static final String TIME = "2026-01-01T00:00:00.000Z";

    /** @return the name of cluster {@code i} */
    public static String cluster(int i) {
        return "c" + i;
    }

    /** @return the namespace of cluster {@code i} */
    public String namespace(int i) {
        return "ns" + (i % namespaces);
    }

    /** @return how many objects {@link #objects()} makes */
    public int objectCount() {
        return clusters * (2 + WORKERS + 3 * flows);
    }

    /** @return every seed object as a JSON-like map, in creation order per cluster */
    public List<Map<String, Object>> objects() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < clusters; i++) {
            String name = cluster(i);
            String ns = namespace(i);
            out.add(kafkaConnect(name, ns));
            out.add(podSet(name, ns));
            for (int w = 0; w < WORKERS; w++) {
                out.add(pod(name, ns, w, i));
            }
            for (int f = 0; f < flows; f++) {
                String flow = name + "-f" + f;
                out.add(connector(name, ns, flow + "-source", "MirrorSourceConnector", 4, i));
                out.add(connector(name, ns, flow + "-checkpoint", "MirrorCheckpointConnector", 1, i));
                out.add(connector(name, ns, flow + "-heartbeat", "MirrorHeartbeatConnector", 1, i));
            }
        }
        return out;
    }

    /**
     * Writes the seed into {@code dir}: one YAML file per cluster, each a JSON {@code List} (valid YAML; one file per
     * cluster keeps every document under the YAML parser's 3 MB limit).
     *
     * @param dir the seed folder, created when missing
     * @return {@code dir}
     */
    public Path writeSeed(Path dir) {
        List<Map<String, Object>> all = objects();
        int perCluster = all.size() / Math.max(1, clusters);
        for (int i = 0; i < clusters; i++) {
            Map<String, Object> list = new LinkedHashMap<>();
            list.put("apiVersion", "v1");
            list.put("kind", "List");
            list.put("items", all.subList(i * perCluster, (i + 1) * perCluster));
            write(dir.resolve(String.format("c%05d.yaml", i)), Json.MAPPER.writeValueAsString(list));
        }
        return dir;
    }

    /**
     * Writes {@code main.flow.json}: environment {@value #ENVIRONMENT} on {@code kubeconfig}, every cluster and flow
     * adopted, exactly-once on.
     *
     * @param dir        the configuration folder, created when missing
     * @param kubeconfig the kubeconfig of the embedded cluster
     * @return {@code dir}
     */
    public Path writeConfig(Path dir, Path kubeconfig) {
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> k8s = new LinkedHashMap<>();
        k8s.put("kubeconfig", kubeconfig.toAbsolutePath().toString());
        k8s.put("context", dev.flowform.sim.EmbeddedCluster.CONTEXT);
        root.put("environment", Map.of(ENVIRONMENT, Map.of("kubernetes", k8s, "namespace", namespace(0))));
        Map<String, Object> connect = new LinkedHashMap<>();
        Map<String, Object> flowBlocks = new LinkedHashMap<>();
        for (int i = 0; i < clusters; i++) {
            String name = cluster(i);
            connect.put(name, Map.of("manage", "adopt", "namespace", namespace(i)));
            for (int f = 0; f < flows; f++) {
                Map<String, Object> flow = new LinkedHashMap<>();
                flow.put("manage", "adopt");
                flow.put("connect_cluster", name);
                flow.put("source", Map.of("alias", "dc1"));
                flow.put("target", Map.of("alias", "dc2"));
                flow.put("heartbeats", true);
                flow.put("exactly_once", true);
                flowBlocks.put(name + "-f" + f, flow);
            }
        }
        root.put("connect_cluster", connect);
        root.put("replication_flow", flowBlocks);
        write(dir.resolve("main.flow.json"), Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        return dir;
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> meta(String name, String ns, Map<String, String> labels) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("namespace", ns);
        m.put("generation", 1);
        if (labels != null) {
            m.put("labels", labels);
        }
        return m;
    }

    private static Map<String, Object> object(String apiVersion, String kind, Map<String, Object> metadata) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("apiVersion", apiVersion);
        o.put("kind", kind);
        o.put("metadata", metadata);
        return o;
    }

    private static Map<String, String> selector(String name) {
        Map<String, String> l = new LinkedHashMap<>();
        l.put("strimzi.io/cluster", name);
        l.put("strimzi.io/kind", "KafkaConnect");
        l.put("strimzi.io/name", name + "-connect");
        return l;
    }

    private static Map<String, Object> workerConfig(String name) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("group.id", name);
        c.put("offset.storage.topic", name + "-offsets");
        c.put("config.storage.topic", name + "-configs");
        c.put("status.storage.topic", name + "-status");
        c.put("config.storage.replication.factor", 3);
        c.put("offset.storage.replication.factor", 3);
        c.put("status.storage.replication.factor", 3);
        c.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        c.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        return c;
    }

    private static String workerProperties(String name) {
        StringBuilder sb = new StringBuilder();
        workerConfig(name).forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        return sb.toString();
    }

    private static Map<String, Object> condition(String type) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", "True");
        c.put("lastTransitionTime", TIME);
        return c;
    }

    private static Map<String, Object> kafkaConnect(String name, String ns) {
        Map<String, Object> metadata = meta(name, ns, Map.of("app.kubernetes.io/part-of", "replication"));
        metadata.put("annotations", Map.of("strimzi.io/use-connector-resources", "true"));
        Map<String, Object> kc = object(KAFKA, "KafkaConnect", metadata);
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("version", "3.9.0");
        spec.put("replicas", WORKERS);
        spec.put("bootstrapServers", "dc2-kafka-bootstrap.kafka-dc2.svc:9093");
        spec.put("config", workerConfig(name));
        kc.put("spec", spec);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("observedGeneration", 1);
        status.put("conditions", List.of(condition("Ready")));
        status.put("url", "http://" + name + "-connect-api." + ns + ".svc:8083");
        status.put("replicas", WORKERS);
        status.put("labelSelector", "strimzi.io/cluster=" + name + ",strimzi.io/name=" + name
                + "-connect,strimzi.io/kind=KafkaConnect");
        List<Object> plugins = new ArrayList<>();
        for (String cls : List.of("MirrorCheckpointConnector", "MirrorHeartbeatConnector", "MirrorSourceConnector")) {
            plugins.add(Map.of("class", "org.apache.kafka.connect.mirror." + cls, "type", "source", "version", "3.9.0"));
        }
        status.put("connectorPlugins", plugins);
        kc.put("status", status);
        return kc;
    }

    private static Map<String, Object> podSet(String name, String ns) {
        Map<String, Object> ps = object(CORE, "StrimziPodSet", meta(name + "-connect", ns, selector(name)));
        List<Object> pods = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name + "-connect-" + w);
            m.put("annotations", Map.of("strimzi.io/revision", REVISION));
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("apiVersion", "v1");
            p.put("kind", "Pod");
            p.put("metadata", m);
            pods.add(p);
        }
        ps.put("spec", Map.of("selector", Map.of("matchLabels", selector(name)), "pods", pods));
        ps.put("status", Map.of("observedGeneration", 1, "pods", WORKERS, "readyPods", WORKERS, "currentPods", WORKERS));
        return ps;
    }

    private static String ip(int cluster, int worker) {
        int n = cluster * WORKERS + worker;
        return "10.44." + (n / 250) + "." + (n % 250 + 2);
    }

    private static Map<String, Object> pod(String name, String ns, int w, int cluster) {
        String podName = name + "-connect-" + w;
        Map<String, String> labels = new LinkedHashMap<>(selector(name));
        labels.put("strimzi.io/pod-name", podName);
        labels.put("strimzi.io/controller", "strimzipodset");
        labels.put("strimzi.io/controller-name", name + "-connect");
        Map<String, Object> metadata = meta(podName, ns, labels);
        metadata.remove("generation");
        metadata.put("annotations", Map.of("strimzi.io/revision", REVISION));
        Map<String, Object> pod = object("v1", "Pod", metadata);
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", name + "-connect");
        container.put("image", "quay.io/strimzi/kafka:0.45.0-kafka-3.9.0");
        container.put("env", List.of(
                Map.of("name", "KAFKA_CONNECT_BOOTSTRAP_SERVERS", "value", "dc2-kafka-bootstrap.kafka-dc2.svc:9093"),
                Map.of("name", "KAFKA_CONNECT_CONFIGURATION", "value", workerProperties(name))));
        pod.put("spec", Map.of("hostname", podName, "subdomain", name + "-connect", "containers", List.of(container)));
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("phase", "Running");
        status.put("podIP", ip(cluster, w));
        status.put("conditions", List.of(condition("Initialized"), condition("Ready"), condition("ContainersReady"),
                condition("PodScheduled")));
        status.put("containerStatuses", List.of(Map.of("name", name + "-connect", "ready", true, "restartCount", 0,
                "started", true)));
        pod.put("status", status);
        return pod;
    }

    private static Map<String, Object> connector(String cluster, String ns, String name, String cls, int tasks, int index) {
        Map<String, Object> c = object(KAFKA, "KafkaConnector", meta(name, ns, Map.of("strimzi.io/cluster", cluster)));
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("source.cluster.alias", "dc1");
        config.put("target.cluster.alias", "dc2");
        config.put("source.cluster.bootstrap.servers", "dc1-kafka-bootstrap.kafka-dc1.svc:9093");
        config.put("target.cluster.bootstrap.servers", "dc2-kafka-bootstrap.kafka-dc2.svc:9093");
        config.put("replication.factor", 3);
        config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        if (cls.equals("MirrorSourceConnector")) {
            config.put("topics", "orders\\..*|payments\\..*");
            config.put("offset-syncs.topic.location", "target");
        } else if (cls.equals("MirrorCheckpointConnector")) {
            config.put("groups", ".*");
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("class", "org.apache.kafka.connect.mirror." + cls);
        spec.put("tasksMax", tasks);
        spec.put("state", "running");
        spec.put("config", config);
        c.put("spec", spec);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("observedGeneration", 1);
        status.put("conditions", List.of(condition("Ready")));
        status.put("tasksMax", tasks);
        List<Object> taskList = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            taskList.add(Map.of("id", t, "state", "RUNNING", "worker_id", ip(index, t % WORKERS) + ":8083"));
        }
        Map<String, Object> cs = new LinkedHashMap<>();
        cs.put("name", name);
        cs.put("type", "source");
        cs.put("connector", Map.of("state", "RUNNING", "worker_id", ip(index, 0) + ":8083"));
        cs.put("tasks", taskList);
        status.put("connectorStatus", cs);
        c.put("status", status);
        return c;
    }
}
