package dev.flowform.sim.connect;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.connect.WorkerSpec;
import dev.flowform.model.EosMode;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.rules.StopBeforeChange;
import dev.flowform.sim.ConnectorValidator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kafka Connect in memory, for tests and the demo: started workers (healthy until stopped) and each cluster's
 * connectors. A PUT needs a member, an installed plugin and a configuration {@link ConnectorValidator} accepts against
 * the most conservative worker mode (KIP-618), else Connect's status and message; connectors and tasks are spread
 * round robin over the members; stopped connectors have no tasks (KIP-875). Thread-safe.
 */
public final class SimulatedConnectRuntime implements ConnectRuntime {
    /** The connector plugins every simulated worker has installed: the three MirrorMaker 2 connectors. */
    public static final List<String> PLUGINS = List.of("org.apache.kafka.connect.mirror.MirrorCheckpointConnector",
            "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector",
            "org.apache.kafka.connect.mirror.MirrorSourceConnector");
    /** Worker property naming the host in the worker id. */
    public static final String ADVERTISED_HOST = "rest.advertised.host.name";
    /** Worker property naming the port in the worker id. */
    public static final String ADVERTISED_PORT = "rest.advertised.port";
    private static final String CONNECTOR_CLASS = "connector.class";
    private static final String TASKS_MAX = "tasks.max";

    private final Map<String, WorkerSpec> workers = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Entry>> connectors = new ConcurrentHashMap<>();
    private final Map<String, Map<String, ConnectorStatus>> rejected = new ConcurrentHashMap<>();
    /** Connectors whose exactly-once keys changed while they were not stopped, in order ({@code cluster/name}). */
    private final List<String> reconfiguredWhileRunning = java.util.Collections.synchronizedList(new ArrayList<>());
    /** Failure trace of each failed task, per {@code cluster/connector}, by task id. */
    private final Map<String, Map<Integer, String>> failedTasks = new ConcurrentHashMap<>();

    /**
     * A connector as Kafka Connect runs it, in the form the embedded cluster persists.
     *
     * @param className {@code connector.class}
     * @param config    its configuration without {@code connector.class} and {@code tasks.max}
     * @param state     {@code RUNNING}, {@code PAUSED} or {@code STOPPED}
     * @param topics    the topics Kafka Connect reports as active for it ({@code GET /connectors/{name}/topics})
     */
    public record Connector(String className, Map<String, String> config, String state, List<String> topics) {
        /** Copies {@code config} and {@code topics} (null topics become empty). */
        public Connector {
            config = Map.copyOf(config);
            topics = topics == null ? List.of() : List.copyOf(topics);
        }
    }

    /** A table entry: the persisted form plus {@code tasks.max} (null: Kafka's default of 1). */
    private record Entry(Connector connector, Integer tasksMax) {
    }

    @Override
    public void startWorker(WorkerSpec worker) {
        workers.put(worker.pod(), worker);
    }

    @Override
    public boolean healthy(String pod) {
        return workers.containsKey(pod);
    }

    @Override
    public void stopWorker(String pod, boolean kill) {
        workers.remove(pod);
    }

    @Override
    public RestResult putConnectorConfig(String cluster, String name, Map<String, String> config) {
        List<WorkerSpec> members = members(cluster);
        if (members.isEmpty()) {
            return new RestResult(0, "Connection refused");
        }
        String className = config.get(CONNECTOR_CLASS);
        if (!ConnectorValidator.knownClass(className)) {
            return new RestResult(500, "Failed to find any class that implements Connector and which name matches "
                    + className + ", available connectors are: " + String.join(", ", PLUGINS));
        }
        EosMode mode = members.stream().map(SimulatedConnectRuntime::mode).min(Comparator.naturalOrder())
                .orElse(EosMode.DISABLED);
        List<String> errors = ConnectorValidator.validate(className, config, mode);
        if (!errors.isEmpty()) {
            String text = ConnectorValidator.invalidConfigMessage(errors);
            rejected.computeIfAbsent(cluster, k -> new ConcurrentHashMap<>()).put(name,
                    new ConnectorStatus(name, "FAILED", workerId(members.get(placement(name, members))), text,
                            List.of(), "source"));
            return new RestResult(400, text);
        }
        Map<String, String> stored = new LinkedHashMap<>(config);
        stored.remove(CONNECTOR_CLASS);
        stored.remove(TASKS_MAX);
        Map<String, Entry> table = table(cluster);
        Entry before = table.get(name);
        Connector now = new Connector(className, stored, before == null ? "RUNNING" : before.connector().state(),
                before == null ? List.of() : before.connector().topics());
        table.put(name, new Entry(now, tasksMax(config.get(TASKS_MAX))));
        if (before != null && !"STOPPED".equals(before.connector().state()) && StopBeforeChange.KEYS.stream()
                .anyMatch(k -> !java.util.Objects.equals(before.connector().config().get(k), stored.get(k)))) {
            reconfiguredWhileRunning.add(cluster + "/" + name);
        }
        if (before == null || !before.connector().config().equals(stored)) {
            failedTasks.remove(cluster + "/" + name);
        }
        clearRejected(cluster, name);
        return RestResult.success(before == null ? 201 : 200);
    }

