package dev.flowform.plan;

import java.util.List;

/**
 * The user's choices that change what a plan may do (the {@code plan} and {@code apply} flags).
 *
 * @param acceptFailedReconcile     {@code --accept-failed-reconcile}: plan on top of a KafkaConnect whose last
 *                                  reconcile failed ({@code NotReady} at its generation) instead of refusing
 * @param enableConnectorResources  {@code --enable-connector-resources}: allow adding
 *                                  {@code strimzi.io/use-connector-resources: "true"} to an existing KafkaConnect,
 *                                  which makes Strimzi delete connectors that have no KafkaConnector (Strimzi AbstractConnectOperator)
 * @param targets                   {@code --target} addresses; empty plans everything
 * @param refreshOnly               {@code --refresh-only}: report drift only, change nothing
 * @param acceptNewClusterIdentity  {@code --accept-new-cluster-identity}: allow changing the group id or a storage
 *                                  topic of a Connect cluster whose workers run exactly-once ({@code preparing} or
 *                                  {@code enabled}), which gives it new transactional IDs and another offsets topic
 * @param acceptUnknownKafkaVersion {@code --accept-unknown-kafka-version}: plan exactly-once on a Connect cluster
 *                                  whose Kafka version cannot be read, without checking the KIP-618 minimums
 * @param transferOwnership         {@code --transfer-ownership} addresses: objects whose ownership marks name another
 *                                  environment or state lineage that this plan takes over (rewriting the marks)
 *                                  instead of refusing them
 * @param acceptMissingAcls         {@code --accept-missing-acls}: plan exactly-once although the principal's KafkaUser
 *                                  lacks ACLs it needs (they are managed elsewhere), listing them instead of refusing
 *                                  (docs/domain-rules.md, rule 10)
 */
public record PlanOptions(boolean acceptFailedReconcile, boolean enableConnectorResources, List<String> targets,
                          boolean refreshOnly, boolean acceptNewClusterIdentity, boolean acceptUnknownKafkaVersion,
                          List<String> transferOwnership, boolean acceptMissingAcls) {

    /** No flags: refuse on failed reconciles and missing annotations, plan everything. */
    public static final PlanOptions DEFAULT = new PlanOptions(false, false, List.of(), false, false, false, List.of(), false);

    public PlanOptions {
        targets = targets == null ? List.of() : List.copyOf(new java.util.TreeSet<>(targets));
        transferOwnership = transferOwnership == null ? List.of() : List.copyOf(new java.util.TreeSet<>(transferOwnership));
    }

    /** Options without {@code --transfer-ownership}; the components are the record's. */
    public PlanOptions(boolean acceptFailedReconcile, boolean enableConnectorResources, List<String> targets,
                       boolean refreshOnly, boolean acceptNewClusterIdentity, boolean acceptUnknownKafkaVersion) {
        this(acceptFailedReconcile, enableConnectorResources, targets, refreshOnly, acceptNewClusterIdentity,
                acceptUnknownKafkaVersion, List.of(), false);
    }

    /** @return a copy with {@code --accept-failed-reconcile} set */
    public PlanOptions withAcceptFailedReconcile(boolean on) {
        return new PlanOptions(on, enableConnectorResources, targets, refreshOnly, acceptNewClusterIdentity,
                acceptUnknownKafkaVersion, transferOwnership, acceptMissingAcls);
    }

    /** @return a copy with {@code --enable-connector-resources} set */
    public PlanOptions withEnableConnectorResources(boolean on) {
        return new PlanOptions(acceptFailedReconcile, on, targets, refreshOnly, acceptNewClusterIdentity,
                acceptUnknownKafkaVersion, transferOwnership, acceptMissingAcls);
    }

    /** @return a copy with these {@code --target} addresses */
    public PlanOptions withTargets(List<String> addresses) {
        return new PlanOptions(acceptFailedReconcile, enableConnectorResources, addresses, refreshOnly,
                acceptNewClusterIdentity, acceptUnknownKafkaVersion, transferOwnership, acceptMissingAcls);
    }

    /** @return a copy with {@code --refresh-only} set */
    public PlanOptions withRefreshOnly(boolean on) {
        return new PlanOptions(acceptFailedReconcile, enableConnectorResources, targets, on, acceptNewClusterIdentity,
                acceptUnknownKafkaVersion, transferOwnership, acceptMissingAcls);
    }

    /** @return a copy with {@code --accept-new-cluster-identity} set */
    public PlanOptions withAcceptNewClusterIdentity(boolean on) {
        return new PlanOptions(acceptFailedReconcile, enableConnectorResources, targets, refreshOnly, on,
                acceptUnknownKafkaVersion, transferOwnership, acceptMissingAcls);
    }

    /** @return a copy with {@code --accept-unknown-kafka-version} set */
    public PlanOptions withAcceptUnknownKafkaVersion(boolean on) {
        return new PlanOptions(acceptFailedReconcile, enableConnectorResources, targets, refreshOnly,
                acceptNewClusterIdentity, on, transferOwnership, acceptMissingAcls);
    }

    /** @return a copy with these {@code --transfer-ownership} addresses */
    public PlanOptions withTransferOwnership(List<String> addresses) {
        return new PlanOptions(acceptFailedReconcile, enableConnectorResources, targets, refreshOnly,
                acceptNewClusterIdentity, acceptUnknownKafkaVersion, addresses, acceptMissingAcls);
    }

    /** @return a copy with {@code --accept-missing-acls} set */
    public PlanOptions withAcceptMissingAcls(boolean on) {
        return new PlanOptions(acceptFailedReconcile, enableConnectorResources, targets, refreshOnly,
                acceptNewClusterIdentity, acceptUnknownKafkaVersion, transferOwnership, on);
    }
}
