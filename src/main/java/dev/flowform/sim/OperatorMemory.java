package dev.flowform.sim;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the simulated operator remembers beyond the Kubernetes objects: worker properties by configuration hash
 * (persisted), the connectors Kafka Connect runs (persisted through the {@link SimulatedConnectRuntime}), pod
 * revisions adopted from a seed so it is not rolled for nothing, and the connectors it deleted (neither persisted).
 */
final class OperatorMemory {
    final Map<String, String> workerConfigs = new ConcurrentHashMap<>();
    final Map<String, Adoption> adoptions = new ConcurrentHashMap<>();
    final List<String> deletedRuntimeConnectors = Collections.synchronizedList(new ArrayList<>());

    /**
     * A pod revision found in the cluster for a spec fingerprint.
     *
     * @param fingerprint {@link WorkerConfig#fingerprint(Map)} of the spec it belongs to
     * @param revision    the PodSet's {@code strimzi.io/revision}
     * @param fileText    the ConfigMap's {@code kafka-connect.properties} at that time, or null
     * @param envText     a pod's {@code KAFKA_CONNECT_CONFIGURATION} at that time, or null
     */
    record Adoption(String fingerprint, String revision, String fileText, String envText) {
    }

    /**
     * @param runtime the Connect runtime; only a {@link SimulatedConnectRuntime}'s connectors are persisted
     *                (a real runtime keeps them in Kafka)
     * @return the JSON-like form stored in the persist file
     */
    Map<String, Object> toJson(ConnectRuntime runtime) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workerConfigs", new TreeMap<>(workerConfigs));
        Map<String, Object> rt = new TreeMap<>();
        if (runtime instanceof SimulatedConnectRuntime simulated) {
            simulated.exportConnectors().forEach((cluster, conns) -> {
                Map<String, Object> cs = new TreeMap<>();
                conns.forEach((name, c) -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("class", c.className());
                    m.put("state", c.state());
                    m.put("config", new TreeMap<>(c.config()));
                    m.put("topics", c.topics());
                    cs.put(name, m);
                });
                rt.put(cluster, cs);
            });
        }
        out.put("runtimeConnectors", rt);
        return out;
    }

    /** Replaces the persisted parts with {@code json} ({@link #toJson(ConnectRuntime)}'s form; null is ignored). */
    void load(Map<String, Object> json, ConnectRuntime runtime) {
        if (json == null) {
            return;
        }
        Map<String, Object> wc = JsonMaps.map(json.get("workerConfigs"));
        if (wc != null) {
            wc.forEach((k, v) -> workerConfigs.put(k, String.valueOf(v)));
        }
        Map<String, Object> rt = JsonMaps.map(json.get("runtimeConnectors"));
        if (rt != null && runtime instanceof SimulatedConnectRuntime simulated) {
            rt.forEach((cluster, conns) -> {
                Map<String, Object> cs = JsonMaps.map(conns);
                if (cs != null) {
                    cs.forEach((name, c) -> {
                        Map<String, Object> m = JsonMaps.map(c);
                        Map<String, String> cfg = new LinkedHashMap<>();
                        Map<String, Object> raw = m == null ? null : JsonMaps.map(m.get("config"));
                        if (raw != null) {
                            raw.forEach((k, v) -> cfg.put(k, String.valueOf(v)));
                        }
                        List<String> topics = new ArrayList<>();
                        JsonMaps.list(m == null ? null : m.get("topics")).forEach(t -> topics.add(String.valueOf(t)));
                        simulated.importConnector(cluster, name, new SimulatedConnectRuntime.Connector(
                                m == null ? null : JsonMaps.str(m, "class"), cfg,
                                m == null ? "RUNNING" : String.valueOf(m.getOrDefault("state", "RUNNING")), topics));
                    });
                }
            });
        }
    }
}
