package dev.flowform.plan;

import dev.flowform.model.Condition;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConfigMap;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.LivePod;
import dev.flowform.model.LivePodSet;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A KafkaMirrorMaker2 {@code replication/mm2} in the {@code v1beta2} layout ({@code spec.clusters[]}) or the {@code v1}
 * layout ({@code spec.target}, {@code spec.mirrors[].source}) (target alias {@code dc2}, one mirror from
 * {@code dc1}), built as mutable maps so that tests can put it in any state, and the desired blocks that go with it.
 */
final class MirrorMakerWorld implements FamilyWorld {

    static final String NS = "replication";
    static final String NAME = "mm2";

    /** How far the operator got with the object's current generation. */
    enum Roll { ROLLED, IN_PROGRESS, NOT_READY, PAUSED }

    final Map<String, Object> spec = new LinkedHashMap<>();
    final Map<String, String> annotations = new TreeMap<>();
    final List<Map<String, Object>> connectors = new ArrayList<>();
    long generation = 7;
    Roll roll = Roll.ROLLED;
    /** The mode the pods run; null means the spec's. */
    EosMode podsRun;
    int replicas = 2;
    /**
     * Strimzi 0.46-0.48: the pods carry no configuration hash (and what they run cannot be seen), and the operator does
     * not roll them when the worker configuration changes; the ConfigMap always holds the spec's configuration.
     */
    boolean noRoll;
    /** The PodSet carries {@code strimzi.io/manual-rolling-update: "true"}. */
    boolean manualRoll;
    /** The API version and layout. */
    final StrimziApi api;

    /** @param mode the worker mode in the spec, or null for unset; the v1beta2 layout */
    MirrorMakerWorld(String mode) {
        this(mode, false);
    }

    /**
     * @param mode the worker mode in the spec, or null for unset
     * @param v1   true for the v1 layout (group id as {@code spec.target.groupId})
     */
    MirrorMakerWorld(String mode, boolean v1) {
        api = v1 ? StrimziApi.V1 : StrimziApi.V1BETA2;
        Map<String, Object> workerConfig = new LinkedHashMap<>();
        if (!v1) {
            workerConfig.put("group.id", "mm2-cluster");
        }
        workerConfig.put("config.storage.replication.factor", "3");
        if (mode != null) {
            workerConfig.put(EosMode.CONFIG_KEY, mode);
        }
        spec.put("version", "3.9.0");
        spec.put("replicas", replicas);
        Map<String, Object> source = new LinkedHashMap<>(Map.of("alias", "dc1", "bootstrapServers", "dc1-kafka-bootstrap:9092",
                "config", new LinkedHashMap<>()));
        Map<String, Object> target = new LinkedHashMap<>(Map.of("alias", "dc2", "bootstrapServers", "dc2-kafka-bootstrap:9092",
                "config", workerConfig));
        Map<String, Object> mirror = new LinkedHashMap<>();
        if (v1) {
            target.put("groupId", "mm2-cluster");
            spec.put("target", target);
            mirror.put("source", source);
        } else {
            spec.put("connectCluster", "dc2");
            spec.put("clusters", new ArrayList<>(List.of(source, target)));
            mirror.put("sourceCluster", "dc1");
            mirror.put("targetCluster", "dc2");
        }
        mirror.put("sourceConnector", new LinkedHashMap<>(Map.of("tasksMax", 2,
                "config", new LinkedHashMap<>(Map.of("replication.factor", "3")))));
        mirror.put("checkpointConnector", new LinkedHashMap<>(Map.of("config",
                new LinkedHashMap<>(Map.of("checkpoints.topic.replication.factor", "3")))));
        mirror.put("topicsPattern", ".*");
        mirror.put("groupsPattern", ".*");
        spec.put("mirrors", new ArrayList<>(List.of(mirror)));
        connectors.add(connector(MirrorMaker2Names.sourceConnector("dc1", "dc2"), "RUNNING", "RUNNING", "RUNNING"));
        connectors.add(connector(MirrorMaker2Names.checkpointConnector("dc1", "dc2"), "RUNNING", "RUNNING"));
    }

    /** @return the worker configuration map of the target entry */
    @SuppressWarnings("unchecked")
    Map<String, Object> workerConfig() {
        Object target = api == StrimziApi.V1 ? spec.get("target") : ((List<Object>) spec.get("clusters")).get(1);
        return (Map<String, Object>) ((Map<String, Object>) target).get("config");
    }

    /** @return the config of the mirror's source cluster entry ({@code clusters[alias=dc1]} or {@code source}) */
    @SuppressWarnings("unchecked")
    Map<String, Object> sourceClusterConfig() {
        Object source = api == StrimziApi.V1 ? mirrorEntry().get("source") : ((List<Object>) spec.get("clusters")).get(0);
        return (Map<String, Object>) ((Map<String, Object>) source).get("config");
    }

    /** @return the mirror entry */
    @SuppressWarnings("unchecked")
    Map<String, Object> mirrorEntry() {
        return (Map<String, Object>) ((List<Object>) spec.get("mirrors")).get(0);
    }

    /** @return the source connector config of the mirror */
    @SuppressWarnings("unchecked")
    Map<String, Object> sourceConfig() {
        Map<String, Object> mirror = (Map<String, Object>) ((List<Object>) spec.get("mirrors")).get(0);
        return (Map<String, Object>) ((Map<String, Object>) mirror.get("sourceConnector")).get("config");
    }

    static Map<String, Object> connector(String name, String state, String... tasks) {
        List<Object> t = new ArrayList<>();
        for (int i = 0; i < tasks.length; i++) {
            t.add(new LinkedHashMap<>(Map.of("id", i, "state", tasks[i], "worker_id", "10.0.0." + i + ":8083")));
        }
        return new LinkedHashMap<>(Map.of("name", name, "connector", Map.of("state", state, "worker_id", "10.0.0.1:8083"),
                "tasks", t, "type", "source"));
    }

