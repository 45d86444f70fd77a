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

    @Option(names = "--accept-new-cluster-identity",
            description = "Allow changing the group id or a storage topic of a Connect cluster whose workers run "
                    + "exactly-once: it gets new transactional IDs that cannot fence the old ones, and its connectors "
                    + "lose their source offsets when the offsets topic changes.")
    boolean acceptNewClusterIdentity;

    @Option(names = "--accept-unknown-kafka-version",
            description = "Plan exactly-once on a Connect cluster whose Kafka version cannot be read, without checking "
                    + "the KIP-618 minimums (workers 3.3, MirrorMaker 2 3.5, KAFKA-15059 fixed in 3.6).")
    boolean acceptUnknownKafkaVersion;

    @Option(names = "--accept-missing-acls",
            description = "Plan exactly-once although the KafkaUser of a Connect cluster's principal lacks ACLs it needs "
                    + "(they are managed elsewhere, e.g. Ranger or a platform pipeline): the plan lists them as kafka-acls "
                    + "commands and as a KafkaUser patch instead of refusing.")
    boolean acceptMissingAcls;

    @Option(names = {"--transfer-ownership", "-transfer-ownership"}, paramLabel = "ADDRESS",
            description = "Take over this resource (repeatable) although its ownership marks name another environment or "
                    + "state lineage: the apply rewrites the marks and the run history records the transfer. Addresses as "
                    + "for --target, e.g. connect_cluster.west, replication_flow.orders, kafka_connector.orders-source.")
    List<String> transferOwnership = new ArrayList<>();

    @Option(names = {"--no-dry-run", "-no-dry-run"},
            description = "Do not send the plan's writes to the API server as server-side dry runs (dryRun=All) before "
                    + "showing or applying it; for servers whose admission webhooks cannot dry-run.")
    boolean noDryRun;

    /** @return true unless {@code --no-dry-run} was given */
    public boolean dryRun() {
        return !noDryRun;
    }

    /** @return the planner options these flags select */
    public PlanOptions toOptions() {
        return new PlanOptions(acceptFailedReconcile, enableConnectorResources, targets, refreshOnly,
                acceptNewClusterIdentity, acceptUnknownKafkaVersion, transferOwnership, acceptMissingAcls);
    }

    /** @return the flags given, in their long spelling, for error messages; empty when none */
    public List<String> given() {
        List<String> out = new ArrayList<>();
        targets.forEach(t -> out.add("--target " + t));
        transferOwnership.forEach(t -> out.add("--transfer-ownership " + t));
        if (refreshOnly) {
            out.add("--refresh-only");
        }
        if (acceptFailedReconcile) {
            out.add("--accept-failed-reconcile");
        }
        if (enableConnectorResources) {
            out.add("--enable-connector-resources");
        }
        if (acceptNewClusterIdentity) {
            out.add("--accept-new-cluster-identity");
        }
        if (acceptUnknownKafkaVersion) {
            out.add("--accept-unknown-kafka-version");
        }
        if (acceptMissingAcls) {
            out.add("--accept-missing-acls");
        }
        return out; // --no-dry-run is left out: a saved plan is never dry-run again, so the flag changes nothing there
    }
}
