package dev.flowform.model;

import dev.flowform.model.strimzi.Strimzi;
import java.util.List;
import java.util.Map;

/**
 * A KafkaConnector as read from the cluster.
 *
 * @param resourceVersion    {@code metadata.resourceVersion}
 * @param generation         {@code metadata.generation}
 * @param labels             {@code metadata.labels} ({@code strimzi.io/cluster} names the Connect cluster)
 * @param annotations        {@code metadata.annotations}
 * @param className          {@code spec.class}
 * @param tasksMax           {@code spec.tasksMax}, or null
 * @param state              {@code spec.state}, or null (means running)
 * @param config             {@code spec.config} with every value as a string
 * @param observedGeneration {@code status.observedGeneration}, or null
 * @param conditions         {@code status.conditions}
 * @param connectorState     {@code status.connectorStatus.connector.state}, or null
 * @param connectorTrace     {@code status.connectorStatus.connector.trace}, or null
 * @param tasks              {@code status.connectorStatus.tasks}
 * @param raw                the whole object as JSON-like maps
 */
public record LiveConnector(
        ObjectRef ref,
        String resourceVersion,
        long generation,
        Map<String, String> labels,
        Map<String, String> annotations,
        String className,
        Integer tasksMax,
        String state,
        Map<String, String> config,
        Long observedGeneration,
        List<Condition> conditions,
        String connectorState,
        String connectorTrace,
        List<TaskStatus> tasks,
        Map<String, Object> raw) implements LiveObject {

    /** Value of {@link Strimzi#MANAGED_BY_LABEL} on the objects flowform created and therefore may delete. */
    public static final String MANAGED_BY_VALUE = "flowform";

    /** Copies the collections; labels, annotations and config sorted by key. */
    public LiveConnector {
        labels = Maps.sorted(labels);
        annotations = Maps.sorted(annotations);
        config = Maps.sorted(config);
        conditions = List.copyOf(conditions);
        tasks = List.copyOf(tasks);
        raw = Maps.copy(raw);
    }

    /** @return the KafkaConnect this connector is labelled for, or null */
    public String connectCluster() {
        return labels.get(Strimzi.CLUSTER_LABEL);
    }

    /** @return true when flowform created it (label {@code app.kubernetes.io/managed-by: flowform}) */
    public boolean managedByFlowform() {
        return MANAGED_BY_VALUE.equals(labels.get(Strimzi.MANAGED_BY_LABEL));
    }
}
