package dev.flowform.plan.cluster;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.PlanOptions;
import dev.flowform.plan.Rule;
import java.util.List;

/**
 * Guards on what the Strimzi operator is doing with an existing resource: reconciliation paused
 * ({@link Rule#RECONCILIATION_PAUSED}), a failed last reconcile ({@link Rule#FAILED_RECONCILE}, rule 7) and the
 * connector-resources annotation that makes the operator delete connectors ({@link Rule#CONNECTOR_RESOURCES},
 * rule 6). Pure.
 */
final class ReconcileGuards {

    private ReconcileGuards() {
    }

    /**
     * Refuses to change a resource whose reconciliation is paused; warns when the plan would not change it (for both
     * kinds: the operator acts on nothing while it is set, so only a change needs it gone).
     */
    static Verdict paused(ClusterFacts f) {
        ClusterFacts.Existing e = f.existing();
        if (!e.cluster().reconciliationPaused()) {
            return Verdict.PASS;
        }
        String detail = e.who() + " has strimzi.io/pause-reconciliation: the operator does not roll the workers or act on "
                + "its connectors while it is set.";
        if (f.somethingChanges()) {
            return Verdict.refuse(Rule.RECONCILIATION_PAUSED.error("Reconciliation is paused", detail + " Remove the "
                    + "annotation (kubectl annotate " + e.cluster().ref().kind().toLowerCase(java.util.Locale.ROOT) + " "
                    + e.cluster().name() + " strimzi.io/pause-reconciliation-), "
                    + "then plan again.", f.address()));
        }
        return Verdict.report(Rule.RECONCILIATION_PAUSED.warning("Reconciliation is paused", detail
                + " The configuration asks for nothing that changes it.", f.address()));
    }

    /** Warns about a failed reconcile of a cluster the plan does not change. */
    static Verdict failedUnchanged(ClusterFacts f) {
        ClusterFacts.Existing e = f.existing();
        if (f.somethingChanges() || !e.failed()) {
            return Verdict.PASS;
        }
        return Verdict.report(Rule.FAILED_RECONCILE.warning("The last reconcile of the Connect cluster failed",
                e.who() + ": " + e.roll().detail() + ". The configuration asks for nothing that changes it, so this plan "
                        + "does not touch it; the operator retries every 120 s.", f.address()));
    }

    /** Refuses to add the connector-resources annotation without {@link PlanOptions#enableConnectorResources()}. */
    static Verdict connectorResources(ClusterFacts f) {
        ClusterFacts.Existing e = f.existing();
        if (!e.annotate() || f.scope().options().enableConnectorResources()) {
            return Verdict.PASS;
        }
        return Verdict.refuse(Rule.CONNECTOR_RESOURCES.error("Adding strimzi.io/use-connector-resources deletes connectors",
                e.who() + " lacks annotation " + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + "=\"true\", which "
                        + "flowform needs to manage connectors through KafkaConnector resources. Once it is added, the "
                        + "Strimzi operator deletes every connector running in this Connect cluster that has no "
                        + "KafkaConnector resource" + knownConnectors(f) + ". Create KafkaConnectors for connectors "
                        + "you want to keep, then plan again with --enable-connector-resources to accept this.", f.address()));
    }

    /**
     * A change on top of a failed reconcile: refused unless {@link PlanOptions#acceptFailedReconcile()}, and then
     * still refused when the next step needs the workers' mode and nothing in the plan makes the operator roll
     * again; otherwise a warning.
     */
    static Verdict failedReconcile(ClusterFacts f) {
        ClusterFacts.Existing e = f.existing();
        if (!f.somethingChanges() || !e.failed()) {
            return Verdict.PASS;
        }
        String summary = "The last reconcile of the Connect cluster failed";
        if (!f.scope().options().acceptFailedReconcile()) {
            return Verdict.refuse(Rule.FAILED_RECONCILE.error(summary, e.who() + ": " + e.roll().detail() + ". flowform "
                    + "does not pile a new change on top of a failed one: fix the cause and let the operator reconcile (it "
                    + "retries every 120 s), then plan again. If this plan's change is the fix, plan again with "
                    + "--accept-failed-reconcile.", f.address()));
        }
        if (f.needsCurrentRolled() && e.spec().isEmpty()) {
            return Verdict.refuse(Rule.FAILED_RECONCILE.error(summary, e.who() + ": " + e.roll().detail() + ". The next "
                    + "step needs every worker to run " + EosMode.CONFIG_KEY + "=" + e.current().value() + ", which the "
                    + "failed roll did not finish, and this plan changes nothing that would make the operator roll again. "
                    + "Fix the cause and wait for the operator's periodic reconcile (every 120 s), then plan again.",
                    f.address()));
        }
        return Verdict.report(Rule.FAILED_RECONCILE.warning("Planning on top of a failed reconcile",
                e.who() + ": " + e.roll().detail() + ". --accept-failed-reconcile was given: the plan changes the "
                        + e.cluster().ref().kind() + " and waits for a complete roll before any step that needs the workers' "
                        + "mode.",
                f.address()));
    }

    /** Warns, once the plan goes ahead, that adding the annotation makes the operator delete connectors. */
    static Verdict connectorResourcesAccepted(ClusterFacts f) {
        ClusterFacts.Existing e = f.existing();
        if (!e.annotate()) {
            return Verdict.PASS;
        }
        return Verdict.report(Rule.CONNECTOR_RESOURCES.warning("Enabling KafkaConnector resources on an existing cluster",
                e.who() + " lacks annotation " + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + "=\"true\". Once "
                        + "flowform adds it (--enable-connector-resources), the Strimzi operator deletes every connector "
                        + "running in this Connect cluster that has no KafkaConnector resource" + knownConnectors(f) + ".",
                f.address()));
    }

    private static String knownConnectors(ClusterFacts f) {
        LiveConnectCluster c = f.existing().cluster();
        List<String> names = f.scope().live().connectorsOf(c.namespace(), c.name()).stream().map(LiveConnector::name)
                .sorted().toList();
        return names.isEmpty() ? " (no KafkaConnector exists for it yet)"
                : " (KafkaConnectors that exist and stay: " + String.join(", ", names) + ")";
    }
}