    @Override
    public boolean holdsConfig(String cluster, String name, Map<String, String> config) {
        Entry e = connectors.getOrDefault(cluster, Map.of()).get(name);
        Map<String, ConnectorStatus> failed = rejected.get(cluster);
        if (e == null || (failed != null && failed.containsKey(name)) || members(cluster).isEmpty()) {
            return false; // none stored, a rejected one reported, or no worker to answer the GET
        }
        Map<String, String> stored = new LinkedHashMap<>(config);
        stored.remove(CONNECTOR_CLASS);
        stored.remove(TASKS_MAX);
        return e.connector().className().equals(config.get(CONNECTOR_CLASS)) && e.connector().config().equals(stored)
                && java.util.Objects.equals(e.tasksMax(), tasksMax(config.get(TASKS_MAX)));
    }

    @Override
    public RestResult setTargetState(String cluster, String name, TargetState state) {
        Map<String, Entry> table = connectors.getOrDefault(cluster, Map.of());
        Entry e = table.get(name);
        if (e == null) {
            return notFound(name);
        }
        Connector c = e.connector();
        table.put(name, new Entry(new Connector(c.className(), c.config(), state.name(), c.topics()), e.tasksMax()));
        return RestResult.success(state == TargetState.STOPPED ? 204 : 202);
    }

    @Override
    public RestResult deleteConnector(String cluster, String name) {
        clearRejected(cluster, name);
        failedTasks.remove(cluster + "/" + name);
        Map<String, Entry> table = connectors.get(cluster);
        if (table == null || table.remove(name) == null) {
            return notFound(name);
        }
        connectors.computeIfPresent(cluster, (k, t) -> t.isEmpty() ? null : t);
        return RestResult.success(204);
    }

    @Override
    public Optional<ConnectorStatus> status(String cluster, String name) {
        List<WorkerSpec> members = members(cluster);
        if (members.isEmpty()) {
            return Optional.empty();
        }
        Map<String, ConnectorStatus> failed = rejected.get(cluster);
        if (failed != null && failed.containsKey(name)) {
            return Optional.of(failed.get(name));
        }
        Entry e = connectors.getOrDefault(cluster, Map.of()).get(name);
        if (e == null) {
            return Optional.empty();
        }
        String state = e.connector().state();
        String workerId = workerId(members.get(placement(name, members)));
        List<ConnectorStatus.TaskStatus> tasks = new ArrayList<>();
        if (!"STOPPED".equals(state)) {
            int start = 0;
            while (!workerId(members.get(start)).equals(workerId)) {
                start++;
            }
            int count = e.tasksMax() == null ? 1 : e.tasksMax();
            for (int i = 0; i < count; i++) {
                String trace = failedTasks.getOrDefault(cluster + "/" + name, Map.of()).get(i);
                tasks.add(new ConnectorStatus.TaskStatus(i, trace == null ? state : "FAILED",
                        workerId(members.get((start + i) % members.size())), trace));
            }
        }
        return Optional.of(new ConnectorStatus(name, state, workerId, null, tasks, "source"));
    }

    /**
     * The connectors whose exactly-once keys ({@link StopBeforeChange#KEYS}) an accepted configuration changed while
     * their target state was not STOPPED: Kafka Connect then runs the tasks of the old configuration until it has
     * swapped them, after the KafkaConnector already reads RUNNING (docs/domain-rules.md, 8b).
     *
     * @return {@code namespace/cluster/connector} of each such change, in order
     */
    public List<String> reconfiguredWhileRunning() {
        synchronized (reconfiguredWhileRunning) {
            return List.copyOf(reconfiguredWhileRunning);
        }
    }

