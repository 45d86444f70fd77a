package dev.flowform.plan.cluster;

import dev.flowform.plan.Rule;
import java.util.List;

/**
 * The guards of a resource's plan, in the order they are asked (after the {@link OwnershipGuard}), one list for a
 * KafkaConnect and a KafkaMirrorMaker2 alike: a guard whose subject a kind lacks (connector-resources annotation,
 * unmanaged KafkaConnectors) passes for it. The order is the order of the diagnostics a plan shows; the first guard
 * that refuses ends the list. Guards after the refusals speak only once the plan goes ahead (the warnings that come
 * with an accepted risk). Pure.
 */
final class ClusterGuards {

    /** For a resource that does not exist yet. */
    static final List<Guard> NEW_CLUSTER = List.of(
            new Guard("adopted cluster exists", List.of(Rule.CONFIGURATION), SpecGuards::adoptMissing),
            new Guard("Kafka version", versionRules(), VersionGuard::declared),
            new Guard("Strimzi v1 config keys", List.of(Rule.V1_IGNORED_CONFIG, Rule.CONFIGURATION), ClusterGuards::v1Layout),
            new Guard("connectors", connectorRules(), ConnectorGuards::findings),
            new Guard("workers to run connectors", List.of(Rule.REPLICAS_ZERO), SpecGuards::replicasZero));

    /** For an existing resource. */
    static final List<Guard> EXISTING_CLUSTER = List.of(
            new Guard("exactly-once mode readable", List.of(Rule.UNKNOWN_EOS_MODE), SpecGuards::eosMode),
            new Guard("Strimzi v1 config keys", List.of(Rule.V1_IGNORED_CONFIG, Rule.CONFIGURATION), ClusterGuards::v1Layout),
            new Guard("live spec complete", List.of(Rule.LIVE_SPEC), SpecGuards::liveSpec),
            new Guard("Kafka version", versionRules(), VersionGuard::live),
            new Guard("preparing roll not skipped", List.of(Rule.PREPARING_SKIPPED), SpecGuards::preparingSkipped),
            new Guard("exactly-once identity kept", List.of(Rule.CLUSTER_IDENTITY), EosIdentityGuard::refuse),
            new Guard("connectors", connectorRules(), ConnectorGuards::findings),
            new Guard("unmanaged connectors", List.of(Rule.REVERSE_DISABLE), ConnectorGuards::unmanagedRequired),
            new Guard("reconciliation not paused", List.of(Rule.RECONCILIATION_PAUSED), ReconcileGuards::paused),
            new Guard("failed reconcile, nothing to change", List.of(Rule.FAILED_RECONCILE), ReconcileGuards::failedUnchanged),
            new Guard("connector resources", List.of(Rule.CONNECTOR_RESOURCES), ReconcileGuards::connectorResources),
            new Guard("failed reconcile", List.of(Rule.FAILED_RECONCILE), ReconcileGuards::failedReconcile),
            new Guard("workers to run connectors", List.of(Rule.REPLICAS_ZERO), SpecGuards::replicasZero),
            new Guard("new identity accepted", List.of(Rule.CLUSTER_IDENTITY), EosIdentityGuard::accepted),
            new Guard("connector resources accepted", List.of(Rule.CONNECTOR_RESOURCES),
                    ReconcileGuards::connectorResourcesAccepted),
            new Guard("alias rename and forced rolls accepted", List.of(Rule.MIRROR_ALIAS_RENAME, Rule.MM2_FORCED_ROLL),
                    f -> f.kind().accepted(f)));

    private ClusterGuards() {
    }

    /** @return the guards for it: {@link #NEW_CLUSTER} or {@link #EXISTING_CLUSTER} */
    static List<Guard> of(ClusterFacts f) {
        return f.existing() == null ? NEW_CLUSTER : EXISTING_CLUSTER;
    }

    /** What the Strimzi {@code v1} layout ignores or requires ({@link ResourceKind#v1Layout}). */
    private static Verdict v1Layout(ClusterFacts f) {
        return f.kind().v1Layout(f);
    }

    private static List<Rule> versionRules() {
        return List.of(Rule.KAFKA_VERSION_WORKER, Rule.KAFKA_VERSION_MM2, Rule.KAFKA_VERSION_FENCING,
                Rule.KAFKA_VERSION_UNKNOWN);
    }

    private static List<Rule> connectorRules() {
        return List.of(Rule.CONFIGURATION, Rule.REQUIRED_AFTER_ENABLED, Rule.REQUIRED_SOURCE_ONLY, Rule.TRANSACTION_BOUNDARY,
                Rule.READ_COMMITTED, Rule.CONSUMER_OVERRIDE, Rule.CONNECTOR_FAILED, Rule.MIRROR_ALIAS_RENAME);
    }
}
