package dev.flowform.plan;

import dev.flowform.config.ClusterEndpoint;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.config.ReplicationFlowBlock;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.testing.Configs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The cross product of live situations the planner must handle, as {@link Case}s: each names
 * one live state of one Connect cluster with one replication flow, the desired state and the user's flags.
 *
 * <p>Core dimensions, enumerated completely: Strimzi API version × EOS value in the spec × roll status
 * (with the mode of not-yet-rolled workers) × connector-resources annotation × source connector
 * (absent / config / status) × checkpoint connector × desired EOS on or off × the two acknowledgement
 * flags. Extra dimensions (another connector on the cluster, replicas, Kafka version, flow ownership, a
 * non-EOS cluster edit) are assigned by a mixed-radix counter over the core index, so every extra value
 * meets every core value many times without multiplying the count by 300.
 */
final class StateSpace {

    /** {@code exactly.once.source.support} as written in the spec (absent is Kafka's default, disabled). */
    enum EosSpec {
        ABSENT(null), DISABLED("disabled"), PREPARING("preparing"), ENABLED("enabled");

        final String value;

        EosSpec(String value) {
            this.value = value;
        }

        EosMode mode() {
            return value == null ? EosMode.DISABLED : EosMode.parse(value).orElseThrow();
        }
    }

    /** The flow's source connector: presence, configuration and runtime status. */
    enum Source {
        ABSENT, EOS_OFF_RUNNING, EOS_ON_RUNNING, OTHER_TOPICS_RUNNING, EOS_ON_FAILED, EOS_OFF_FAILED, EOS_OFF_PAUSED,
        EOS_ON_STOPPED
    }

    /** The flow's checkpoint connector. */
    enum Checkpoint { ABSENT, MATCHING, WITH_REQUIRED }

    /** Another connector on the same Connect cluster, not produced by the configuration's flow. */
    enum Other { NONE, FLOWFORM_ORPHAN, OTHER_ENVIRONMENT_ORPHAN, UNMANAGED, UNMANAGED_REQUIRED }

    /**
     * One situation.
     *
     * @param api               Strimzi API version
     * @param spec              EOS value in the KafkaConnect spec
     * @param roll              what the operator did with the current generation
     * @param previous          mode of workers not rolled yet (ignored when rolled or paused)
     * @param annotation        strimzi.io/use-connector-resources present
     * @param source            the source connector
     * @param checkpoint        the checkpoint connector
     * @param desiredEos        the flow's exactly_once
     * @param ack               --accept-failed-reconcile
     * @param enableAnnotation  --enable-connector-resources
     * @param other             another connector on the cluster
     * @param replicas          spec.replicas
     * @param version           spec.version, null when absent
     * @param flowManage        own or adopt for the flow
     * @param clusterEdit       the configuration also changes a non-EOS worker setting
     */
    record Case(StrimziApi api, EosSpec spec, World.Roll roll, EosMode previous, boolean annotation, Source source,
                Checkpoint checkpoint, boolean desiredEos, boolean ack, boolean enableAnnotation, Other other, int replicas,
                String version, ManageMode flowManage, boolean clusterEdit) {

        /** @return the EOS mode the cluster should end at */
        EosMode target() {
            return desiredEos ? EosMode.ENABLED : EosMode.DISABLED;
        }

        /** @return the planner options of the flags */
        PlanOptions options() {
            return PlanOptions.DEFAULT.withAcceptFailedReconcile(ack).withEnableConnectorResources(enableAnnotation);
        }

        @Override
        public String toString() {
            return api.version() + "/" + spec + "/" + roll + (roll == World.Roll.ROLLED || roll == World.Roll.PAUSED ? "" : "-from-" + previous)
                    + (annotation ? "" : "/no-annotation") + "/source-" + source + "/checkpoint-" + checkpoint + "/eos-"
                    + (desiredEos ? "on" : "off") + (ack ? "/ack" : "") + (enableAnnotation ? "/enable-annotation" : "")
                    + "/other-" + other + "/replicas-" + replicas + "/kafka-" + version + "/flow-" + flowManage.value()
                    + (clusterEdit ? "/cluster-edit" : "");
        }
    }

    static final Integer[] REPLICAS = {0, 1, 3};
    static final String[] VERSIONS = {null, "3.2.3", "3.4.1", "3.5.2", "3.9.0.1.4"};

    private StateSpace() {
    }

