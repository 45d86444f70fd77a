package dev.flowform.sim;

import dev.flowform.connect.ConnectorStatus;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code status} documents the Strimzi operator writes on KafkaConnect and KafkaConnector resources
 * ({@code KafkaConnectStatus}, {@code KafkaConnectorStatus}, {@code StatusUtils} for conditions). Pure: every
 * method builds a new map from its arguments; the caller passes the current time and writes the result.
 */
final class StatusDocuments {
    private StatusDocuments() {
    }

    /**
     * The status of a KafkaConnect whose roll finished: {@code Ready} for generation {@code g}, the REST URL, the
     * plugins (with connector resources and a replica, as Strimzi lists them), replicas and the pod selector.
     */
    static Map<String, Object> connectReady(GenericKubernetesResource kc, long g, int replicas, String version,
                                            List<String> plugins, String now) {
        Map<String, Object> previous = previous(kc);
        String name = kc.getMetadata().getName();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", List.of(condition("Ready", null, null, previous, now)));
        status.put("observedGeneration", g);
        status.put("url", "http://" + Strimzi.serviceName(name) + "." + kc.getMetadata().getNamespace() + ".svc:"
                + Strimzi.CONNECT_REST_PORT);
        if (SimContext.useResources(kc) && replicas > 0) {
            List<Object> list = new ArrayList<>();
            for (String cls : plugins) {
                list.add(Map.of("class", cls, "type", "source", "version", version));
            }
            status.put("connectorPlugins", list);
        }
        status.put("replicas", replicas);
        status.put("labelSelector", Strimzi.CLUSTER_LABEL + "=" + name + "," + Strimzi.NAME_LABEL + "="
                + Strimzi.podSetName(name) + "," + Strimzi.KIND_LABEL + "=" + Strimzi.KAFKA_CONNECT_KIND);
        return status;
    }

    /** The status of a failed KafkaConnect reconcile: the previous status with one {@code NotReady} condition. */
    static Map<String, Object> connectNotReady(GenericKubernetesResource kc, long g, String reason, String message,
                                               String now) {
        Map<String, Object> previous = previous(kc);
        Map<String, Object> status = previous == null ? new LinkedHashMap<>() : new LinkedHashMap<>(previous);
        status.put("conditions", List.of(condition("NotReady", reason, message, previous, now)));
        status.put("observedGeneration", g);
        return status;
    }

    /** The status of a paused resource: the previous one with {@code ReconciliationPaused}, the generation unchanged. */
    static Map<String, Object> paused(GenericKubernetesResource r, String now) {
        Map<String, Object> previous = previous(r);
        Map<String, Object> status = previous == null ? new LinkedHashMap<>() : new LinkedHashMap<>(previous);
        status.put("conditions", List.of(condition("ReconciliationPaused", null, null, previous, now)));
        return status;
    }

    /**
     * The status of a KafkaConnector Kafka Connect runs: {@code Ready}, {@code tasksMax}, the active topics (left out
     * when none) and {@code connectorStatus} ({@code runtime}, null when no worker answered).
     */
    static Map<String, Object> connectorReady(GenericKubernetesResource c, long g, int tasksMax, List<String> topics,
                                              ConnectorStatus runtime, String now) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", List.of(condition("Ready", null, null, previous(c), now)));
        status.put("observedGeneration", g);
        status.put("tasksMax", tasksMax);
        if (!topics.isEmpty()) {
            status.put("topics", topics);
        }
        if (runtime != null) {
            status.put("connectorStatus", connectorStatus(runtime));
        }
        return status;
    }

    /** The status of a KafkaConnector whose reconcile failed: one {@code NotReady} condition, generation, tasksMax. */
    static Map<String, Object> connectorError(GenericKubernetesResource c, long g, String reason, String message, String now) {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", List.of(condition("NotReady", reason, message, previous(c), now)));
        status.put("observedGeneration", g);
        Object tasksMax = JsonMaps.at(c.getAdditionalProperties(), "spec", "tasksMax");
        if (tasksMax != null) {
            status.put("tasksMax", tasksMax);
        }
        return status;
    }

    /**
     * @param s a connector status from Kafka Connect
     * @return it as {@code status.connectorStatus}: {@code name}, {@code connector} (state, worker_id, trace),
     *         {@code tasks} (id, state, worker_id, trace) and {@code type}, in the REST API's field names
     */
    static Map<String, Object> connectorStatus(ConnectorStatus s) {
        Map<String, Object> connector = new LinkedHashMap<>();
        connector.put("state", s.state());
        connector.put("worker_id", s.workerId());
        if (s.trace() != null) {
            connector.put("trace", s.trace());
        }
        List<Object> tasks = new ArrayList<>();
        for (ConnectorStatus.TaskStatus t : s.tasks()) {
            Map<String, Object> task = new LinkedHashMap<>();
            task.put("id", t.id());
            task.put("state", t.state());
            task.put("worker_id", t.workerId());
            if (t.trace() != null) {
                task.put("trace", t.trace());
            }
            tasks.add(task);
        }
        Map<String, Object> cs = new LinkedHashMap<>();
        cs.put("name", s.name());
        cs.put("connector", connector);
        cs.put("tasks", tasks);
        cs.put("type", s.type());
        return cs;
    }

    /**
     * @param object a resource's top-level properties ({@code status} among them)
     * @return true when {@code status.conditions} has {@code type} with status {@code True}
     */
    static boolean hasTrueCondition(Map<String, Object> object, String type) {
        for (Object o : JsonMaps.list(JsonMaps.at(object, "status", "conditions"))) {
            Map<String, Object> c = JsonMaps.map(o);
            if (c != null && type.equals(c.get("type")) && "True".equals(String.valueOf(c.get("status")))) {
                return true;
            }
        }
        return false;
    }

    /**
     * One condition with status {@code True}; {@code lastTransitionTime} stays that of the previous status
     * when it had the same condition (type, reason and message), as {@code StatusUtils} keeps it.
     */
    private static Map<String, Object> condition(String type, String reason, String message, Map<String, Object> previous,
                                                 String now) {
        String since = now;
        for (Object o : JsonMaps.list(previous == null ? null : previous.get("conditions"))) {
            Map<String, Object> old = JsonMaps.map(o);
            if (old != null && type.equals(old.get("type")) && "True".equals(String.valueOf(old.get("status")))
                    && Objects.equals(reason, old.get("reason")) && Objects.equals(message, old.get("message"))
                    && old.get("lastTransitionTime") != null) {
                since = String.valueOf(old.get("lastTransitionTime"));
            }
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", "True");
        if (reason != null) {
            c.put("reason", reason);
        }
        if (message != null) {
            c.put("message", message);
        }
        c.put("lastTransitionTime", since);
        return c;
    }

    private static Map<String, Object> previous(GenericKubernetesResource r) {
        return JsonMaps.map(r.getAdditionalProperties().get("status"));
    }
}
