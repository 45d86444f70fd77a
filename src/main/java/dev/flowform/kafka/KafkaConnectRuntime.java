package dev.flowform.kafka;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.connect.ConnectRuntimeException;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.connect.WorkerSpec;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Real Kafka Connect behind the embedded cluster: one distributed worker process per worker pod against
 * {@link KafkaClusters}, every call a REST call to a live worker, so errors, task states and transactions are
 * Kafka's own. Workers get the operator's properties with only what a single-node, in-process setup needs changed
 * (REST port, plugins on the class path, replication factor 1, faster group timings); none touches exactly-once.
 * A worker whose {@code security.protocol} is {@code SASL_*} reaches a secured cluster on its SASL listener
 * (docs/real-kafka.md).
 */
public final class KafkaConnectRuntime implements ConnectRuntime {
    /** Connector keys naming a replication factor of a topic MirrorMaker 2 creates; single-node clusters need 1. */
    private static final List<String> CONNECTOR_REPLICATION_KEYS = List.of("replication.factor",
            "offset-syncs.topic.replication.factor", "checkpoints.topic.replication.factor",
            "heartbeats.topic.replication.factor");
    /**
     * How often an at-least-once source task commits its offsets, in milliseconds (Kafka's default: 60,000).
     * Shorter than the default so a test can wait for a commit; long enough that a crash almost never lands
     * right after one, which would hide the duplicates that at-least-once delivery produces. Exactly-once tasks
     * commit offsets in their transactions and ignore it.
     */
    public static final long OFFSET_FLUSH_INTERVAL_MS = 10_000;
    /** Kafka Connect's message when a follower could not forward a request to the leader. */
    static final String FORWARD_IO_ERROR = "IO Error trying to forward REST request";
    /** How long a REST call is retried while the group rebalances (409) or the chosen worker went away. */
    private static final long RETRY_MS = 20_000;

