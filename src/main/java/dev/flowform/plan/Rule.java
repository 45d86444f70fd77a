package dev.flowform.plan;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Severity;
import dev.flowform.diag.SourceRange;
import dev.flowform.model.strimzi.Strimzi;

/**
 * The rules the planner checks, each with the source it comes from (KIP-618, the Strimzi operator, Kafka
 * Connect). Every diagnostic the planner emits names its rule and source at the end of
 * its detail, as {@code (rule <id>; source: <source>)}, so a user can look the reason up. The connector rules of
 * {@link dev.flowform.plan.rules.ConnectorRules} are also checked by configuration validation, which reports them
 * in the configuration's words without the citation.
 */
public enum Rule {
    /** Rule 2: an existing cluster goes disabled, preparing (roll), enabled (roll). */
    TWO_STEP_ROLLOUT("eos-two-step-rollout",
            "KIP-618; Kafka DistributedConfig doc of exactly.once.source.support: \"first set to 'preparing' on every worker "
                    + "in the cluster, then set to 'enabled'\""),
    /** Rule 3: exactly.once.support=required only after every worker runs enabled. */
    REQUIRED_AFTER_ENABLED("connector-required-after-enabled",
            "Kafka DistributedHerder.validateSourceConnectorExactlyOnceSupport: \"This worker does not have exactly-once "
                    + "source support enabled.\""),
    /** Rule 3 (second half): only MirrorSourceConnector implements the preflight API. */
    REQUIRED_SOURCE_ONLY("required-on-source-only",
            "KIP-618 preflight validation; only MirrorSourceConnector implements exactlyOnceSupport (KAFKA-14021)"),
    /** Rule 4: MM2 EOS needs a read_committed source consumer. */
    READ_COMMITTED("mm2-read-committed",
            "Kafka MirrorSourceConnector.validate and consumerUsesReadCommitted (KAFKA-14021)"),
    /** Rule 4: consumer.override.isolation.level does not reach MirrorMaker 2's source consumer. */
    CONSUMER_OVERRIDE("mm2-consumer-override",
            "Kafka MirrorSourceConfig.sourceConsumerConfig (consumer.*, source.consumer.*; source.cluster.* only for common client "
                    + "settings); KIP-458 overrides "
                    + "configure Connect's own clients only"),
    /** KIP-618: MirrorMaker 2 cannot define transaction boundaries. */
    TRANSACTION_BOUNDARY("mm2-transaction-boundary",
            "KIP-618 transaction.boundary=connector needs canDefineTransactionBoundaries()=SUPPORTED; MirrorSourceConnector "
                    + "keeps UNSUPPORTED"),
    /** Rule 5: disabling runs in reverse order. */
    REVERSE_DISABLE("eos-reverse-disable",
            "KIP-618; a connector with exactly.once.support=required needs workers with exactly.once.source.support=enabled"),
    /** Rule 6: adding the connector-resources annotation deletes REST-only connectors. */
    CONNECTOR_RESOURCES("connector-resources-annotation",
            "Strimzi AbstractConnectOperator.reconcileConnectors deletes connectors without a KafkaConnector when "
                    + Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION + " is \"true\""),
    /** Rule 7: NotReady at the current generation is a failed reconcile. */
    FAILED_RECONCILE("failed-reconcile",
            "Strimzi StatusUtils.setStatusConditionAndObservedGeneration writes NotReady with observedGeneration after a "
                    + "failed reconcile"),
    /** Strimzi does nothing while reconciliation is paused. */
    RECONCILIATION_PAUSED("reconciliation-paused",
            "Strimzi annotation strimzi.io/pause-reconciliation sets condition ReconciliationPaused and freezes the resource"),
    /** KIP-618 arrived in Kafka 3.3. */
    KAFKA_VERSION_WORKER("kafka-version-eos",
            "KIP-618, KAFKA-10000: exactly.once.source.support exists from Kafka 3.3.0"),
    /** MirrorSourceConnector supports EOS from Kafka 3.5. */
    KAFKA_VERSION_MM2("kafka-version-mm2-eos",
            "KAFKA-14021: MirrorSourceConnector implements the KIP-618 API from Kafka 3.5.0"),
    /** KAFKA-15059, fixed in 3.6. */
    KAFKA_VERSION_FENCING("kafka-version-fencing",
            "KAFKA-15059 (fixed in Kafka 3.6.0): zombie fencing fails while a rebalance is pending, which MirrorMaker 2 "
                    + "triggers by writing 3 connector configs at once"),
    /** Without a readable Kafka version the KIP-618 minimums cannot be checked. */
    KAFKA_VERSION_UNKNOWN("kafka-version-unknown",
            "KIP-618 minimums: exactly.once.source.support from Kafka 3.3.0 (KAFKA-10000), MirrorSourceConnector "
                    + "exactly-once from 3.5.0 (KAFKA-14021), zombie fencing during a pending rebalance fixed in 3.6.0 "
                    + "(KAFKA-15059); Strimzi KafkaConnectSpec.version"),
    /** The Connect group id and storage topics are the cluster's exactly-once identity. */
    CLUSTER_IDENTITY("eos-cluster-identity",
            "KIP-618: transactional IDs connect-cluster-<group.id> (DistributedConfig.transactionalProducerId) and "
                    + "<group.id>-<connector>-<task> (Worker.taskTransactionalId), zombie fencing of the cluster's own "
                    + "task IDs only; ExactlyOnceWorkerSourceTask commits source offsets to offset.storage.topic"),
    /** A live KafkaConnect lacks fields the planner reads. */
    LIVE_SPEC("live-connect-spec",
            "Strimzi KafkaConnectSpec: bootstrapServers is required, replicas defaults to 3, version defaults to the "
                    + "operator's default Kafka version"),
    /** Strimzi v1 ignores group.id and the storage topics in spec.config. */
    V1_IGNORED_CONFIG("strimzi-v1-ignored-config",
            "Strimzi 0.49.0 CHANGELOG (kafka.strimzi.io/v1) and AbstractConfiguration: \"Configuration option is forbidden "
                    + "and will be ignored\""),
    /** A cluster without workers runs no connector. */
    REPLICAS_ZERO("connect-replicas-zero",
            "Strimzi AbstractConnectOperator: connectors of a KafkaConnect with 0 replicas are not started"),
    /** Transactional IDs that need ACLs under EOS. */
    TRANSACTIONAL_IDS("eos-transactional-id-acls",
            "Kafka docs connect.html \"ACL requirements\"; DistributedConfig.transactionalProducerId and "
                    + "Worker.taskTransactionalId"),
    /** Rule 8: a FAILED connector or task. */
    CONNECTOR_FAILED("connector-failed",
            "Strimzi KafkaConnectorStatus connectorStatus (Ready has missed failed tasks, strimzi#6624)"),
    /** Strimzi 0.46-0.48 never roll MirrorMaker 2 pods when the worker configuration changes. */
    MM2_FORCED_ROLL("mm2-forced-roll",
            "Strimzi PR 11926 (first in 0.49.0): KafkaMirrorMaker2 pods of 0.46.0-0.48.x lack "
                    + Strimzi.CONFIG_HASH_ANNOTATION + " and are never rolled when the worker configuration changes; "
                    + "Strimzi docs proc-manual-rolling-update-strimzipodset.adoc: " + Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION
                    + "=\"true\" on the StrimziPodSet rolls every pod at the next reconciliation, then is removed"),
    /** The worker setting must be one of Kafka's three values. */
    UNKNOWN_EOS_MODE("eos-mode-value",
            "Kafka DistributedConfig: exactly.once.source.support is disabled, preparing or enabled"),
    /** Rule 2 was broken by someone else: enabled was set while workers ran disabled. */
    PREPARING_SKIPPED("eos-preparing-skipped",
            "KIP-618: an existing cluster must run preparing on every worker before enabled"),
    /** The planner only knows how to plan against Strimzi. */
    STRIMZI_MISSING("strimzi-installed", "Strimzi custom resources kafkaconnects.kafka.strimzi.io and kafkaconnectors.kafka.strimzi.io"),
    /** A renamed MirrorMaker 2 source alias replaces its connectors, which start without offsets. */
    MIRROR_ALIAS_RENAME("mm2-alias-rename",
            "Strimzi KafkaMirrorMaker2Connectors names connectors <source>-><target>.<Type> and "
                    + "AbstractConnectOperator.reconcileConnectors deletes those it no longer generates; Kafka Connect keys "
                    + "source offsets by [connector name, partition] (OffsetUtils.processPartitionKey), MirrorMaker 2's "
                    + "partition by {cluster: source alias, topic, partition} (MirrorUtils.wrapPartition), "
                    + "MirrorSourceTask.initializeConsumer does not seek a partition without an offset and "
                    + "MirrorConnectorConfig.sourceConsumerConfig defaults auto.offset.reset to earliest; "
                    + "DefaultReplicationPolicy.formatRemoteTopic prefixes remote topics with the source alias; "
                    + "Worker.taskTransactionalId is <group.id>-<connector>-<task>"),
    /** What the configuration says about an object does not match what exists. */
    CONFIGURATION("configuration", "flowform configuration language (docs/configuration.md)"),
    /** An object carries the ownership marks of another environment or state lineage. */
    OWNERSHIP("ownership-marks",
            "flowform ownership marks: annotations " + Ownership.ENVIRONMENT_ANNOTATION + " and "
                    + Ownership.LINEAGE_ANNOTATION + " (Terraform-style state lineage), written by every apply that "
                    + "creates or changes an object"),
    /** An environment acts only on the cluster it was applied to, or on the one expected_server names. */
    SERVER_IDENTITY("cluster-identity",
            "flowform state: the Kubernetes API server recorded by the environment's first apply, and the environment's "
                    + "expected_server (set on purpose when the environment moves)"),
    /** -target limits a plan. */
    TARGETING("resource-targeting", "Terraform plan -target: \"Resource targeting is in effect\""),
    /** Rule 10: the ACLs exactly-once needs, checked against the principal's KafkaUser. */
    EOS_ACLS("eos-acls",
            "Kafka Connect documentation, Security, \"ACL requirements\" (TransactionalId connect-cluster-${groupId} and "
                    + "${groupId}-${connector}-${taskId}, Write and Describe); KIP-618; matched as Kafka's StandardAuthorizer "
                    + "does (StandardAuthorizerData); Strimzi KafkaUser spec.authorization"),
    /** Objects changed since the last apply. */
    DRIFT("drift", "Terraform \"Objects have changed outside of Terraform\"; the state's resource snapshots");

