package dev.flowform.sim;

import dev.flowform.model.Condition;
import dev.flowform.model.LiveConfigMap;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LivePod;
import dev.flowform.model.LivePodSet;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.TaskStatus;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Test helper: reads live objects from the embedded cluster into the model records that
 * {@link dev.flowform.plan.RollCheck} and {@link dev.flowform.plan.ConnectorCheck} evaluate. The project's
 * real reader lives in {@code dev.flowform.live}; this one is deliberately small.
 */
final class LiveMapper {
    private LiveMapper() {
    }

    /** @return the KafkaConnect {@code ns/name} with its PodSet, worker pods and ConfigMap, or null */
    static LiveConnectCluster cluster(KubernetesClient client, StrimziApi api, String ns, String name) {
        GenericKubernetesResource kc = client.genericKubernetesResources(StrimziCrds.kafkaConnect(api))
                .inNamespace(ns).withName(name).get();
        if (kc == null) {
            return null;
        }
        Map<String, Object> raw = Json.toMap(kc);
        Map<String, Object> spec = Json.map(raw.get("spec"));
        GenericKubernetesResource ps = client.genericKubernetesResources(StrimziCrds.podSet(api))
                .inNamespace(ns).withName(name + "-connect").get();
        LivePodSet podSet = null;
        if (ps != null) {
            Map<String, Object> psRaw = Json.toMap(ps);
            Map<String, String> revisions = new LinkedHashMap<>();
            for (Object t : Json.list(Json.at(psRaw, "spec", "pods"))) {
                revisions.put(Json.str(Json.map(t), "metadata", "name"),
                        Json.str(Json.map(t), "metadata", "annotations", "strimzi.io/revision"));
            }
            podSet = new LivePodSet(new ObjectRef(ps.getApiVersion(), ps.getKind(), ns, ps.getMetadata().getName()),
                    ps.getMetadata().getGeneration(), Json.lng(psRaw, "status", "observedGeneration"), revisions,
                    integer(psRaw, "pods"), integer(psRaw, "readyPods"), integer(psRaw, "currentPods"));
        }
        List<LivePod> pods = new ArrayList<>();
        for (Pod p : client.pods().inNamespace(ns).withLabels(Map.of("strimzi.io/cluster", name, "strimzi.io/kind", "KafkaConnect"))
                .list().getItems().stream().sorted(Comparator.comparing(p -> p.getMetadata().getName())).toList()) {
            Map<String, String> ann = p.getMetadata().getAnnotations() == null ? Map.of() : p.getMetadata().getAnnotations();
            String env = null;
            for (var c : p.getSpec().getContainers()) {
                for (EnvVar e : c.getEnv()) {
                    if ("KAFKA_CONNECT_CONFIGURATION".equals(e.getName())) {
                        env = e.getValue();
                    }
                }
            }
            pods.add(new LivePod(p.getMetadata().getName(), p.getMetadata().getUid(), ann.get("strimzi.io/revision"),
                    ann.get("strimzi.io/configuration-hash"), StrimziSimulator.ready(p),
                    p.getMetadata().getDeletionTimestamp() != null, env));
        }
        ConfigMap cm = client.configMaps().inNamespace(ns).withName(name + "-connect-config").get();
        LiveConfigMap configMap = cm == null ? null : new LiveConfigMap(new ObjectRef("v1", "ConfigMap", ns, cm.getMetadata().getName()),
                cm.getData() == null ? null : cm.getData().get("kafka-connect.properties"));
        Map<String, String> config = new LinkedHashMap<>();
        Map<String, Object> cfg = spec == null ? null : Json.map(spec.get("config"));
        if (cfg != null) {
            cfg.forEach((k, v) -> config.put(k, String.valueOf(v)));
        }
        return new LiveConnectCluster(new ObjectRef(kc.getApiVersion(), kc.getKind(), ns, name),
                kc.getMetadata().getResourceVersion(), kc.getMetadata().getGeneration(), kc.getMetadata().getLabels(),
                kc.getMetadata().getAnnotations(), spec, config, Json.lng(raw, "status", "observedGeneration"),
                conditions(raw), podSet, pods, configMap, raw);
    }

    /** @return the KafkaConnector {@code ns/name}, or null */
    static LiveConnector connector(KubernetesClient client, StrimziApi api, String ns, String name) {
        GenericKubernetesResource c = client.genericKubernetesResources(StrimziCrds.kafkaConnector(api))
                .inNamespace(ns).withName(name).get();
        if (c == null) {
            return null;
        }
        Map<String, Object> raw = Json.toMap(c);
        Map<String, String> config = new LinkedHashMap<>();
        Map<String, Object> cfg = Json.map(Json.at(raw, "spec", "config"));
        if (cfg != null) {
            cfg.forEach((k, v) -> config.put(k, String.valueOf(v)));
        }
        List<TaskStatus> tasks = new ArrayList<>();
        for (Object t : Json.list(Json.at(raw, "status", "connectorStatus", "tasks"))) {
            Map<String, Object> m = Json.map(t);
            tasks.add(new TaskStatus(Json.lng(m, "id").intValue(), Json.str(m, "state"), Json.str(m, "trace")));
        }
        Long tasksMax = Json.lng(raw, "spec", "tasksMax");
        return new LiveConnector(new ObjectRef(c.getApiVersion(), c.getKind(), ns, name), c.getMetadata().getResourceVersion(),
                c.getMetadata().getGeneration(), c.getMetadata().getLabels(), c.getMetadata().getAnnotations(),
                Json.str(raw, "spec", "class"), tasksMax == null ? null : tasksMax.intValue(), Json.str(raw, "spec", "state"),
                config, Json.lng(raw, "status", "observedGeneration"), conditions(raw),
                Json.str(raw, "status", "connectorStatus", "connector", "state"),
                Json.str(raw, "status", "connectorStatus", "connector", "trace"), tasks, raw);
    }

    private static List<Condition> conditions(Map<String, Object> raw) {
        List<Condition> out = new ArrayList<>();
        for (Object o : Json.list(Json.at(raw, "status", "conditions"))) {
            Map<String, Object> m = Json.map(o);
            out.add(new Condition(Json.str(m, "type"), Json.str(m, "status"), Json.str(m, "reason"), Json.str(m, "message")));
        }
        return out;
    }

    private static Integer integer(Map<String, Object> raw, String key) {
        Long v = Json.lng(raw, "status", key);
        return v == null ? null : v.intValue();
    }
}
