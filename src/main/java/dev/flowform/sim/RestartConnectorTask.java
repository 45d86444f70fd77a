package dev.flowform.sim;

import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.sim.connect.RestResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The simulated operator's handling of {@code strimzi.io/restart-connector-task} on a KafkaMirrorMaker2. */
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
}
