package dev.flowform.plan.rules;

import dev.flowform.diag.Severity;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.EosMode;
import dev.flowform.plan.Rule;
import dev.flowform.plan.rules.Finding.Subject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The exactly-once rules of a MirrorMaker 2 connector's configuration in one place (docs/domain-rules.md, 3 and 4):
 * {@link Rule#REQUIRED_AFTER_ENABLED}, {@link Rule#REQUIRED_SOURCE_ONLY}, {@link Rule#TRANSACTION_BOUNDARY},
 * {@link Rule#READ_COMMITTED} and {@link Rule#CONSUMER_OVERRIDE}. Configuration validation asks about what a file
 * says and places each finding there; the planner asks about each merged desired connector and leaves it out on an
 * error. Pure.
 */
public final class ConnectorRules {

    /** Connector key that asks for (or requires) exactly-once support (KIP-618). */
    public static final String EXACTLY_ONCE_SUPPORT = "exactly.once.support";
    /** Connector key for the transaction boundary (KIP-618). */
    public static final String TRANSACTION_BOUNDARY = "transaction.boundary";
    /** MirrorMaker 2's source-consumer isolation level (MirrorSourceConfig.sourceConsumerConfig). */
    public static final String SOURCE_ISOLATION_LEVEL = "source.consumer.isolation.level";
    /** KIP-458 override of the isolation level of Connect's own consumer, which MirrorMaker 2 does not read. */
    public static final String CONSUMER_OVERRIDE_ISOLATION = "consumer.override.isolation.level";
    /** The isolation level an exactly-once source connector reads with. */
    public static final String READ_COMMITTED = "read_committed";

    private static final String READ_UNCOMMITTED = "read_uncommitted";
    private static final String REQUIRED = "required";
    private static final String CONNECTOR_BOUNDARY = "connector";

    private ConnectorRules() {
    }

    /**
     * @param value a value of {@value #EXACTLY_ONCE_SUPPORT}, or null
     * @return true when it is {@code required} (Kafka's {@code ExactlyOnceSupportLevel}, any case)
     */
    public static boolean isRequired(String value) {
        return REQUIRED.equalsIgnoreCase(value);
    }

    // ------------------------------------------------------------------------------------ configuration

    /**
     * Rule {@link Rule#TRANSACTION_BOUNDARY} on a flow's {@code transaction_boundary} argument.
     *
     * @param boundary the argument's value ({@code poll}, {@code interval} or {@code connector}), or null
     * @return an error about the argument's value for {@code connector}
     */
    public static Optional<Finding> boundaryArgument(String boundary) {
        if (!CONNECTOR_BOUNDARY.equals(boundary)) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.TRANSACTION_BOUNDARY, Severity.ERROR, "Unsupported transaction boundary",
                connectorBoundary("transaction_boundary \"connector\""), Subject.ELEMENT));
    }

    /**
     * Rule {@link Rule#READ_COMMITTED} on a flow's {@code isolation_level} argument.
     *
     * @param exactlyOnce  true when the flow has exactly_once on (the default)
     * @param isolation    the argument's value, or null
     * @param acknowledged true when the flow sets {@code acknowledge_read_uncommitted}
     * @return about the {@code isolation_level} value: an error for an exactly-once flow reading
     *         {@code read_uncommitted}, a warning when the flow acknowledged it
     */
    public static Optional<Finding> readUncommitted(boolean exactlyOnce, String isolation, boolean acknowledged) {
        if (!exactlyOnce || !READ_UNCOMMITTED.equals(isolation)) {
            return Optional.empty();
        }
        String summary = "Exactly-once flow reads uncommitted records";
        if (acknowledged) {
            return Optional.of(new Finding(Rule.READ_COMMITTED, Severity.WARNING, summary, "exactly_once is on but "
                    + "isolation_level is \"read_uncommitted\", acknowledged with acknowledge_read_uncommitted: the source "
                    + "connector gets exactly.once.support=requested, writes in transactions, and replicates records of "
                    + "aborted transactions as if they were committed.", Subject.ELEMENT));
        }
        return Optional.of(new Finding(Rule.READ_COMMITTED, Severity.ERROR, summary, "exactly_once is on (the default) but "
                + "isolation_level is \"read_uncommitted\": MirrorMaker 2 would replicate records of aborted transactions as "
                + "if they were committed, and Kafka rejects exactly.once.support=required for such a connector. Use "
                + "\"read_committed\" (the default with exactly_once), set exactly_once to false, or set "
                + "\"acknowledge_read_uncommitted\": true to run with exactly.once.support=requested and accept it.",
                Subject.ELEMENT));
    }

    /**
     * Rule {@link Rule#READ_COMMITTED}: the acknowledgement of {@code read_uncommitted} where there is nothing to
     * acknowledge.
     *
     * @param exactlyOnce  true when the flow has exactly_once on
     * @param isolation    its {@code isolation_level}, or null
     * @param acknowledged true when it sets {@code acknowledge_read_uncommitted}
     * @return a warning about the {@code acknowledge_read_uncommitted} value when {@link #readUncommitted} has
     *         nothing to say and the flow acknowledges anyway
     */
    public static Optional<Finding> unneededAcknowledgement(boolean exactlyOnce, String isolation, boolean acknowledged) {
        if (!acknowledged || (exactlyOnce && READ_UNCOMMITTED.equals(isolation))) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.READ_COMMITTED, Severity.WARNING, "Unneeded acknowledgement",
                "acknowledge_read_uncommitted has an effect only on a flow with exactly_once on and isolation_level "
                        + "\"read_uncommitted\"; remove it.", Subject.ELEMENT));
    }

    /**
     * The rules on one entry of a flow's {@code config} or {@code connector_config.<role>} object:
     * {@link Rule#REQUIRED_SOURCE_ONLY}, {@link Rule#TRANSACTION_BOUNDARY}, {@link Rule#CONSUMER_OVERRIDE}.
     *
     * @param value its value stripped and in lower case, or null when it is not a plain string (or sensitive)
     * @param roles the connector roles ({@code source}, {@code checkpoint}, {@code heartbeat}) the object reaches
     * @param where how the object is named in messages, e.g. {@code config} or {@code connector_config.source}
     * @return the finding, about the entry's key or value; empty when these rules accept it
     */
    public static Optional<Finding> configEntry(String key, String value, Set<String> roles, String where) {
        boolean reachesSource = roles.contains("source");
        if (key.equals(EXACTLY_ONCE_SUPPORT) && REQUIRED.equals(value)
                && (roles.contains("checkpoint") || roles.contains("heartbeat"))) {
            String which = roles.contains("checkpoint") && roles.contains("heartbeat") ? "checkpoint and heartbeat"
                    : roles.contains("checkpoint") ? "checkpoint" : "heartbeat";
            return Optional.of(new Finding(Rule.REQUIRED_SOURCE_ONLY, Severity.ERROR, "exactly.once.support: required on a "
                    + which + " connector", where + " puts exactly.once.support=required on the flow's " + which
                    + " connector" + (which.contains(" and ") ? "s" : "") + ": MirrorCheckpointConnector and "
                    + "MirrorHeartbeatConnector do not implement KIP-618's preflight check, so Kafka rejects them (\"The "
                    + "connector does not implement the API required for preflight validation of exactly-once source "
                    + "support\"). flowform sets it on the source connector from exactly_once; remove this key.",
                    Subject.KEY));
        }
        if (key.equals(TRANSACTION_BOUNDARY) && CONNECTOR_BOUNDARY.equals(value) && reachesSource) {
            return Optional.of(new Finding(Rule.TRANSACTION_BOUNDARY, Severity.ERROR, "Unsupported transaction boundary",
                    connectorBoundary("transaction.boundary \"connector\" (in " + where + ")"), Subject.VALUE));
        }
        if (key.equals(CONSUMER_OVERRIDE_ISOLATION) && reachesSource) {
            return Optional.of(new Finding(Rule.CONSUMER_OVERRIDE, Severity.WARNING,
                    "consumer.override.isolation.level does not reach MirrorMaker 2's source consumer", where + " sets "
                    + "consumer.override.isolation.level, which configures the Connect worker's consumer for this "
                    + "connector, not MirrorSourceConnector's consumer of the source cluster. That one is set by "
                    + SOURCE_ISOLATION_LEVEL + ", which flowform writes from the argument isolation_level (read_committed "
                    + "with exactly_once).", Subject.KEY));
        }
        return Optional.empty();
    }

    /**
     * Rule {@link Rule#REQUIRED_AFTER_ENABLED} on a {@code connect_cluster}: exactly-once flows need its workers
     * to end at {@code enabled}.
     *
     * @param wantedByFlows true when a flow on it has exactly_once on
     * @param workers     the mode its workers end at
     * @return an error about the cluster block when they would not
     */
    public static Optional<Finding> workersForFlows(String cluster, boolean wantedByFlows, EosMode workers) {
        if (!wantedByFlows || workers == EosMode.ENABLED) {
            return Optional.empty();
        }
        return Optional.of(new Finding(Rule.REQUIRED_AFTER_ENABLED, Severity.ERROR,
                "Exactly-once flow on a cluster without exactly-once support", "A replication flow on connect_cluster \""
                + cluster + "\" sets exactly_once (the default), but the cluster declares exactly_once_source_support = \""
                + workers.value() + "\". Source connectors with exactly.once.support=required are rejected unless every "
                + "worker runs with exactly.once.source.support=enabled (KIP-618). Set the cluster to \"enabled\" or the "
                + "flow's exactly_once to false.", Subject.ELEMENT));
    }

    private static String connectorBoundary(String where) {
        return where + " is not supported by MirrorSourceConnector: it does not define its own transaction "
                + "boundaries (it does not implement ConnectorTransactionBoundaries), so Kafka rejects the connector. Use "
                + "\"poll\" (the default) or \"interval\" with transaction.boundary.interval.ms.";
    }

    // ------------------------------------------------------------------------------------ desired connectors

    /**
     * Every rule on one desired connector, as Kafka will validate its merged configuration. The planner leaves a
     * connector with an error out of the plan.
     *
     * @param cluster the name of the Connect cluster it runs on
     * @param workers the mode that cluster's workers end at
     * @return the findings about the connector, in the order the rules are checked: at most one error, which
     *         ends the list, or the {@link Rule#CONSUMER_OVERRIDE} warning
     */
    public static List<Finding> desiredConnector(DesiredConnector d, String cluster, EosMode workers) {
        List<Finding> out = new ArrayList<>();
        requirement(d, cluster, workers).ifPresent(out::add);
        if (out.isEmpty()) {
            boundaryAndIsolation(d).ifPresent(out::add);
        }
        if (out.isEmpty() && d.role() == ConnectorRole.SOURCE && d.config().containsKey(CONSUMER_OVERRIDE_ISOLATION)) {
            out.add(new Finding(Rule.CONSUMER_OVERRIDE, Severity.WARNING,
                    "consumer.override.isolation.level does not reach MirrorMaker 2's source consumer",
                    d.address() + " sets consumer.override.isolation.level, which configures Kafka Connect's own consumer, "
                            + "not the consumer MirrorMaker 2 reads the source cluster with. Use isolation_level (it sets "
                            + "source.consumer.isolation.level).", Subject.ELEMENT));
        }
        return out;
    }

    /** Rules {@link Rule#REQUIRED_AFTER_ENABLED} and {@link Rule#REQUIRED_SOURCE_ONLY} on a desired connector. */
    private static Optional<Finding> requirement(DesiredConnector d, String cluster, EosMode workers) {
        if (!isRequired(d.config().get(EXACTLY_ONCE_SUPPORT))) {
            return Optional.empty();
        }
        if (workers != EosMode.ENABLED) {
            return Optional.of(new Finding(Rule.REQUIRED_AFTER_ENABLED, Severity.ERROR,
                    "Connector requires exactly-once support the workers will not have",
                    d.address() + " sets exactly.once.support=required but connect_cluster \"" + cluster
                            + "\" ends at exactly.once.source.support=" + workers.value() + "; Kafka rejects it (\"This worker "
                            + "does not have exactly-once source support enabled.\").", Subject.ELEMENT));
        }
        if (d.role() != ConnectorRole.SOURCE) {
            return Optional.of(new Finding(Rule.REQUIRED_SOURCE_ONLY, Severity.ERROR,
                    "exactly.once.support=required on a " + d.role().suffix() + " connector",
                    d.address() + ": Mirror" + (d.role() == ConnectorRole.CHECKPOINT ? "Checkpoint" : "Heartbeat")
                            + "Connector does not implement KIP-618's preflight API, so Kafka rejects \"required\". Only the "
                            + "source connector takes it.", Subject.ELEMENT));
        }
        return Optional.empty();
    }

    /** Rules {@link Rule#TRANSACTION_BOUNDARY} and {@link Rule#READ_COMMITTED} on a desired connector. */
    private static Optional<Finding> boundaryAndIsolation(DesiredConnector d) {
        String boundary = d.config().get(TRANSACTION_BOUNDARY);
        if (boundary != null && CONNECTOR_BOUNDARY.equals(boundary.trim().toLowerCase(Locale.ROOT))) {
            return Optional.of(new Finding(Rule.TRANSACTION_BOUNDARY, Severity.ERROR,
                    "transaction.boundary=connector on MirrorMaker 2", d.address() + " sets transaction.boundary=connector, "
                    + "but MirrorMaker 2 connectors cannot define transaction boundaries; Kafka rejects the configuration. "
                    + "Use poll (the default) or interval.", Subject.ELEMENT));
        }
        if (d.exactlyOnce() && d.role() == ConnectorRole.SOURCE && !READ_COMMITTED.equals(d.config().get(SOURCE_ISOLATION_LEVEL))) {
            return Optional.of(new Finding(Rule.READ_COMMITTED, Severity.ERROR, "Exactly-once flow without read_committed",
                    d.address() + ": with exactly_once the MirrorSourceConnector's source consumer must use "
                            + "isolation.level=read_committed; otherwise records of aborted transactions are replicated as "
                            + "committed, and Kafka rejects exactly.once.support=required.", Subject.ELEMENT));
        }
        return Optional.empty();
    }
}