    /**
     * Fails one task of a running connector, as a task whose {@code poll} threw does: Kafka Connect reports the task
     * {@code FAILED} with the trace while the connector stays {@code RUNNING}, until the task is restarted or the
     * connector is deleted or given a different configuration.
     *
     * @param cluster the Connect cluster ({@code namespace/name})
     * @param name    the connector
     * @param task    the task id
     * @param trace   the failure's stack trace
     */
    public void failTask(String cluster, String name, int task, String trace) {
        failedTasks.computeIfAbsent(cluster + "/" + name, k -> new ConcurrentHashMap<>()).put(task, trace);
    }

    /**
     * Restarts one task ({@code POST /connectors/{name}/tasks/{task}/restart}): a failed task runs again.
     *
     * @param cluster the Connect cluster
     * @param name    the connector
     * @param task    the task id
     * @return 204, or 404 when the connector does not exist
     */
    @Override
    public RestResult restartTask(String cluster, String name, int task) {
        if (!connectors.getOrDefault(cluster, Map.of()).containsKey(name)) {
            return notFound(name);
        }
        failedTasks.getOrDefault(cluster + "/" + name, new ConcurrentHashMap<>()).remove(task);
        return RestResult.success(204);
    }

    @Override
    public Set<String> connectors(String cluster) {
        Map<String, Entry> table = connectors.get(cluster);
        return table == null ? Set.of() : new TreeSet<>(table.keySet());
    }

    @Override
    public List<String> topics(String cluster, String name) {
        Entry e = connectors.getOrDefault(cluster, Map.of()).get(name);
        return e == null ? List.of() : e.connector().topics();
    }

    /** Stops every worker; the connector table stays (it stands for Kafka's config topic). */
    @Override
    public void close() {
        workers.clear();
    }

    /** @return every connector, by cluster ({@code namespace/KafkaConnect name}) and name, both sorted */
    public Map<String, Map<String, Connector>> exportConnectors() {
        Map<String, Map<String, Connector>> out = new TreeMap<>();
        connectors.forEach((cluster, table) -> {
            Map<String, Connector> cs = new TreeMap<>();
            table.forEach((name, e) -> cs.put(name, e.connector()));
            out.put(cluster, cs);
        });
        return out;
    }

    /**
     * Puts a connector into the table as if Kafka Connect had run it all along (from a persist file or a
     * seeded KafkaConnector's status), without validation; its {@code tasks.max} is unknown until the next PUT.
     *
     * @param cluster   {@code namespace/KafkaConnect name}
     * @param name      the connector name
     * @param connector the connector
     */
    public void importConnector(String cluster, String name, Connector connector) {
        table(cluster).put(name, new Entry(connector, null));
    }

    private Map<String, Entry> table(String cluster) {
        return connectors.computeIfAbsent(cluster, k -> new ConcurrentHashMap<>());
    }

    private void clearRejected(String cluster, String name) {
        Map<String, ConnectorStatus> failed = rejected.get(cluster);
        if (failed != null) {
            failed.remove(name);
        }
    }

    private List<WorkerSpec> members(String cluster) {
        return workers.values().stream().filter(w -> w.cluster().equals(cluster))
                .sorted(Comparator.comparing(WorkerSpec::pod)).toList();
    }

    private static int placement(String name, List<WorkerSpec> members) {
        return Math.floorMod(name.hashCode(), members.size());
    }

    private static EosMode mode(WorkerSpec w) {
        return EosMode.parse(w.properties().get(EosMode.CONFIG_KEY)).orElse(EosMode.DISABLED);
    }

    private static String workerId(WorkerSpec w) {
        return w.properties().get(ADVERTISED_HOST) + ":"
                + w.properties().getOrDefault(ADVERTISED_PORT, String.valueOf(Strimzi.CONNECT_REST_PORT));
    }

    private static Integer tasksMax(String value) {
        if (value == null) {
            return null;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static RestResult notFound(String name) {
        return new RestResult(404, "Connector " + name + " not found");
    }
}