    private final KafkaClusters clusters;
    private final Path dir;
    private final String classPath;
    private final boolean ownsClusters;
    private final Map<String, WorkerProcess> workers = new ConcurrentHashMap<>();
    private final Map<String, String> clusterOf = new ConcurrentHashMap<>();
    private final Map<String, Integer> ports = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * @param clusters     the embedded Kafka clusters
     * @param dir          folder for worker properties and logs ({@code <namespace>_<pod>.log})
     * @param ownsClusters true to stop {@code clusters} on {@link #close()}
     */
    public KafkaConnectRuntime(KafkaClusters clusters, Path dir, boolean ownsClusters) {
        this.clusters = clusters;
        this.dir = dir;
        this.ownsClusters = ownsClusters;
        this.classPath = childClassPath();
    }

    /** @return the embedded Kafka clusters */
    public KafkaClusters clusters() {
        return clusters;
    }

    /** @return the folder holding the workers' properties and logs */
    public Path dir() {
        return dir;
    }

    @Override
    public void startWorker(WorkerSpec worker) {
        stopWorker(worker.pod(), false);
        int port = ports.computeIfAbsent(worker.pod(), p -> {
            try {
                return KafkaBroker.freePort();
            } catch (IOException e) {
                throw new ConnectRuntimeException("no free port for the worker of pod " + p, e);
            }
        });
        try {
            WorkerProcess w = WorkerProcess.launch(worker.pod(), port, workerProperties(worker.properties(), port), dir,
                    classPath);
            workers.put(worker.pod(), w);
            clusterOf.put(worker.pod(), worker.cluster());
        } catch (IOException e) {
            throw new ConnectRuntimeException("the worker of pod " + worker.pod() + " could not be launched: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public boolean healthy(String pod) {
        WorkerProcess w = workers.get(pod);
        return w != null && w.alive() && new ConnectRest(w.restPort()).healthy();
    }

    @Override
    public void stopWorker(String pod, boolean kill) {
        WorkerProcess w = workers.remove(pod);
        if (w != null) {
            w.stop(kill);
        }
    }

    /**
     * Sends a signal to the worker process of a pod.
     *
     * @param pod    {@code namespace/podName}
     * @param signal the signal's name for {@code kill -s}: {@code STOP} freezes the worker, {@code CONT} thaws it
     * @throws IllegalStateException when the pod has no running worker or {@code kill} fails
     */
    public void signal(String pod, String signal) {
        WorkerProcess w = workers.get(pod);
        if (w == null || !w.alive()) {
            throw new IllegalStateException("pod " + pod + " has no running worker to send SIG" + signal + " to");
        }
        w.signal(signal);
    }

    /**
     * The pods whose worker process runs, for one Connect cluster.
     *
     * @param cluster {@code namespace/KafkaConnect name}
     * @return pod keys ({@code namespace/podName}), sorted
     */
    public List<String> workerPods(String cluster) {
        return workers.keySet().stream().filter(p -> cluster.equals(clusterOf.get(p))).sorted().toList();
    }

    /**
     * @param pod {@code namespace/podName}
     * @return the worker id Kafka Connect reports for that pod's worker ({@code 127.0.0.1:<port>}), or null
     */
    public String workerId(String pod) {
        Integer port = ports.get(pod);
        return port == null ? null : "127.0.0.1:" + port;
    }

    @Override
    public RestResult putConnectorConfig(String cluster, String name, Map<String, String> config) {
        Map<String, String> mapped = connectorConfig(config);
        return withWorker(cluster, rest -> rest.putConfig(name, mapped));
    }

    @Override
    public boolean holdsConfig(String cluster, String name, Map<String, String> config) {
        Map<String, String> wanted = new java.util.TreeMap<>(connectorConfig(config));
        wanted.put("name", name);
        for (String pod : workerPods(cluster)) {
            Optional<Map<String, String>> stored = new ConnectRest(ports.get(pod)).config(name);
            if (stored.isPresent()) {
                return stored.get().equals(wanted);
            }
        }
        return false;
    }

    @Override
    public RestResult setTargetState(String cluster, String name, TargetState state) {
        String verb = switch (state) {
            case RUNNING -> "resume";
            case PAUSED -> "pause";
            case STOPPED -> "stop";
        };
        return withWorker(cluster, rest -> rest.put(name, verb));
    }

    @Override
    public RestResult deleteConnector(String cluster, String name) {
        return withWorker(cluster, rest -> rest.delete(name));
    }

    @Override
    public RestResult restartTask(String cluster, String name, int task) {
        return withWorker(cluster, rest -> rest.restartTask(name, task));
    }

    @Override
    public Optional<ConnectorStatus> status(String cluster, String name) {
        for (String pod : workerPods(cluster)) {
            Optional<ConnectorStatus> s = new ConnectRest(ports.get(pod)).status(name);
            if (s.isPresent()) {
                return s;
            }
        }
        return Optional.empty();
    }

    /**
     * @param cluster {@code namespace/KafkaConnect name}
     * @param name    connector name
     * @return the task configurations Kafka Connect has stored for it, from the first worker that answers; empty when
     *         none does
     */
    public Optional<List<Map<String, String>>> taskConfigs(String cluster, String name) {
        for (String pod : workerPods(cluster)) {
            Optional<List<Map<String, String>>> c = new ConnectRest(ports.get(pod)).taskConfigs(name);
            if (c.isPresent()) {
                return c;
            }
        }
        return Optional.empty();
    }

    @Override
    public Set<String> connectors(String cluster) {
        for (String pod : workerPods(cluster)) {
            Optional<Set<String>> s = new ConnectRest(ports.get(pod)).connectors();
            if (s.isPresent()) {
                return s.get();
            }
        }
        return Set.of();
    }

    /**
     * Stops every worker (gracefully, in parallel), then the Kafka clusters when this runtime owns them.
     * Closing again does nothing.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        List<Thread> stops = new ArrayList<>();
        for (String pod : List.copyOf(workers.keySet())) {
            Thread t = new Thread(() -> stopWorker(pod, false), "stop-" + pod);
            t.start();
            stops.add(t);
        }
        for (Thread t : stops) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (ownsClusters) {
            clusters.close();
        }
    }

    /** @return the complete properties of a worker on REST {@code port}: see the class comment */
    Map<String, String> workerProperties(Map<String, String> rendered, int port) {
        Map<String, String> p = new LinkedHashMap<>(rendered);
        boolean sasl = p.getOrDefault("security.protocol", "").startsWith("SASL_");
        p.put("bootstrap.servers", clusters.map(p.get("bootstrap.servers"), sasl));
        p.remove("plugin.path");
        p.keySet().removeIf(k -> k.startsWith("rest.") || k.equals("listeners"));
        p.put("listeners", "http://127.0.0.1:" + port);
        p.put("rest.advertised.host.name", "127.0.0.1");
        p.put("rest.advertised.port", String.valueOf(port));
        p.put("rest.advertised.listener", "http");
        p.put("plugin.discovery", "service_load");
        for (String topic : List.of("config", "offset", "status")) {
            p.put(topic + ".storage.replication.factor", "1");
        }
        p.put("offset.storage.partitions", "1");
        p.put("status.storage.partitions", "1");
        p.put("offset.flush.interval.ms", String.valueOf(OFFSET_FLUSH_INTERVAL_MS));
        p.put("scheduled.rebalance.max.delay.ms", "0");
        p.put("session.timeout.ms", "4000");
        p.put("heartbeat.interval.ms", "1000");
        p.put("rebalance.timeout.ms", "20000");
        p.put("task.shutdown.graceful.timeout.ms", "3000");
        return p;
    }

    /** @return {@code config} as sent to the embedded clusters: addresses mapped, MirrorMaker 2's topics at factor 1 */
    Map<String, String> connectorConfig(Map<String, String> config) {
        Map<String, String> out = new LinkedHashMap<>(config);
        out.replaceAll((k, v) -> k.toLowerCase(Locale.ROOT).endsWith("bootstrap.servers") ? clusters.map(v) : v);
        String cls = out.getOrDefault("connector.class", "");
        if (cls.contains(".mirror.") || cls.startsWith("Mirror")) {
            CONNECTOR_REPLICATION_KEYS.forEach(k -> out.put(k, "1"));
        }
        return out;
    }

    private RestResult withWorker(String cluster, java.util.function.Function<ConnectRest, RestResult> call) {
        long deadline = System.currentTimeMillis() + RETRY_MS;
        RestResult last = new RestResult(0, "Connection refused: no worker of " + cluster + " is running");
        int attempt = 0;
        while (true) {
            List<String> pods = new ArrayList<>(workerPods(cluster));
            boolean retry = false;
            for (int i = 0; i < pods.size(); i++) {
                String pod = pods.get((i + attempt) % pods.size());
                WorkerProcess w = workers.get(pod);
                if (w == null || !w.alive()) {
                    continue;
                }
                last = call.apply(new ConnectRest(w.restPort()));
                if (last.status() == 0) {
                    continue; // that worker is starting or stopping: ask another
                }
                retry = transientFailure(last);
                break;
            }
            if ((!retry && last.status() != 0) || System.currentTimeMillis() > deadline) {
                return last;
            }
            attempt++;
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return last;
            }
        }
    }

    /**
     * Tells a failure that another try answers differently, as Strimzi retries a failed reconcile: 409 while the group
     * rebalances, 503 while a worker starts, 500 "IO Error trying to forward REST request" while the leader is rolled.
     *
     * @return true when the call should be sent again
     */
    static boolean transientFailure(RestResult r) {
        return r.status() == 409 || r.status() == 503
                || (r.status() == 500 && r.message() != null && r.message().startsWith(FORWARD_IO_ERROR));
    }

    /**
     * The class path of a worker process: the jars of the class loader that loaded this class (the Kafka
     * folder next to flowform.jar, when flowform loaded Kafka itself), then this JVM's class path.
     */
    private static String childClassPath() {
        Set<String> entries = new LinkedHashSet<>();
        if (KafkaConnectRuntime.class.getClassLoader() instanceof URLClassLoader u) {
            for (URL url : u.getURLs()) {
                try {
                    entries.add(Path.of(url.toURI()).toString());
                } catch (URISyntaxException | IllegalArgumentException e) {
                    // not a file: cannot be on a class path
                }
            }
        }
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.isBlank()) {
                entries.add(e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