    private final String id;
    private final String source;

    Rule(String id, String source) {
        this.id = id;
        this.source = source;
    }

    /** @return the rule's stable identifier, e.g. {@code mm2-read-committed} */
    public String id() {
        return id;
    }

    /** @return where the rule comes from (KIP, Kafka or Strimzi code, Terraform behaviour) */
    public String source() {
        return source;
    }

    /** @return the suffix every diagnostic of this rule carries: {@code (rule <id>; source: <source>)} */
    public String citation() {
        return "(rule " + id + "; source: " + source + ")";
    }

    /**
     * Reads back the rule a diagnostic cites at the end of its detail ({@link #citation()}).
     *
     * @param diagnostic any diagnostic (of the planner, or of configuration, which cites no rule)
     * @return the cited rule, or empty when the detail cites none
     */
    public static java.util.Optional<Rule> cited(Diagnostic diagnostic) {
        String detail = diagnostic.detail();
        for (Rule r : values()) {
            if (detail.contains("(rule " + r.id + "; source: ")) {
                return java.util.Optional.of(r);
            }
        }
        return java.util.Optional.empty();
    }

    /** @return a diagnostic naming this rule: its citation appended to {@code detail}; range and address may be null */
    public Diagnostic diagnostic(Severity severity, String summary, String detail, SourceRange range, String address) {
        return new Diagnostic(severity, summary, detail + "\n\n" + citation(), range, address);
    }

    /** @return an error of this rule about {@code address} */
    public Diagnostic error(String summary, String detail, String address) {
        return diagnostic(Severity.ERROR, summary, detail, null, address);
    }

    /** @return a warning of this rule about {@code address} */
    public Diagnostic warning(String summary, String detail, String address) {
        return diagnostic(Severity.WARNING, summary, detail, null, address);
    }
}
