package dev.flowform.live;

import dev.flowform.model.Condition;
import dev.flowform.model.LiveConfigMap;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveKafkaUser;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.LivePod;
import dev.flowform.model.LivePodSet;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Maps fabric8 objects to the {@code model} records. Shared by the reader and apply's waiters so
 * both judge the same fields the same way.
 */
public final class LiveMapper {

    private LiveMapper() {
    }

    /**
     * Assembles a KafkaConnect with its PodSet, pods and ConfigMap.
     *
     * @param kc        the KafkaConnect
     * @param podSet    the StrimziPodSet {@code <name>-connect}, or null
     * @param pods      the worker pods of this cluster
     * @param configMap the ConfigMap {@code <name>-connect-config}, or null
     * @return the model record
     */
    public static LiveConnectCluster connectCluster(GenericKubernetesResource kc, GenericKubernetesResource podSet,
                                                    Collection<GenericKubernetesResource> pods, GenericKubernetesResource configMap) {
        Map<String, Object> spec = map(kc.getAdditionalProperties().get("spec"));
        Map<String, Object> status = map(kc.getAdditionalProperties().get("status"));
        List<LivePod> livePods = new ArrayList<>();
        for (GenericKubernetesResource p : pods) {
            livePods.add(pod(p));
        }
        livePods.sort(java.util.Comparator.comparing(LivePod::name));
        return new LiveConnectCluster(ref(kc), kc.getMetadata().getResourceVersion(), generation(kc),
                strings(kc.getMetadata().getLabels()), strings(kc.getMetadata().getAnnotations()), spec,
                stringify(map(spec.get("config"))), longOrNull(status.get("observedGeneration")),
                conditions(status.get("conditions")), podSet == null ? null : podSet(podSet), livePods,
                configMap == null ? null : new LiveConfigMap(
                        new ObjectRef("v1", "ConfigMap", configMap.getMetadata().getNamespace(), configMap.getMetadata().getName()),
                        str(map(configMap.getAdditionalProperties().get("data")).get(Strimzi.CONNECT_PROPERTIES_KEY))),
                raw(kc));
    }

    /**
     * Assembles a KafkaMirrorMaker2 with its PodSet {@code <name>-mirrormaker2}, pods and ConfigMap
     * {@code <name>-mirrormaker2-config}.
     *
     * @param mm2       the KafkaMirrorMaker2
     * @param podSet    its StrimziPodSet, or null
     * @param pods      its pods
     * @param configMap its ConfigMap, or null
     * @return the model record
     */
    public static LiveMirrorMaker2 mirrorMaker(GenericKubernetesResource mm2, GenericKubernetesResource podSet,
                                               Collection<GenericKubernetesResource> pods, GenericKubernetesResource configMap) {
        return LiveMirrorMaker2.of(connectCluster(mm2, podSet, pods, configMap));
    }

    /** @return the KafkaUser as a model record (its spec: authentication type, authorization, ACLs) */
    public static LiveKafkaUser kafkaUser(GenericKubernetesResource r) {
        return LiveKafkaUser.of(ref(r), map(r.getAdditionalProperties().get("spec")));
    }

    /** @return the KafkaConnector as a model record */
    public static LiveConnector connector(GenericKubernetesResource r) {
        Map<String, Object> spec = map(r.getAdditionalProperties().get("spec"));
        Map<String, Object> status = map(r.getAdditionalProperties().get("status"));
        Map<String, Object> cs = map(status.get("connectorStatus"));
        Map<String, Object> conn = map(cs.get("connector"));
        List<TaskStatus> tasks = new ArrayList<>();
        if (cs.get("tasks") instanceof List<?> l) {
            for (Object o : l) {
                Map<String, Object> t = map(o);
                Object id = t.get("id");
                tasks.add(new TaskStatus(id instanceof Number n ? n.intValue() : Integer.parseInt(String.valueOf(id)),
                        str(t.get("state")), str(t.get("trace"))));
            }
        }
        Object tm = spec.get("tasksMax");
        return new LiveConnector(ref(r), r.getMetadata().getResourceVersion(), generation(r),
                strings(r.getMetadata().getLabels()), strings(r.getMetadata().getAnnotations()), str(spec.get("class")),
                tm instanceof Number n ? Integer.valueOf(n.intValue()) : tm == null ? null : Integer.valueOf(tm.toString()),
                str(spec.get("state")), stringify(map(spec.get("config"))), longOrNull(status.get("observedGeneration")),
                conditions(status.get("conditions")), str(conn.get("state")), str(conn.get("trace")), tasks, raw(r));
    }

