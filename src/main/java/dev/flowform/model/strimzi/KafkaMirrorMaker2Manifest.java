package dev.flowform.model.strimzi;

import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;
import dev.flowform.model.StrimziApi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A KafkaMirrorMaker2 to create, in the layout of its API version: {@code v1beta2} ({@code spec.clusters[]} with
 * {@code spec.connectCluster}) or {@code v1} ({@code spec.target} with the group id and storage topics as fields, as
 * Strimzi 0.49's {@code validateAndUpdateToNewAPI} converts them). Pure.
 *
 * @param apiVersion  {@code kafka.strimzi.io/v1beta2} or {@code kafka.strimzi.io/v1}, as the API serves it
 * @param labels      {@code metadata.labels}
 * @param annotations {@code metadata.annotations}
 * @param desired     the block, derived (its mode decided)
 * @param sourceEos   the {@code sourceConnector.config} entries exactly-once adds to a mirror that wants it
 */
public record KafkaMirrorMaker2Manifest(String apiVersion, Map<String, String> labels, Map<String, String> annotations,
                                        DesiredMirrorMaker2 desired, Map<String, String> sourceEos) {

    /** The kind of the resource. */
    public static final String KIND = Strimzi.KAFKA_MIRROR_MAKER_2_KIND;

    /**
     * Worker configuration keys that the {@code v1} layout holds as fields of {@code spec.target} (key to field name),
     * in the order the fields are written; Strimzi {@code KafkaMirrorMaker2TargetClusterSpec} at 1.0.0.
     */
    public static final Map<String, String> V1_TARGET_FIELDS = v1TargetFields();

    /** Keeps the given order of the maps. */
    public KafkaMirrorMaker2Manifest {
        labels = new LinkedHashMap<>(labels);
        annotations = new LinkedHashMap<>(annotations);
        sourceEos = new LinkedHashMap<>(sourceEos);
    }

    /** @return the resource: {@code apiVersion}, {@code kind}, {@code metadata}, {@code spec}, as mutable maps */
    public Map<String, Object> toMap() {
        DesiredMirrorMaker2 d = desired;
        Map<String, Object> s = new LinkedHashMap<>();
        if (d.version() != null) {
            s.put("version", d.version());
        }
        if (d.replicas() != null) {
            s.put("replicas", d.replicas());
        }
        if (isV1()) {
            v1Spec(s);
        } else {
            v1beta2Spec(s);
        }
        return CustomResource.of(apiVersion, KIND, d.namespace(), d.name(), new LinkedHashMap<>(labels),
                new LinkedHashMap<>(annotations), s);
    }

    /** @return true when the manifest is written in the {@code v1} layout */
    public boolean isV1() {
        return StrimziApi.fromApiVersion(apiVersion) == StrimziApi.V1;
    }

    private void v1Spec(Map<String, Object> s) {
        DesiredMirrorMaker2 d = desired;
        Map<String, Object> worker = new LinkedHashMap<>(d.config());
        worker.put(EosMode.CONFIG_KEY, d.eos().value());
        Map<String, Object> target = new LinkedHashMap<>();
        target.put("alias", d.targetAlias());
        if (d.targetBootstrap() != null) {
            target.put("bootstrapServers", d.targetBootstrap());
        }
        V1_TARGET_FIELDS.forEach((key, field) -> {
            Object v = worker.remove(key);
            if (v != null) {
                target.put(field, v);
            }
        });
        target.put("config", worker);
        s.put("target", target);
        List<Object> mirrors = new ArrayList<>();
        for (DesiredMirror m : d.mirrors()) {
            mirrors.add(mirrorEntry(m));
        }
        s.put("mirrors", mirrors);
    }

    /**
     * @return the {@code spec.mirrors[]} entry of mirror {@code m} in this manifest's layout: {@code v1} with its
     *         {@code source} cluster, {@code v1beta2} naming {@code sourceCluster} and {@code targetCluster} (the
     *         source's entry of {@code spec.clusters[]} is {@link #sourceClusterEntry})
     */
    public Map<String, Object> mirrorEntry(DesiredMirror m) {
        if (!isV1()) {
            return mirror(m);
        }
        Map<String, Object> mirror = new LinkedHashMap<>();
        mirror.put("source", sourceClusterEntry(m));
        connectorsAndPatterns(mirror, m);
        return mirror;
    }

    /** @return the source cluster of {@code m}: {@code alias}, {@code bootstrapServers} (when declared), {@code config} */
    public static Map<String, Object> sourceClusterEntry(DesiredMirror m) {
        return cluster(m.sourceAlias(), m.sourceBootstrap(), new LinkedHashMap<>(m.sourceClusterConfig()));
    }

    private void v1beta2Spec(Map<String, Object> s) {
        DesiredMirrorMaker2 d = desired;
        s.put("connectCluster", d.targetAlias());
        List<Object> clusters = new ArrayList<>();
        Map<String, Object> worker = new LinkedHashMap<>(d.config());
        worker.put(EosMode.CONFIG_KEY, d.eos().value());
        clusters.add(cluster(d.targetAlias(), d.targetBootstrap(), worker));
        List<Object> mirrors = new ArrayList<>();
        for (DesiredMirror m : d.mirrors()) {
            clusters.add(sourceClusterEntry(m));
            mirrors.add(mirror(m));
        }
        s.put("clusters", clusters);
        s.put("mirrors", mirrors);
    }

    private Map<String, Object> mirror(DesiredMirror m) {
        Map<String, Object> mirror = new LinkedHashMap<>();
        mirror.put("sourceCluster", m.sourceAlias());
        mirror.put("targetCluster", desired.targetAlias());
        connectorsAndPatterns(mirror, m);
        return mirror;
    }

    /** Adds {@code sourceConnector}, {@code checkpointConnector} and the patterns, the same in both layouts. */
    private void connectorsAndPatterns(Map<String, Object> mirror, DesiredMirror m) {
        Map<String, Object> source = new LinkedHashMap<>();
        if (m.tasksMax() != null) {
            source.put("tasksMax", m.tasksMax());
        }
        Map<String, Object> config = new LinkedHashMap<>(m.sourceConnectorConfig());
        if (m.exactlyOnce()) {
            config.putAll(sourceEos);
        }
        source.put("config", config);
        mirror.put("sourceConnector", source);
        mirror.put("checkpointConnector", Map.of("config", new LinkedHashMap<String, Object>(m.checkpointConnectorConfig())));
        if (m.topics() != null) {
            mirror.put("topicsPattern", m.topics());
        }
        if (m.groups() != null) {
            mirror.put("groupsPattern", m.groups());
        }
    }

    private static Map<String, String> v1TargetFields() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("group.id", "groupId");
        m.put("config.storage.topic", "configStorageTopic");
        m.put("offset.storage.topic", "offsetStorageTopic");
        m.put("status.storage.topic", "statusStorageTopic");
        return java.util.Collections.unmodifiableMap(m);
    }

    private static Map<String, Object> cluster(String alias, String bootstrap, Map<String, Object> config) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("alias", alias);
        if (bootstrap != null) {
            c.put("bootstrapServers", bootstrap);
        }
        c.put("config", config);
        return c;
    }
}
