package dev.flowform.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A KafkaMirrorMaker2 as read from the cluster, with its PodSet {@code <name>-mirrormaker2}, pods and ConfigMap.
 *
 * <p>Both layouts are read: {@code v1beta2} ({@code spec.connectCluster} names the entry of {@code spec.clusters[]}
 * whose {@code config} is the worker configuration; {@code spec.mirrors[].sourceCluster}) and {@code v1}
 * ({@code spec.target.config}, {@code spec.mirrors[].source.alias}); Strimzi {@code KafkaMirrorMaker2Cluster.fromCrd}
 * at 0.45.0 and 1.0.0.
 *
 * @param workers    the object seen as a Connect cluster: its {@code config} is the worker configuration, its PodSet,
 *                   pods and ConfigMap are the MirrorMaker 2 ones, so the roll rule (rule 7) applies as it is
 * @param v1Layout   true when the spec uses the {@code v1} layout ({@code spec.target})
 * @param target     the target (Connect) cluster's alias, or null when the spec names none
 * @param mirrors    {@code spec.mirrors[]}, in spec order
 * @param connectors {@code status.connectors[]}, in status order
 */
public record LiveMirrorMaker2(LiveConnectCluster workers, boolean v1Layout, String target, List<Mirror> mirrors,
                               List<ConnectorState> connectors) implements LiveObject {

    /**
     * One entry of {@code spec.mirrors[]}.
     *
     * @param source           the source cluster alias
     * @param sourceConfig     {@code sourceConnector.config}, values as strings
     * @param checkpoint       true when the entry has a {@code checkpointConnector}
     * @param checkpointConfig {@code checkpointConnector.config}, values as strings
     * @param raw              the whole entry
     */
    public record Mirror(String source, Map<String, String> sourceConfig, boolean checkpoint,
                         Map<String, String> checkpointConfig, Map<String, Object> raw) {
        /** Sorts the configs, copies the entry. */
        public Mirror {
            sourceConfig = Maps.sorted(sourceConfig);
            checkpointConfig = Maps.sorted(checkpointConfig);
            raw = Maps.copy(raw);
        }
    }

    /**
     * One connector of {@code status.connectors[]} (the Connect REST status the operator copies).
     *
     * @param name  e.g. {@code dc1->dc2.MirrorSourceConnector}
     * @param state {@code connector.state}, or null
     * @param trace {@code connector.trace}, or null
     * @param tasks {@code tasks[]}
     */
    public record ConnectorState(String name, String state, String trace, List<TaskStatus> tasks) {
        /** Copies the tasks. */
        public ConnectorState {
            tasks = List.copyOf(tasks);
        }
    }

    /** Copies the lists. */
    public LiveMirrorMaker2 {
        mirrors = List.copyOf(mirrors);
        connectors = List.copyOf(connectors);
    }

    /** Reads a KafkaMirrorMaker2 from the Connect-shaped record of its object (whose {@code config} is ignored). */
    public static LiveMirrorMaker2 of(LiveConnectCluster object) {
        Map<String, Object> spec = object.spec();
        boolean v1 = spec.get("target") instanceof Map<?, ?>;
        String target;
        Map<String, Object> workerConfig;
        if (v1) {
            Map<String, Object> t = Maps.object(spec.get("target"));
            target = str(t.get("alias"));
            workerConfig = Maps.object(t.get("config"));
        } else {
            target = str(spec.get("connectCluster"));
            workerConfig = Maps.object(cluster(spec, target).get("config"));
        }
        LiveConnectCluster workers = new LiveConnectCluster(object.ref(), object.resourceVersion(), object.generation(),
                object.labels(), object.annotations(), spec, strings(workerConfig), object.observedGeneration(),
                object.conditions(), object.podSet(), object.pods(), object.configMap(), object.raw());
        List<Mirror> mirrors = new ArrayList<>();
        for (Object o : list(spec.get("mirrors"))) {
            Map<String, Object> m = Maps.object(o);
            String source = v1 ? str(Maps.object(m.get("source")).get("alias")) : str(m.get("sourceCluster"));
            Object checkpoint = m.get("checkpointConnector");
            mirrors.add(new Mirror(source, strings(Maps.object(Maps.object(m.get("sourceConnector")).get("config"))),
                    checkpoint instanceof Map<?, ?>, strings(Maps.object(Maps.object(checkpoint).get("config"))), m));
        }
        return new LiveMirrorMaker2(workers, v1, target, mirrors, connectorStates(object.raw()));
    }

    @Override
    public ObjectRef ref() {
        return workers.ref();
    }

    /** @return the mirror whose source alias is {@code source}, if any */
    public Optional<Mirror> mirror(String source) {
        return mirrors.stream().filter(m -> source.equals(m.source())).findFirst();
    }

    /** @return the connector named {@code name} in the status, if any */
    public Optional<ConnectorState> connector(String name) {
        return connectors.stream().filter(c -> name.equals(c.name())).findFirst();
    }

    /** @return the entry of {@code spec.clusters[]} with alias {@code alias}, or an empty map */
    public static Map<String, Object> cluster(Map<String, Object> spec, String alias) {
        for (Object o : list(spec.get("clusters"))) {
            Map<String, Object> c = Maps.object(o);
            if (alias != null && alias.equals(str(c.get("alias")))) {
                return c;
            }
        }
        return Map.of();
    }

    private static List<ConnectorState> connectorStates(Map<String, Object> raw) {
        List<ConnectorState> out = new ArrayList<>();
        for (Object o : list(Maps.object(raw.get("status")).get("connectors"))) {
            Map<String, Object> c = Maps.object(o);
            Map<String, Object> connector = Maps.object(c.get("connector"));
            List<TaskStatus> tasks = new ArrayList<>();
            for (Object t : list(c.get("tasks"))) {
                Map<String, Object> task = Maps.object(t);
                Object id = task.get("id");
                tasks.add(new TaskStatus(id instanceof Number n ? n.intValue() : tasks.size(), str(task.get("state")),
                        str(task.get("trace"))));
            }
            out.add(new ConnectorState(str(c.get("name")), str(connector.get("state")), str(connector.get("trace")), tasks));
        }
        return out;
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }

    private static Map<String, String> strings(Map<String, Object> m) {
        Map<String, String> out = new TreeMap<>();
        m.forEach((k, v) -> {
            if (v != null) {
                out.put(k, v.toString());
            }
        });
        return out;
    }
}
