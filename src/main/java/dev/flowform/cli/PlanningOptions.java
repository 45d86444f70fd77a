package dev.flowform.cli;

import dev.flowform.plan.PlanOptions;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The flags that change what a plan may do, shared by {@code plan} and {@code apply} (without a plan
 * file). Terraform's single-dash spellings are accepted for {@code -target} and {@code -refresh-only}.
 */
public final class PlanningOptions {

    @Option(names = {"--target", "-target"}, paramLabel = "ADDRESS",
            description = "Limit the plan to this resource and what it depends on (repeatable), e.g. "
                    + "connect_cluster.west, replication_flow.orders, kafka_connector.orders-source.")
    List<String> targets = new ArrayList<>();

    @Option(names = {"--refresh-only", "-refresh-only"},
            description = "Only show objects changed outside flowform; applying the plan records them in the state.")
    boolean refreshOnly;

    @Option(names = "--accept-failed-reconcile",
            description = "Plan on top of a KafkaConnect whose last reconcile failed (NotReady at its generation), when "
                    + "this plan's change is the fix.")
    boolean acceptFailedReconcile;

    @Option(names = "--enable-connector-resources",
            description = "Allow adding strimzi.io/use-connector-resources=\"true\" to an existing KafkaConnect; the "
                    + "operator then deletes every connector that has no KafkaConnector.")
    boolean enableConnectorResources;

    /** @return the planner options these flags select */
    public PlanOptions toOptions() {
        return new PlanOptions(acceptFailedReconcile, enableConnectorResources, targets, refreshOnly);
    }

    /** @return the flags given, in their long spelling, for error messages; empty when none */
    public List<String> given() {
        List<String> out = new ArrayList<>();
        targets.forEach(t -> out.add("--target " + t));
        if (refreshOnly) {
            out.add("--refresh-only");
        }
        if (acceptFailedReconcile) {
            out.add("--accept-failed-reconcile");
        }
        if (enableConnectorResources) {
            out.add("--enable-connector-resources");
        }
        return out;
    }
}
