package dev.flowform.sim;

import dev.flowform.connect.RestResult;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The simulated operator's handling of the task restart annotations: {@code strimzi.io/restart-connector-task} on a
 * KafkaMirrorMaker2, {@code strimzi.io/restart-task} on a KafkaConnector.
 */
final class RestartConnectorTask {

    private static final Logger LOG = Logger.getLogger(RestartConnectorTask.class.getName());

    private RestartConnectorTask() {
    }

    /**
     * Restarts the task {@code strimzi.io/restart-connector-task} names ({@code <connector>:<task>}) and removes the
     * annotation, as Strimzi's {@code AbstractConnectOperator} does for a KafkaMirrorMaker2.
     */
    static void apply(SimContext ctx, GenericKubernetesResource mm2) {
        String value = SimContext.annotation(mm2, Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION);
        int colon = value == null ? -1 : value.lastIndexOf(':');
        if (colon < 0) {
            return;
        }
        try {
            RestResult r = ctx.runtime().restartTask(SimContext.key(mm2), value.substring(0, colon),
                    Integer.parseInt(value.substring(colon + 1).trim()));
            if (!r.ok()) {
                LOG.fine(() -> "restart of task " + value + " returned " + r.status() + " (" + r.message() + ")");
            }
        } catch (NumberFormatException e) {
            LOG.log(Level.FINE, "ignoring " + Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION + "=" + value, e);
        }
        mm2.getMetadata().getAnnotations().remove(Strimzi.RESTART_CONNECTOR_TASK_ANNOTATION);
        ctx.mm2().inNamespace(mm2.getMetadata().getNamespace()).resource(mm2).update();
    }

    /**
     * Restarts the task {@code strimzi.io/restart-task} names on a KafkaConnector and removes the annotation, as
     * Strimzi's {@code maybeRestartConnectorTask} does; a failed restart keeps it for the next reconcile.
     */
    static void forConnector(SimContext ctx, GenericKubernetesResource c, String connectCluster) {
        String value = SimContext.annotation(c, Strimzi.RESTART_TASK_ANNOTATION);
        int task;
        try {
            task = value == null ? -1 : Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return;
        }
        String name = c.getMetadata().getName();
        RestResult r = task < 0 ? null : ctx.runtime().restartTask(connectCluster, name, task);
        if (r == null || !r.ok()) {
            LOG.fine(() -> "restart of task " + name + ":" + value + " did not happen" + (r == null ? ""
                    : ": " + r.status() + " (" + r.message() + ")"));
            return;
        }
        GenericKubernetesResource updated = ctx.kctr().inNamespace(c.getMetadata().getNamespace()).withName(name)
                .edit(current -> {
                    current.getMetadata().getAnnotations().remove(Strimzi.RESTART_TASK_ANNOTATION);
                    return current;
                });
        c.getMetadata().getAnnotations().remove(Strimzi.RESTART_TASK_ANNOTATION);
        c.getMetadata().setResourceVersion(updated.getMetadata().getResourceVersion());
    }
}
