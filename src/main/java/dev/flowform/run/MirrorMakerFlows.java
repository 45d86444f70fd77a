package dev.flowform.run;

import dev.flowform.model.Maps;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.sim.EmbeddedCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@code flowform prove} needs to know of the KafkaMirrorMaker2 resources of a namespace: whether the operator
 * runs all their connectors, and the flow to prove. Both layouts: {@code v1beta2} ({@code spec.connectCluster},
 * {@code mirrors[].sourceCluster}) and {@code v1} ({@code spec.target}, {@code mirrors[].source}); the connector names
 * are Strimzi's ({@code KafkaMirrorMaker2Connectors}: {@code <source>-><target>.MirrorSourceConnector}).
 */
final class MirrorMakerFlows {
    private static final String KIND = "KafkaMirrorMaker2";

    private MirrorMakerFlows() {
    }

    /** @return its KafkaMirrorMaker2 resources, read with the Strimzi API version the cluster serves */
    static List<GenericKubernetesResource> list(EmbeddedCluster cluster, String ns) {
        return cluster.client().genericKubernetesResources(cluster.api().kafkaApiVersion(), KIND).inNamespace(ns)
                .list().getItems();
    }

    /**
     * Tells whether the operator has settled a KafkaMirrorMaker2 with every connector running: the status reports
     * the current generation and {@code Ready}, every connector in {@code status.connectors[]} and each of its tasks
     * is {@code RUNNING}, and every source connector has a task. A checkpoint connector may have none (Kafka's
     * {@code MirrorCheckpointConnector} creates tasks only for consumer groups that exist and match).
     *
     * @param mm2 a KafkaMirrorMaker2
     * @return true when it runs
     */
    static boolean running(GenericKubernetesResource mm2) {
        Map<String, Object> status = Maps.object(mm2.getAdditionalProperties().get("status"));
        Long generation = mm2.getMetadata().getGeneration();
        if (!(status.get("observedGeneration") instanceof Number observed)
                || (generation != null && observed.longValue() < generation)) {
            return false;
        }
        boolean ready = list(status.get("conditions")).stream().map(Maps::object)
                .anyMatch(c -> "Ready".equals(c.get("type")) && "True".equals(c.get("status")));
        List<Object> connectors = list(status.get("connectors"));
        if (!ready || connectors.isEmpty()) {
            return false;
        }
        for (Object o : connectors) {
            Map<String, Object> c = Maps.object(o);
            List<Object> tasks = list(c.get("tasks"));
            boolean source = String.valueOf(c.get("name")).endsWith(MirrorMaker2Names.SOURCE_CONNECTOR);
            if (!"RUNNING".equals(Maps.object(c.get("connector")).get("state")) || (source && tasks.isEmpty())
                    || tasks.stream().anyMatch(t -> !"RUNNING".equals(Maps.object(t).get("state")))) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param mm2 a KafkaMirrorMaker2
     * @return a one-line account for a progress note: its name, the Ready condition's message when it is not Ready,
     *         and each connector's state with its tasks' states
     */
    static String describe(GenericKubernetesResource mm2) {
        Map<String, Object> status = Maps.object(mm2.getAdditionalProperties().get("status"));
        StringBuilder b = new StringBuilder(mm2.getMetadata().getName()).append(':');
        list(status.get("conditions")).stream().map(Maps::object)
                .filter(c -> "Ready".equals(c.get("type")) && !"True".equals(c.get("status")))
                .forEach(c -> b.append(" not Ready (").append(c.get("message")).append(')'));
        for (Object o : list(status.get("connectors"))) {
            Map<String, Object> c = Maps.object(o);
            b.append(' ').append(c.get("name")).append(' ').append(Maps.object(c.get("connector")).get("state")).append(" tasks [");
            b.append(String.join(" ", list(c.get("tasks")).stream().map(t -> String.valueOf(Maps.object(t).get("state"))).toList()));
            b.append(']');
        }
        return b.toString();
    }

    /**
     * The first mirror whose topics pattern is one literal topic name, as the flow to prove.
     *
     * @param mm2s  its KafkaMirrorMaker2 resources
     * @return the flow: Connect cluster {@code ns/<name>}, the mirror's source connector, aliases and topic
     */
    static Optional<ExactlyOnceProof.Flow> flowOf(String ns, List<GenericKubernetesResource> mm2s) {
        for (GenericKubernetesResource mm2 : mm2s) {
            Map<String, Object> spec = Maps.object(mm2.getAdditionalProperties().get("spec"));
            boolean v1 = spec.get("target") instanceof Map<?, ?>;
            String target = v1 ? str(Maps.object(spec.get("target")).get("alias")) : str(spec.get("connectCluster"));
            for (Object o : list(spec.get("mirrors"))) {
                Map<String, Object> m = Maps.object(o);
                String source = v1 ? str(Maps.object(m.get("source")).get("alias")) : str(m.get("sourceCluster"));
                String topic = str(m.get("topicsPattern"));
                if (target != null && source != null && topic != null && topic.matches("[A-Za-z0-9_-]+")) {
                    return Optional.of(new ExactlyOnceProof.Flow(ns + "/" + mm2.getMetadata().getName(),
                            MirrorMaker2Names.sourceConnector(source, target), source, target, topic));
                }
            }
        }
        return Optional.empty();
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return o instanceof List<?> l ? (List<Object>) l : List.of();
    }
}