    /** @return the model record of a StrimziPodSet */
    public static LivePodSet podSet(GenericKubernetesResource ps) {
        Map<String, Object> spec = map(ps.getAdditionalProperties().get("spec"));
        Map<String, Object> status = map(ps.getAdditionalProperties().get("status"));
        Map<String, String> revisions = new LinkedHashMap<>();
        if (spec.get("pods") instanceof List<?> l) {
            for (Object o : l) {
                Map<String, Object> md = map(map(o).get("metadata"));
                revisions.put(str(md.get("name")), str(map(md.get("annotations")).get(Strimzi.REVISION_ANNOTATION)));
            }
        }
        return new LivePodSet(ref(ps), generation(ps), longOrNull(status.get("observedGeneration")), revisions,
                intOrNull(status.get("pods")), intOrNull(status.get("readyPods")), intOrNull(status.get("currentPods")),
                strings(ps.getMetadata().getAnnotations()));
    }

    /**
     * @param p a worker pod as fabric8's generic client reads it ({@link CoreResources#PODS})
     * @return the model record: Ready condition, revision and configuration-hash annotations, the Connect
     *         configuration environment variable of its containers, the first container's image
     */
    public static LivePod pod(GenericKubernetesResource p) {
        Map<String, String> ann = strings(p.getMetadata().getAnnotations());
        boolean ready = false;
        for (Object c : list(map(p.getAdditionalProperties().get("status")).get("conditions"))) {
            if ("Ready".equals(map(c).get("type")) && "True".equalsIgnoreCase(str(map(c).get("status")))) {
                ready = true;
            }
        }
        List<?> containers = list(map(p.getAdditionalProperties().get("spec")).get("containers"));
        String image = containers.isEmpty() ? null : str(map(containers.get(0)).get("image"));
        String env = null;
        for (Object c : containers) {
            for (Object e : list(map(c).get("env"))) {
                if (Strimzi.CONNECT_CONFIGURATION_ENV.equals(map(e).get("name"))) {
                    env = str(map(e).get("value"));
                }
            }
        }
        return new LivePod(p.getMetadata().getName(), p.getMetadata().getUid(), ann.get(Strimzi.REVISION_ANNOTATION), ann.get(Strimzi.CONFIG_HASH_ANNOTATION),
                ready, p.getMetadata().getDeletionTimestamp() != null, env, image, p.getMetadata().getCreationTimestamp());
    }

    /** @return the object's identity */
    public static ObjectRef ref(HasMetadata r) {
        return new ObjectRef(r.getApiVersion(), r.getKind(), r.getMetadata().getNamespace(), r.getMetadata().getName());
    }

    /** @return {@code Kind namespace/name}: the key of fingerprints and snapshots */
    public static String key(HasMetadata r) {
        return r.getKind() + " " + r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
    }

    /**
     * A content fingerprint of an object: SHA-256 over its labels, annotations, generation, spec and status, so it
     * changes exactly when they do, ignores writes that changed nothing and survives a reload of the embedded cluster.
     *
     * @return 64 hex characters
     */
    public static String fingerprint(GenericKubernetesResource r) {
        Map<String, Object> m = new TreeMap<>();
        m.put("labels", new TreeMap<>(strings(r.getMetadata().getLabels())));
        m.put("annotations", new TreeMap<>(strings(r.getMetadata().getAnnotations())));
        m.put("generation", generation(r));
        m.put("spec", r.getAdditionalProperties().get("spec"));
        m.put("status", r.getAdditionalProperties().get("status"));
        String canonical = Serialization.jsonMapper().writer()
                .with(tools.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).writeValueAsString(m);
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /** @return the object as JSON-like maps */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> raw(HasMetadata r) {
        return Serialization.jsonMapper().convertValue(r, LinkedHashMap.class);
    }

    private static long generation(HasMetadata r) {
        Long g = r.getMetadata().getGeneration();
        return g == null ? 0 : g;
    }

    /** @return {@code o} as a map, or an empty map when it is not one */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static Map<String, String> strings(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }

    /**
     * @return the map with every scalar value as the string Kafka would see ({@code 3}, {@code true});
     *         nested values rendered as JSON
     */
    public static Map<String, String> stringify(Map<String, Object> m) {
        Map<String, String> out = new TreeMap<>();
        m.forEach((k, v) -> {
            if (v != null) {
                out.put(k, v instanceof Map<?, ?> || v instanceof List<?>
                        ? Serialization.asJson(v) : v.toString());
            }
        });
        return out;
    }

    private static List<Condition> conditions(Object o) {
        List<Condition> out = new ArrayList<>();
        if (o instanceof List<?> l) {
            for (Object c : l) {
                Map<String, Object> m = map(c);
                out.add(new Condition(str(m.get("type")), str(m.get("status")), str(m.get("reason")), str(m.get("message"))));
            }
        }
        return out;
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }

    private static Long longOrNull(Object o) {
        return o instanceof Number n ? n.longValue() : o == null ? null : Long.valueOf(o.toString());
    }

    private static Integer intOrNull(Object o) {
        return o instanceof Number n ? n.intValue() : o == null ? null : Integer.valueOf(o.toString());
    }
}
