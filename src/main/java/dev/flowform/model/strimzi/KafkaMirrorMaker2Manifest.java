package dev.flowform.model.strimzi;

import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A KafkaMirrorMaker2 to create, in the {@code v1beta2} layout (Strimzi {@code KafkaMirrorMaker2Spec} at 0.45-0.48):
 * {@code spec.connectCluster} names the target's entry of {@code spec.clusters[]}, whose {@code config} is the worker
 * configuration; each mirror names its {@code sourceCluster} and {@code targetCluster}. Pure.
 *
 * @param apiVersion  {@code kafka.strimzi.io/v1beta2}
 * @param labels      {@code metadata.labels}
 * @param annotations {@code metadata.annotations}
 * @param desired     the block, derived (its mode decided)
 * @param sourceEos   the {@code sourceConnector.config} entries exactly-once adds to a mirror that wants it
 */
public record KafkaMirrorMaker2Manifest(String apiVersion, Map<String, String> labels, Map<String, String> annotations,
                                        DesiredMirrorMaker2 desired, Map<String, String> sourceEos) {

    /** The kind of the resource. */
    public static final String KIND = Strimzi.KAFKA_MIRROR_MAKER_2_KIND;

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
        s.put("connectCluster", d.targetAlias());
        List<Object> clusters = new ArrayList<>();
        Map<String, Object> worker = new LinkedHashMap<>(d.config());
        worker.put(EosMode.CONFIG_KEY, d.eos().value());
        clusters.add(cluster(d.targetAlias(), d.targetBootstrap(), worker));
        List<Object> mirrors = new ArrayList<>();
        for (DesiredMirror m : d.mirrors()) {
            clusters.add(cluster(m.sourceAlias(), m.sourceBootstrap(), new LinkedHashMap<>(m.sourceClusterConfig())));
            mirrors.add(mirror(m));
        }
        s.put("clusters", clusters);
        s.put("mirrors", mirrors);
        return CustomResource.of(apiVersion, KIND, d.namespace(), d.name(), new LinkedHashMap<>(labels),
                new LinkedHashMap<>(annotations), s);
    }

    private Map<String, Object> mirror(DesiredMirror m) {
        Map<String, Object> mirror = new LinkedHashMap<>();
        mirror.put("sourceCluster", m.sourceAlias());
        mirror.put("targetCluster", desired.targetAlias());
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
        return mirror;
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