    /** @return the live object as read */
    LiveMirrorMaker2 toLiveObject() {
        String mode = String.valueOf(workerConfig().getOrDefault(EosMode.CONFIG_KEY, "disabled"));
        String properties = "group.id=mm2-cluster\n" + EosMode.CONFIG_KEY + "=" + (podsRun == null ? mode : podsRun.value()) + "\n";
        String specProperties = "group.id=mm2-cluster\n" + EosMode.CONFIG_KEY + "=" + mode + "\n";
        String hash = Strimzi.sha1Prefix(properties);
        Map<String, String> revisions = new LinkedHashMap<>();
        List<LivePod> pods = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            String pod = MirrorMaker2Names.podName(NAME, i);
            revisions.put(pod, "rev" + generation);
            pods.add(new LivePod(pod, "uid-" + i, "rev" + generation, noRoll ? null : hash, true, false, null,
                    "quay.io/strimzi/kafka:" + (noRoll ? "0.48.0" : "0.49.0") + "-kafka-3.9.0", "2026-12-01T00:00:00Z"));
        }
        LivePodSet ps = new LivePodSet(new ObjectRef(api.coreApiVersion(), "StrimziPodSet", NS,
                MirrorMaker2Names.podSetName(NAME)), 3, 3L, revisions, replicas, replicas, replicas,
                manualRoll ? Map.of(Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION, "true") : Map.of());
        boolean behind = roll == Roll.IN_PROGRESS;
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("observedGeneration", behind ? generation - 1 : generation);
        List<Condition> conditions = switch (roll) {
            case NOT_READY -> List.of(new Condition("NotReady", "True", "ConnectRestException", "connector failed"));
            case PAUSED -> List.of(new Condition("ReconciliationPaused", "True", null, null));
            default -> List.of(new Condition("Ready", "True", null, null));
        };
        status.put("connectors", connectors);
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("apiVersion", api.kafkaApiVersion());
        raw.put("kind", Strimzi.KAFKA_MIRROR_MAKER_2_KIND);
        raw.put("metadata", Map.of("name", NAME, "namespace", NS, "generation", generation));
        raw.put("spec", spec);
        raw.put("status", status);
        spec.put("replicas", replicas);
        LiveConnectCluster object = new LiveConnectCluster(new ObjectRef(api.kafkaApiVersion(),
                Strimzi.KAFKA_MIRROR_MAKER_2_KIND, NS, NAME), "100", generation, Map.of(), annotations, spec, Map.of(),
                behind ? generation - 1 : generation, conditions, ps, pods,
                new LiveConfigMap(new ObjectRef("v1", "ConfigMap", NS, MirrorMaker2Names.configMapName(NAME)),
                        podsRun == null ? properties : specProperties), raw);
        return LiveMirrorMaker2.of(object);
    }

    /** @return a live state holding only this object */
    @Override
    public LiveState toLive() {
        return new LiveState(api, "https://k8s.test", List.of(), List.of(), Map.of(), List.of(toLiveObject()));
    }

    // ------------------------------------------------------------------------------------------ FamilyWorld

    @Override
    public FamilyWorld roll(World.Roll r, EosMode podsRun) {
        roll = Roll.valueOf(r.name());
        this.podsRun = podsRun;
        if (r == World.Roll.PAUSED) {
            annotations.put(Strimzi.PAUSE_RECONCILIATION_ANNOTATION, "true");
        }
        return this;
    }

    @Override
    public FamilyWorld version(String version) {
        spec.put("version", version);
        return this;
    }

    @Override
    public FamilyWorld replicas(int n) {
        replicas = n;
        return this;
    }

    @Override
    public FamilyWorld workerConfig(String key, String value) {
        workerConfig().put(key, value);
        return this;
    }

    @Override
    public FamilyWorld sourceExactlyOnce() {
        sourceConfig().put("source.consumer.isolation.level", "read_committed");
        sourceConfig().put("exactly.once.support", "required");
        return this;
    }

    @Override
    public FamilyWorld failSourceTask() {
        connectors.set(0, connector(MirrorMaker2Names.sourceConnector("dc1", "dc2"), "RUNNING", "RUNNING", "FAILED"));
        return this;
    }

    @Override
    public DesiredState adopt(boolean exactlyOnce, Map<String, String> config) {
        return desired(new DesiredMirrorMaker2("mirrormaker2." + NAME, NAME, NS, ManageMode.ADOPT, null, null, null, "dc2",
                null, config, List.of(mirror(exactlyOnce)), Set.of(), null).derived(NS));
    }

    @Override
    public String address() {
        return "mirrormaker2." + NAME;
    }

    /** @return the desired mirror from dc1 */
    static DesiredMirror mirror(boolean exactlyOnce) {
        return new DesiredMirror("dc1", null, Map.of(), null, null, null, Map.of(), Map.of(), exactlyOnce, null);
    }

    /** @return the adopting block with one mirror, derived */
    static DesiredMirrorMaker2 adopt(boolean exactlyOnce) {
        return block(ManageMode.ADOPT, List.of(mirror(exactlyOnce)));
    }

    static DesiredMirrorMaker2 block(ManageMode manage, List<DesiredMirror> mirrors) {
        return new DesiredMirrorMaker2("mirrormaker2." + NAME, NAME, NS, manage, null, null, null, "dc2", null, Map.of(),
                mirrors, Set.of(), null).derived(NS);
    }

    static DesiredState desired(DesiredMirrorMaker2 m) {
        return new DesiredState("prod", List.of(), List.of(), List.of(m));
    }
}
