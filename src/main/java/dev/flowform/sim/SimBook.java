package dev.flowform.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the simulator remembers beyond the Kubernetes objects, persisted with them.
 *
 * <ul>
 *   <li>{@code workerConfigs}: configuration hash to worker properties, so the EOS mode of a Strimzi 0.46+
 *       pod (which only carries {@code strimzi.io/configuration-hash}) is known after its ConfigMap moved on;</li>
 *   <li>{@code runtime}: the connectors Kafka Connect itself runs per cluster (its REST state), which can
 *       differ from the KafkaConnector resources (DESIGN.md rule 6);</li>
 *   <li>{@code adoptions}: pod revisions found on start for specs the simulator did not render itself, so
 *       an annotation-only reconcile of a seeded cluster does not roll it (not persisted: recomputed on start).</li>
 * </ul>
 */
final class SimBook {
    final Map<String, String> workerConfigs = new ConcurrentHashMap<>();
    final Map<String, Map<String, RuntimeConnector>> runtime = new ConcurrentHashMap<>();
    final Map<String, Adoption> adoptions = new ConcurrentHashMap<>();
    final List<String> deletedRuntimeConnectors = java.util.Collections.synchronizedList(new ArrayList<>());

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
     * A connector as Kafka Connect runs it.
     *
     * @param className {@code connector.class}
     * @param config    its configuration
     * @param state     {@code RUNNING}, {@code PAUSED} or {@code STOPPED}
     * @param topics    the topics Kafka Connect reports as active for it ({@code GET /connectors/{name}/topics})
     */
    record RuntimeConnector(String className, Map<String, String> config, String state, List<String> topics) {
        RuntimeConnector {
            config = Map.copyOf(config);
            topics = topics == null ? List.of() : List.copyOf(topics);
        }
    }

    /** @return the JSON-like form stored in the persist file */
    Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workerConfigs", new TreeMap<>(workerConfigs));
        Map<String, Object> rt = new TreeMap<>();
        runtime.forEach((cluster, conns) -> {
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
        out.put("runtimeConnectors", rt);
        return out;
    }

    /** Replaces the persisted parts with {@code json} (as written by {@link #toJson()}); null is ignored. */
    void load(Map<String, Object> json) {
        if (json == null) {
            return;
        }
        Map<String, Object> wc = Json.map(json.get("workerConfigs"));
        if (wc != null) {
            wc.forEach((k, v) -> workerConfigs.put(k, String.valueOf(v)));
        }
        Map<String, Object> rt = Json.map(json.get("runtimeConnectors"));
        if (rt != null) {
            rt.forEach((cluster, conns) -> {
                Map<String, RuntimeConnector> target = runtime.computeIfAbsent(cluster, k -> new ConcurrentHashMap<>());
                Map<String, Object> cs = Json.map(conns);
                if (cs != null) {
                    cs.forEach((name, c) -> {
                        Map<String, Object> m = Json.map(c);
                        Map<String, String> cfg = new LinkedHashMap<>();
                        Map<String, Object> raw = m == null ? null : Json.map(m.get("config"));
                        if (raw != null) {
                            raw.forEach((k, v) -> cfg.put(k, String.valueOf(v)));
                        }
                        List<String> topics = new ArrayList<>();
                        Json.list(m == null ? null : m.get("topics")).forEach(t -> topics.add(String.valueOf(t)));
                        target.put(name, new RuntimeConnector(m == null ? null : Json.str(m, "class"), cfg,
                                m == null ? "RUNNING" : String.valueOf(m.getOrDefault("state", "RUNNING")), topics));
                    });
                }
            });
        }
    }
}
