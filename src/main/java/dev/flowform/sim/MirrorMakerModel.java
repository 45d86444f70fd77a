package dev.flowform.sim;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a KafkaMirrorMaker2 spec becomes, as Strimzi's {@code KafkaMirrorMaker2Cluster} and
 * {@code KafkaMirrorMaker2Connectors} derive it: worker configuration, pod revision and the connectors with their
 * names and merged configuration ({@code prepareMirrorMaker2ConnectorConfig}). Pure.
 *
 * @param name       the resource name
 * @param replicas   {@code spec.replicas} (Strimzi's default 3)
 * @param target     the target alias
 * @param rendered   the worker configuration
 * @param revision   {@code strimzi.io/revision} of its pods
 * @param connectors connector name to its configuration (with {@code connector.class} and {@code tasks.max}), in order
 */
record MirrorMakerModel(String name, int replicas, String target, WorkerConfig.Rendered rendered, String revision,
                        Map<String, Map<String, String>> connectors) {

    private static final String MIRROR_PACKAGE = "org.apache.kafka.connect.mirror.";
    private static final String BYTE_ARRAY_CONVERTER = "org.apache.kafka.connect.converters.ByteArrayConverter";
    /**
     * Strimzi's {@code KafkaMirrorMaker2Configuration.DEFAULTS}: byte-array converters, the {@code mirrormaker2-cluster}
     * group and topics ({@code v1beta2}) and the file config provider.
     */
    static final Map<String, String> WORKER_DEFAULTS = Map.of(
            "group.id", "mirrormaker2-cluster",
            "offset.storage.topic", "mirrormaker2-cluster-offsets",
            "config.storage.topic", "mirrormaker2-cluster-configs",
            "status.storage.topic", "mirrormaker2-cluster-status",
            "key.converter", BYTE_ARRAY_CONVERTER,
            "value.converter", BYTE_ARRAY_CONVERTER,
            "header.converter", BYTE_ARRAY_CONVERTER,
            "config.providers", "file",
            "config.providers.file.class", "org.apache.kafka.common.config.provider.FileConfigProvider");

    /** @return the model of {@code mm2} as read, as Strimzi 0.49+ derives it (the pods carry the configuration hash) */
    static MirrorMakerModel of(GenericKubernetesResource mm2) {
        return of(mm2, true);
    }

    /** @return the model of {@code mm2}; {@code hashOnPods} false for Strimzi 0.46-0.48 (a config change alone does not roll) */
    static MirrorMakerModel of(GenericKubernetesResource mm2, boolean hashOnPods) {
        Map<String, Object> spec = SimContext.spec(mm2);
        boolean v1 = spec.get("target") instanceof Map<?, ?>;
        Map<String, Object> targetEntry = v1 ? obj(spec.get("target"))
                : entry(spec, String.valueOf(spec.get("connectCluster")));
        String target = JsonMaps.str(targetEntry, "alias");
        // v1: group id and storage topics are fields of spec.target, rendered as a v1 KafkaConnect spec's
        Map<String, Object> connectSpec = new LinkedHashMap<>(v1 ? targetEntry : Map.of());
        connectSpec.put("bootstrapServers", targetEntry.getOrDefault("bootstrapServers", ""));
        connectSpec.put("config", obj(targetEntry.getOrDefault("config", Map.of())));
        WorkerConfig.Rendered rendered = WorkerConfig.render(connectSpec, v1 ? StrimziApi.V1 : StrimziApi.V1BETA2,
                WORKER_DEFAULTS);
        Map<String, Object> podShape = podShape(spec);
        podShape.remove("replicas");
        String revision = hashOnPods ? WorkerConfig.revision(podShape, rendered)
                : Strimzi.sha1Prefix("pod-revision\n" + JsonMaps.canonicalJson(withoutClusters(podShape)));
        Map<String, Map<String, String>> connectors = new LinkedHashMap<>();
        for (Object o : JsonMaps.list(spec.get("mirrors"))) {
            Map<String, Object> m = obj(o);
            Map<String, Object> sourceEntry = v1 ? obj(m.get("source")) : entry(spec, JsonMaps.str(m, "sourceCluster"));
            String source = JsonMaps.str(sourceEntry, "alias");
            if (source == null) {
                continue;
            }
            connectors.put(MirrorMaker2Names.sourceConnector(source, target),
                    connector("MirrorSourceConnector", sourceEntry, targetEntry, m, obj(m.get("sourceConnector"))));
            if (m.get("checkpointConnector") instanceof Map<?, ?> || !v1) {
                connectors.put(MirrorMaker2Names.checkpointConnector(source, target), connector("MirrorCheckpointConnector",
                        sourceEntry, targetEntry, m, obj(m.get("checkpointConnector"))));
            }
        }
        Object r = spec.get("replicas");
        int replicas = r instanceof Number n ? Math.max(0, n.intValue()) : 3;
        return new MirrorMakerModel(mm2.getMetadata().getName(), replicas, target, rendered, revision, connectors);
    }

    /**
     * @return connector name to target state for the connectors of {@code mm2} that are not to run: the entry's
     *         {@code state} (Strimzi 0.38+), else the deprecated {@code pause: true}
     */
    static Map<String, ConnectRuntime.TargetState> targetStates(GenericKubernetesResource mm2) {
        Map<String, Object> spec = SimContext.spec(mm2);
        boolean v1 = spec.get("target") instanceof Map<?, ?>;
        String target = JsonMaps.str(v1 ? obj(spec.get("target")) : entry(spec, String.valueOf(spec.get("connectCluster"))),
                "alias");
        Map<String, ConnectRuntime.TargetState> out = new LinkedHashMap<>();
        for (Object o : JsonMaps.list(spec.get("mirrors"))) {
            Map<String, Object> m = obj(o);
            String source = JsonMaps.str(v1 ? obj(m.get("source")) : entry(spec, JsonMaps.str(m, "sourceCluster")), "alias");
            if (source != null) {
                out.put(MirrorMaker2Names.sourceConnector(source, target),
                        ConnectorReconciler.targetState(obj(m.get("sourceConnector"))));
                out.put(MirrorMaker2Names.checkpointConnector(source, target),
                        ConnectorReconciler.targetState(obj(m.get("checkpointConnector"))));
            }
        }
        return out;
    }

    /**
     * @param mm2 a KafkaMirrorMaker2
     * @return a fingerprint of everything that shapes its pods (all of the spec but {@code mirrors} and {@code replicas})
     */
    static String fingerprint(GenericKubernetesResource mm2) {
        return fingerprint(mm2, true);
    }

    /**
     * @return what shapes the pods: the spec without {@code mirrors}, but with the cluster aliases the pods carry in
     *         {@code KAFKA_MIRRORMAKER_2_CLUSTERS} (Strimzi {@code KafkaMirrorMaker2Cluster.getEnvVars}: in {@code v1}
     *         the target and every mirror's source, in {@code v1beta2} {@code spec.clusters[]}, already part of the spec)
     */
    private static Map<String, Object> podShape(Map<String, Object> spec) {
        Map<String, Object> shape = new LinkedHashMap<>(spec);
        shape.remove("mirrors");
        if (spec.get("target") instanceof Map<?, ?>) {
            List<Object> aliases = new ArrayList<>();
            for (Object o : JsonMaps.list(spec.get("mirrors"))) {
                aliases.add(JsonMaps.str(obj(obj(o).get("source")), "alias"));
            }
            shape.put("mirrorSourceAliases", aliases);
        }
        return shape;
    }

    /** @return a fingerprint of what shapes {@code mm2}'s pods (without the cluster entries unless {@code hashOnPods}) */
    static String fingerprint(GenericKubernetesResource mm2, boolean hashOnPods) {
        Map<String, Object> podShape = podShape(SimContext.spec(mm2));
        return WorkerConfig.fingerprint(hashOnPods ? podShape : withoutClusters(podShape));
    }

    /** @return the pod-shaping spec without the cluster entries and replicas, whose settings go to the ConfigMap */
    private static Map<String, Object> withoutClusters(Map<String, Object> podShape) {
        Map<String, Object> copy = new LinkedHashMap<>(podShape);
        copy.remove("clusters");
        copy.remove("target");
        copy.remove("connectCluster");
        copy.remove("replicas");
        copy.remove("mirrors");
        return copy;
    }

    /**
     * @param adoptedRevision the revision the pods of a seeded resource run
     * @return this model with only the revision taken over (its ConfigMap text stays the rendered one)
     */
    MirrorMakerModel withRevision(String adoptedRevision) {
        return new MirrorMakerModel(name, replicas, target, rendered, adoptedRevision, connectors);
    }

    /**
     * @param adoptedRevision the revision the pods of a seeded resource run
     * @param fileText        the worker configuration its ConfigMap holds
     * @return this model with the pods' revision and configuration taken over
     */
    MirrorMakerModel adopting(String adoptedRevision, String fileText) {
        return new MirrorMakerModel(name, replicas, target, new WorkerConfig.Rendered(rendered.body(), fileText),
                adoptedRevision, connectors);
    }

    /** @return the pod template of pod {@code ordinal}, with the revision and (unless {@code noHash}) the hash */
    Map<String, Object> podTemplate(int ordinal, String image, boolean noHash) {
        String podName = MirrorMaker2Names.podName(name, ordinal);
        Map<String, String> labels = new LinkedHashMap<>(selectorLabels());
        labels.put("strimzi.io/pod-name", podName);
        labels.put("strimzi.io/controller", "strimzipodset");
        labels.put("strimzi.io/controller-name", MirrorMaker2Names.podSetName(name));
        labels.put("strimzi.io/component-type", "kafka-mirror-maker-2");
        labels.put(Strimzi.MANAGED_BY_LABEL, "strimzi-cluster-operator");
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(Strimzi.REVISION_ANNOTATION, revision);
        if (!noHash) {
            annotations.put(Strimzi.CONFIG_HASH_ANNOTATION, rendered.configurationHash());
        }
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", MirrorMaker2Names.podSetName(name));
        container.put("image", image);
        container.put("ports", List.of(Map.of("containerPort", Strimzi.CONNECT_REST_PORT, "name", "rest-api", "protocol", "TCP")));
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", podName);
        metadata.put("labels", labels);
        metadata.put("annotations", annotations);
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", metadata);
        pod.put("spec", Map.of("hostname", podName, "subdomain", MirrorMaker2Names.podSetName(name),
                "containers", List.of(container)));
        return pod;
    }

    /** @return {@code strimzi.io/cluster}, {@code strimzi.io/name} and {@code strimzi.io/kind} of the workers */
    Map<String, String> selectorLabels() {
        Map<String, String> l = new LinkedHashMap<>();
        l.put(Strimzi.CLUSTER_LABEL, name);
        l.put(Strimzi.NAME_LABEL, MirrorMaker2Names.podSetName(name));
        l.put(Strimzi.KIND_LABEL, Strimzi.KAFKA_MIRROR_MAKER_2_KIND);
        return l;
    }

    private static Map<String, String> connector(String type, Map<String, Object> source, Map<String, Object> target,
                                                 Map<String, Object> mirror, Map<String, Object> connector) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("connector.class", MIRROR_PACKAGE + type);
        c.put("source.cluster.alias", JsonMaps.str(source, "alias"));
        c.put("target.cluster.alias", JsonMaps.str(target, "alias"));
        c.put("source.cluster.bootstrap.servers", String.valueOf(source.getOrDefault("bootstrapServers", "")));
        c.put("target.cluster.bootstrap.servers", String.valueOf(target.getOrDefault("bootstrapServers", "")));
        c.put("target.cluster.security.protocol", securityProtocol(target));
        c.put("source.cluster.security.protocol", securityProtocol(source));
        SimContext.stringMap(obj(target.getOrDefault("config", Map.of()))).forEach((k, v) -> c.put("target.cluster." + k, v));
        SimContext.stringMap(obj(source.getOrDefault("config", Map.of()))).forEach((k, v) -> c.put("source.cluster." + k, v));
        c.putAll(SimContext.stringMap(obj(connector.getOrDefault("config", Map.of()))));
        Object tasks = connector.get("tasksMax");
        c.put("tasks.max", tasks == null ? "1" : tasks.toString());
        if (mirror.get("topicsPattern") != null) {
            c.put("topics", mirror.get("topicsPattern").toString());
        }
        if (mirror.get("groupsPattern") != null) {
            c.put("groups", mirror.get("groupsPattern").toString());
        }
        return c;
    }

    /**
     * The {@code security.protocol} Strimzi sets for a cluster entry ({@code addClusterToMirrorMaker2ConnectorConfig}):
     * {@code SSL} with a {@code tls} section, else {@code PLAINTEXT}; {@code SASL_} before it for {@code plain} and
     * {@code scram-sha-*} authentication. The entry's own {@code config} can override it.
     */
    private static String securityProtocol(Map<String, Object> cluster) {
        boolean tls = cluster.get("tls") instanceof Map<?, ?>;
        String auth = JsonMaps.str(obj(cluster.get("authentication")), "type");
        boolean sasl = auth != null && (auth.equals("plain") || auth.startsWith("scram-sha-"));
        return sasl ? (tls ? "SASL_SSL" : "SASL_PLAINTEXT") : tls ? "SSL" : "PLAINTEXT";
    }

    private static Map<String, Object> obj(Object o) {
        Map<String, Object> m = JsonMaps.map(o);
        return m == null ? Map.of() : m;
    }

    private static Map<String, Object> entry(Map<String, Object> spec, String alias) {
        for (Object o : JsonMaps.list(spec.get("clusters"))) {
            Map<String, Object> c = obj(o);
            if (alias != null && alias.equals(JsonMaps.str(c, "alias"))) {
                return c;
            }
        }
        return Map.of();
    }
}
