package dev.flowform.plan;

import dev.flowform.model.Condition;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredState;
import dev.flowform.model.ManageMode;
import dev.flowform.testing.Configs;
import java.util.Set;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConfigMap;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LivePod;
import dev.flowform.model.LivePodSet;
import dev.flowform.model.LiveState;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.rules.RollCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test model of one namespace: a KafkaConnect and its KafkaConnectors as JSON-like maps (what a user or
 * flowform writes), plus a description of what the operator has done with them (roll status, connector
 * status). {@link #toLive()} builds the {@link LiveState} a reader would return, as model records: pure,
 * a few microseconds per state, so the planner can be checked against every combination.
 *
 * <p>Steps of a plan are executed against it symbolically by {@link SymbolicApply}, which edits the maps
 * with the apply package's {@code Edits} and moves the status descriptors.
 */
final class World implements FamilyWorld {

    /** What the operator has done with the KafkaConnect's current generation. */
    enum Roll {
        /** Every worker runs the current spec; {@code Ready} at the generation. */
        ROLLED,
        /** {@code observedGeneration} behind: the operator is rolling the workers. */
        IN_PROGRESS,
        /** {@code observedGeneration} current but some workers still on the old revision (operator crash, Deployment era). */
        PODS_BEHIND,
        /** {@code NotReady} at the generation: the reconcile failed half-way. */
        NOT_READY,
        /** {@code strimzi.io/pause-reconciliation}: condition {@code ReconciliationPaused}. */
        PAUSED
    }

    /** Runtime status of a connector as {@code status.connectorStatus} reports it. */
    enum Status {
        RUNNING, PAUSED, STOPPED, FAILED, PENDING,
        /** The connector runs, its task 0 FAILED: Strimzi's {@code NotReady} "The following tasks have failed". */
        FAILED_TASK
    }

    static final String NS = "replication";
    static final String CLUSTER = "mm2-connect";
    static final String GROUP = "mm2-connect";
    static final String FAILURE = "Exceeded timeout of 300000ms while waiting for Pods resource mm2-connect-connect-1 in "
            + "namespace replication to be ready";
    static final String CONNECTOR_TRACE = "org.apache.kafka.connect.runtime.rest.errors.BadRequestException: Connector "
            + "configuration is invalid and contains the following 1 error(s):\nThis worker does not have exactly-once "
            + "source support enabled.";
    static final String TASK_TRACE = "org.apache.kafka.connect.errors.ConnectException: Failed to fence out zombie tasks";

    final StrimziApi api;
    /** The KafkaConnect without status; null when it does not exist. */
    Map<String, Object> kc;
    Roll roll;
    /** The mode workers not yet rolled run (meaningful when not {@link Roll#ROLLED}). */
    EosMode previous;
    /** KafkaConnectors without status, by name (sorted). */
    final Map<String, Map<String, Object>> connectors = new TreeMap<>();
    final Map<String, Status> statuses = new TreeMap<>();

    World(StrimziApi api) {
        this.api = api;
    }

    /** @return a deep copy */
    World copy() {
        World w = new World(api);
        w.kc = kc == null ? null : deepCopy(kc);
        w.roll = roll;
        w.previous = previous;
        connectors.forEach((k, v) -> w.connectors.put(k, deepCopy(v)));
        w.statuses.putAll(statuses);
        return w;
    }

    // ------------------------------------------------------------------------------------------ builders

    /** The quickstart's shape: a KafkaConnect mm2-connect with 3 workers and the flow dc1-to-dc2 (3 connectors). */
    static World quickstart(StrimziApi api, String eos, Roll roll, EosMode previous) {
        World w = new World(api);
        w.kc = w.connect(eos, 3, "3.9.0", true, roll == Roll.PAUSED);
        w.roll = roll;
        w.previous = previous;
        Map<String, String> base = new LinkedHashMap<>();
        base.put("source.cluster.alias", "dc1");
        base.put("target.cluster.alias", "dc2");
        base.put("source.cluster.bootstrap.servers", "dc1-kafka-bootstrap.kafka-dc1.svc:9093");
        base.put("target.cluster.bootstrap.servers", "dc2-kafka-bootstrap.kafka-dc2.svc:9093");
        Map<String, String> source = new LinkedHashMap<>(base);
        source.put("topics", "orders\\..*");
        Map<String, String> checkpoint = new LinkedHashMap<>(base);
        checkpoint.put("groups", ".*");
        Map<String, String> heartbeat = new LinkedHashMap<>();
        heartbeat.put("source.cluster.alias", "dc1");
        heartbeat.put("target.cluster.alias", "dc2");
        w.connectors.put("dc1-to-dc2-source", w.connector("dc1-to-dc2-source", ConnectorRole.SOURCE.connectorClass(), 2, null,
                source, Map.of()));
        w.connectors.put("dc1-to-dc2-checkpoint", w.connector("dc1-to-dc2-checkpoint", ConnectorRole.CHECKPOINT.connectorClass(),
                1, null, checkpoint, Map.of()));
        w.connectors.put("dc1-to-dc2-heartbeat", w.connector("dc1-to-dc2-heartbeat", ConnectorRole.HEARTBEAT.connectorClass(),
                1, null, heartbeat, Map.of()));
        w.connectors.keySet().forEach(n -> w.statuses.put(n, Status.RUNNING));
        return w;
    }


    /** @return a KafkaConnect body for this API version (group id in the right field) */
    Map<String, Object> connect(String eosValue, Integer replicas, String version, boolean annotation, boolean paused) {
        Map<String, Object> config = new LinkedHashMap<>();
        if (api == StrimziApi.V1BETA2) {
            config.put("group.id", GROUP);
            config.put("offset.storage.topic", GROUP + "-offsets");
            config.put("config.storage.topic", GROUP + "-configs");
            config.put("status.storage.topic", GROUP + "-status");
        }
        config.put("config.storage.replication.factor", 3);
        config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        if (eosValue != null) {
            config.put(EosMode.CONFIG_KEY, eosValue);
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        if (version != null) {
            spec.put("version", version);
        }
        if (replicas != null) {
            spec.put("replicas", replicas);
        }
        spec.put("bootstrapServers", "dc2-kafka-bootstrap.kafka-dc2.svc:9093");
        if (api == StrimziApi.V1) {
            spec.put("groupId", GROUP);
            spec.put("configStorageTopic", GROUP + "-configs");
            spec.put("offsetStorageTopic", GROUP + "-offsets");
            spec.put("statusStorageTopic", GROUP + "-status");
        }
        spec.put("config", config);
        Map<String, Object> annotations = new LinkedHashMap<>();
        if (annotation) {
            annotations.put(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION, "true");
        }
        if (paused) {
            annotations.put(Strimzi.PAUSE_RECONCILIATION_ANNOTATION, "true");
        }
        Map<String, Object> md = new LinkedHashMap<>();
        md.put("name", CLUSTER);
        md.put("namespace", NS);
        md.put("generation", 5L);
        md.put("annotations", annotations);
        md.put("labels", new LinkedHashMap<>(Map.of("app.kubernetes.io/part-of", "replication")));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("apiVersion", api.kafkaApiVersion());
        m.put("kind", "KafkaConnect");
        m.put("metadata", md);
        m.put("spec", spec);
        return m;
    }

    /** @return a KafkaConnector body labelled for the cluster */
    Map<String, Object> connector(String name, String className, Integer tasksMax, String state, Map<String, String> config,
                                  Map<String, String> labels) {
        Map<String, Object> md = new LinkedHashMap<>();
        md.put("name", name);
        md.put("namespace", NS);
        md.put("generation", 1L);
        Map<String, Object> l = new LinkedHashMap<>(labels);
        l.put(Strimzi.CLUSTER_LABEL, CLUSTER);
        md.put("labels", l);
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("class", className);
        if (tasksMax != null) {
            spec.put("tasksMax", tasksMax);
        }
        if (state != null) {
            spec.put("state", state);
        }
        spec.put("config", new LinkedHashMap<String, Object>(config));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("apiVersion", api.kafkaApiVersion());
        m.put("kind", "KafkaConnector");
        m.put("metadata", md);
        m.put("spec", spec);
        return m;
    }

    // ------------------------------------------------------------------------------------------ FamilyWorld

    @Override
    public FamilyWorld roll(Roll r, EosMode podsRun) {
        roll = r;
        previous = podsRun;
        if (r == Roll.PAUSED) {
            map(map(kc.get("metadata")).get("annotations")).put(Strimzi.PAUSE_RECONCILIATION_ANNOTATION, "true");
        }
        return this;
    }

    @Override
    public FamilyWorld version(String version) {
        map(kc.get("spec")).put("version", version);
        return this;
    }

    @Override
    public FamilyWorld replicas(int replicas) {
        map(kc.get("spec")).put("replicas", replicas);
        return this;
    }

    @Override
    public FamilyWorld workerConfig(String key, String value) {
        map(map(kc.get("spec")).get("config")).put(key, value);
        return this;
    }

    @Override
    public FamilyWorld sourceExactlyOnce() {
        Map<String, Object> config = map(map(connectors.get("dc1-to-dc2-source").get("spec")).get("config"));
        config.put("exactly.once.support", "required");
        config.put("source.consumer.isolation.level", "read_committed");
        return this;
    }

    @Override
    public FamilyWorld failSourceTask() {
        statuses.put("dc1-to-dc2-source", Status.FAILED_TASK);
        return this;
    }

    @Override
    public DesiredState adopt(boolean exactlyOnce, Map<String, String> workerConfig) {
        return Configs.desired(List.of(new DesiredConnectCluster("connect_cluster." + CLUSTER, CLUSTER, null,
                ManageMode.ADOPT, null, null, null, null, workerConfig, Map.of(), Set.of(), null)),
                List.of(Configs.adoptedFlow(exactlyOnce)));
    }

    @Override
    public String address() {
        return "connect_cluster." + CLUSTER;
    }

    // ------------------------------------------------------------------------------------------ model records

    /** @return the live state a reader would return for this world */
    @Override
    public LiveState toLive() {
        List<LiveConnectCluster> clusters = new ArrayList<>();
        if (kc != null) {
            clusters.add(cluster());
        }
        List<LiveConnector> list = new ArrayList<>();
        connectors.forEach((name, body) -> list.add(connector(body, statuses.getOrDefault(name, Status.PENDING))));
        Map<String, String> fp = new TreeMap<>();
        if (kc != null) {
            fp.put("KafkaConnect " + NS + "/" + CLUSTER, Strimzi.sha1Prefix(canonical(kc)) + "-" + roll);
        }
        connectors.forEach((n, b) -> fp.put("KafkaConnector " + NS + "/" + n, Strimzi.sha1Prefix(canonical(b)) + "-"
                + statuses.get(n)));
        return new LiveState(api, "https://model:6443", clusters, list, fp);
    }

    static long generation(Map<String, Object> obj) {
        return ((Number) map(obj.get("metadata")).get("generation")).longValue();
    }

    static EosMode mode(Map<String, Object> kcBody) {
        Object v = map(map(kcBody.get("spec")).get("config")).get(EosMode.CONFIG_KEY);
        return EosMode.parse(v == null ? null : v.toString()).orElseThrow();
    }

    static int replicas(Map<String, Object> kcBody) {
        Object r = map(kcBody.get("spec")).get("replicas");
        return r == null ? RollCheck.STRIMZI_DEFAULT_REPLICAS : ((Number) r).intValue();
    }

    private LiveConnectCluster cluster() {
        long g = generation(kc);
        Object value = map(map(kc.get("spec")).get("config")).get(EosMode.CONFIG_KEY);
        EosMode mode = EosMode.parse(value == null ? null : value.toString()).orElse(EosMode.DISABLED);
        int replicas = replicas(kc);
        Map<String, Object> md = map(kc.get("metadata"));
        Map<String, Object> spec = map(kc.get("spec"));
        Map<String, String> config = new TreeMap<>();
        map(spec.get("config")).forEach((k, v) -> config.put(k, String.valueOf(v)));
        Long observed = roll == Roll.IN_PROGRESS ? Long.valueOf(g - 1) : Long.valueOf(g);
        List<Condition> conditions = switch (roll) {
            case NOT_READY -> List.of(new Condition("NotReady", "True", "TimeoutException", FAILURE));
            case PAUSED -> List.of(new Condition("ReconciliationPaused", "True", null, null));
            default -> List.of(new Condition("Ready", "True", null, null));
        };
        boolean mixed = roll != Roll.ROLLED && roll != Roll.PAUSED;
        String newProps = properties(mode);
        String oldProps = properties(previous == null ? mode : previous);
        String newRev = "r" + g;
        String oldRev = "r" + (g - 1);
        int rolledPods = mixed ? replicas / 2 : replicas;
        Map<String, String> revisions = new LinkedHashMap<>();
        List<LivePod> pods = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            String name = CLUSTER + "-connect-" + i;
            revisions.put(name, newRev);
            boolean rolled = i < rolledPods;
            String props = rolled ? newProps : oldProps;
            pods.add(new LivePod(name, name + "-uid", rolled ? newRev : oldRev,
                    api == StrimziApi.V1 ? Strimzi.sha1Prefix(props) : null, true, false,
                    api == StrimziApi.V1 ? null : props));
        }
        LivePodSet ps = new LivePodSet(new ObjectRef(api.coreApiVersion(), "StrimziPodSet", NS, CLUSTER + "-connect"), 3, 3L,
                revisions, replicas, replicas, rolledPods);
        LiveConfigMap cm = api == StrimziApi.V1
                ? new LiveConfigMap(new ObjectRef("v1", "ConfigMap", NS, CLUSTER + "-connect-config"), newProps) : null;
        Map<String, Object> raw = deepCopy(kc);
        return new LiveConnectCluster(new ObjectRef(api.kafkaApiVersion(), "KafkaConnect", NS, CLUSTER), "1", g,
                strings(md.get("labels")), strings(md.get("annotations")), spec, config, observed, conditions, ps, pods, cm, raw);
    }

    private static String properties(EosMode mode) {
        return "bootstrap.servers=dc2-kafka-bootstrap.kafka-dc2.svc:9093\ngroup.id=" + GROUP + "\n"
                + (mode == EosMode.DISABLED ? "" : EosMode.CONFIG_KEY + "=" + mode.value() + "\n");
    }

    private LiveConnector connector(Map<String, Object> body, Status status) {
        Map<String, Object> md = map(body.get("metadata"));
        Map<String, Object> spec = map(body.get("spec"));
        Map<String, String> config = new TreeMap<>();
        map(spec.get("config")).forEach((k, v) -> config.put(k, String.valueOf(v)));
        String name = (String) md.get("name");
        long g = generation(body);
        Integer tasksMax = spec.get("tasksMax") == null ? null : ((Number) spec.get("tasksMax")).intValue();
        int tasks = tasksMax == null ? 1 : tasksMax;
        List<TaskStatus> taskList = new ArrayList<>();
        String state = null;
        String trace = null;
        Long observed = g;
        List<Condition> conditions = List.of(new Condition("Ready", "True", null, null));
        switch (status) {
            case RUNNING, PAUSED -> {
                state = status.name();
                for (int i = 0; i < tasks; i++) {
                    taskList.add(new TaskStatus(i, status.name(), null));
                }
            }
            case STOPPED -> state = "STOPPED";
            case FAILED_TASK -> {
                state = "RUNNING";
                for (int i = 0; i < tasks; i++) {
                    taskList.add(new TaskStatus(i, i == 0 ? "FAILED" : "RUNNING", i == 0 ? TASK_TRACE : null));
                }
                conditions = List.of(new Condition("NotReady", "True", "Throwable",
                        "The following tasks have failed: 0, see connectorStatus for more details."));
            }
            case FAILED -> {
                state = "FAILED";
                trace = CONNECTOR_TRACE;
                conditions = List.of(new Condition("NotReady", "True", "ConnectRestException", CONNECTOR_TRACE));
            }
            default -> {
                observed = null;
                conditions = List.of();
            }
        }
        return new LiveConnector(new ObjectRef(api.kafkaApiVersion(), "KafkaConnector", NS, name), "1", g,
                strings(md.get("labels")), strings(md.get("annotations")), (String) spec.get("class"), tasksMax,
                (String) spec.get("state"), config, observed, conditions, state, trace, taskList, deepCopy(body));
    }

    // ------------------------------------------------------------------------------------------ helpers

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static Map<String, String> strings(Object o) {
        Map<String, String> out = new TreeMap<>();
        map(o).forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }

    /** @return the object as text with every map sorted by key (a stable fingerprint input) */
    @SuppressWarnings("unchecked")
    static String canonical(Object o) {
        if (o instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder("{");
            new TreeMap<>((Map<String, Object>) m).forEach((k, v) -> sb.append(k).append('=').append(canonical(v)).append(','));
            return sb.append('}').toString();
        }
        if (o instanceof List<?> l) {
            StringBuilder sb = new StringBuilder("[");
            l.forEach(v -> sb.append(canonical(v)).append(','));
            return sb.append(']').toString();
        }
        return String.valueOf(o);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> deepCopy(Map<String, Object> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, v instanceof Map<?, ?> sub ? deepCopy((Map<String, Object>) sub)
                : v instanceof List<?> l ? new ArrayList<>(l) : v));
        return out;
    }
}