    /** Calls {@code each} for every case of the core cross product; returns how many. */
    static int enumerate(Consumer<Case> each) {
        int n = 0;
        for (StrimziApi api : StrimziApi.values()) {
            for (EosSpec spec : EosSpec.values()) {
                for (World.Roll roll : World.Roll.values()) {
                    List<EosMode> previous = roll == World.Roll.ROLLED || roll == World.Roll.PAUSED
                            ? List.of(spec.mode()) : List.of(EosMode.values());
                    for (EosMode prev : previous) {
                        for (boolean annotation : new boolean[] {true, false}) {
                            for (Source source : Source.values()) {
                                for (Checkpoint checkpoint : Checkpoint.values()) {
                                    for (boolean desiredEos : new boolean[] {true, false}) {
                                        for (int flags = 0; flags < 4; flags++) {
                                            each.accept(withExtras(n, api, spec, roll, prev, annotation, source, checkpoint,
                                                    desiredEos, (flags & 1) != 0, (flags & 2) != 0));
                                            n++;
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return n;
    }

    private static Case withExtras(int index, StrimziApi api, EosSpec spec, World.Roll roll, EosMode prev, boolean annotation,
                                   Source source, Checkpoint checkpoint, boolean desiredEos, boolean ack,
                                   boolean enableAnnotation) {
        // mixed radix over primes-coprime strides, so neighbouring core cases get different extras
        int i = index;
        Other other = Other.values()[Math.floorMod(i * 7 + 3, Other.values().length)];
        int replicas = REPLICAS[Math.floorMod(i / 5 * 11 + i, REPLICAS.length)];
        String version = VERSIONS[Math.floorMod(i / 3 * 13 + i, VERSIONS.length)];
        ManageMode manage = Math.floorMod(i / 2 + i / 7, 2) == 0 ? ManageMode.ADOPT : ManageMode.OWN;
        boolean clusterEdit = Math.floorMod(i / 11 + i / 13, 4) == 0;
        return new Case(api, spec, roll, prev, annotation, source, checkpoint, desiredEos, ack, enableAnnotation, other,
                replicas, version, manage, clusterEdit);
    }

    // ------------------------------------------------------------------------------------------ desired

    private static final Map<String, DesiredState> DESIRED = new ConcurrentHashMap<>();

    /** @return the configuration of a case: connect_cluster mm2-connect (adopt) and flow dc1-to-dc2 */
    static DesiredState desired(Case c) {
        return DESIRED.computeIfAbsent(c.desiredEos() + "/" + c.flowManage() + "/" + c.clusterEdit(), k -> {
            Map<String, String> config = c.clusterEdit() ? Map.of("offset.flush.interval.ms", "10000") : Map.of();
            DesiredConnectCluster cluster = new DesiredConnectCluster("connect_cluster.mm2-connect", "mm2-connect", null,
                    ManageMode.ADOPT, null, null, null, null, config, Map.of(), Set.of(), null);
            return Configs.desired(List.of(cluster), List.of(flowBlock(c)));
        });
    }

    /** @return the replication_flow block of a case: adopted (aliases and EOS only) or owned (connection details too) */
    static ReplicationFlowBlock flowBlock(Case c) {
        return c.flowManage() == ManageMode.ADOPT ? Configs.adoptedFlow(c.desiredEos())
                : new ReplicationFlowBlock("replication_flow.dc1-to-dc2", "dc1-to-dc2", ManageMode.OWN, "mm2-connect", null,
                        new ClusterEndpoint("dc1", "dc1-kafka-bootstrap.kafka-dc1.svc:9093", Map.of(), Set.of()),
                        new ClusterEndpoint("dc2", "dc2-kafka-bootstrap.kafka-dc2.svc:9093", Map.of(), Set.of()),
                        List.of("orders\\..*"), null, List.of(".*"), c.desiredEos(), null, null, 2, null, null, Map.of(),
                        Map.of(), null, Set.of(), null);
    }

    // ------------------------------------------------------------------------------------------ live

    /** @return the live world of a case */
    static World world(Case c) {
        World w = new World(c.api());
        w.kc = w.connect(c.spec().value, c.replicas(), c.version(), c.annotation(), c.roll() == World.Roll.PAUSED);
        w.roll = c.roll();
        w.previous = c.previous();
        DesiredState desired = desired(c);
        DesiredConnector source = desired.flows().get(0).connectors().get(0);
        DesiredConnector checkpoint = desired.flows().get(0).connectors().get(1);
        if (c.source() != Source.ABSENT) {
            Map<String, String> config = connectorConfig(source, c.source().name().startsWith("EOS_ON"));
            if (c.source() == Source.OTHER_TOPICS_RUNNING) {
                config = connectorConfig(source, c.desiredEos());
                config.put("topics", "legacy\\..*");
            }
            String state = switch (c.source()) {
                case EOS_OFF_PAUSED -> "paused";
                case EOS_ON_STOPPED -> "stopped";
                default -> null;
            };
            w.connectors.put(source.name(), w.connector(source.name(), source.className(), 2, state, config, labels(c)));
            w.statuses.put(source.name(), switch (c.source()) {
                case EOS_ON_FAILED, EOS_OFF_FAILED -> World.Status.FAILED;
                case EOS_OFF_PAUSED -> World.Status.PAUSED;
                case EOS_ON_STOPPED -> World.Status.STOPPED;
                default -> World.Status.RUNNING;
            });
        }
        if (c.checkpoint() != Checkpoint.ABSENT) {
            Map<String, String> config = connectorConfig(checkpoint, false);
            if (c.checkpoint() == Checkpoint.WITH_REQUIRED) {
                config.put("exactly.once.support", "required");
            }
            w.connectors.put(checkpoint.name(), w.connector(checkpoint.name(), checkpoint.className(), 1, null, config,
                    labels(c)));
            w.statuses.put(checkpoint.name(), c.checkpoint() == Checkpoint.WITH_REQUIRED ? World.Status.FAILED
                    : World.Status.RUNNING);
        }
        for (DesiredConnector d : desired.flows().get(0).connectors()) {
            if (d.role() == ConnectorRole.HEARTBEAT) {
                w.connectors.put(d.name(), w.connector(d.name(), d.className(), 1, null, connectorConfig(d, false), labels(c)));
                w.statuses.put(d.name(), World.Status.RUNNING);
            }
        }
        switch (c.other()) {
            case FLOWFORM_ORPHAN -> addOther(w, "old-flow-source", Map.of(Strimzi.MANAGED_BY_LABEL, "flowform",
                    Planner.ENVIRONMENT_LABEL, "test"), false);
            case OTHER_ENVIRONMENT_ORPHAN -> addOther(w, "staging-flow-source", Map.of(Strimzi.MANAGED_BY_LABEL, "flowform",
                    Planner.ENVIRONMENT_LABEL, "staging"), false);
            case UNMANAGED -> addOther(w, "hand-made-source", Map.of(), false);
            case UNMANAGED_REQUIRED -> addOther(w, "hand-made-eos-source", Map.of(), true);
            default -> { }
        }
        return w;
    }

    private static Map<String, String> labels(Case c) {
        return c.flowManage() == ManageMode.OWN
                ? Map.of(Strimzi.MANAGED_BY_LABEL, "flowform", Planner.ENVIRONMENT_LABEL, "test") : Map.of();
    }

    private static void addOther(World w, String name, Map<String, String> labels, boolean required) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("source.cluster.alias", "dc3");
        config.put("target.cluster.alias", "dc2");
        if (required) {
            config.put("exactly.once.support", "required");
            config.put("source.consumer.isolation.level", "read_committed");
        }
        w.connectors.put(name, w.connector(name, ConnectorRole.SOURCE.connectorClass(), 1, null, config, labels));
        w.statuses.put(name, World.Status.RUNNING);
    }

    /**
     * @return the configuration the desired connector wants, with its EOS keys for {@code eos} (for an adopted
     *         flow, also the keys it does not manage, as a running MM2 flow has them)
     */
    private static Map<String, String> connectorConfig(DesiredConnector d, boolean eos) {
        Map<String, String> config = new LinkedHashMap<>();
        if (d.manage() == ManageMode.ADOPT) {
            config.put("source.cluster.bootstrap.servers", "dc1-kafka-bootstrap.kafka-dc1.svc:9093");
            config.put("topics", "orders\\..*");
        }
        config.putAll(d.config());
        config.remove("exactly.once.support");
        config.remove("source.consumer.isolation.level");
        if (eos && d.role() == ConnectorRole.SOURCE) {
            config.put("exactly.once.support", "required");
            config.put("source.consumer.isolation.level", "read_committed");
        }
        return config;
    }

    /** @return every enumerated case in a list (for tests that sample) */
    static List<Case> all() {
        List<Case> out = new ArrayList<>();
        enumerate(out::add);
        return out;
    }
}
