package dev.flowform.sim;

import dev.flowform.model.ConnectorRole;
import dev.flowform.model.EosMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Validates a MirrorMaker 2 connector configuration as a Kafka Connect worker does before it accepts
 * {@code PUT /connectors/{name}/config}, limited to the exactly-once rules (KIP-618), with Kafka's messages in Kafka's
 * order (apache/kafka {@code DistributedHerder}, {@code MirrorSourceConnector}, {@code AbstractHerder}).
 */
public final class ConnectorValidator {
    /** Framework error when {@code required} is set but the validating worker is {@code disabled} or {@code preparing}. */
    public static final String WORKER_NOT_ENABLED = "This worker does not have exactly-once source support enabled.";
    /** Framework error for connectors whose {@code exactlyOnceSupport} returns null (MirrorCheckpoint/MirrorHeartbeat). */
    public static final String NO_PREFLIGHT_API = "The connector does not implement the API required for preflight "
            + "validation of exactly-once source support. Please consult the documentation for the connector to "
            + "determine whether it supports exactly-once semantics, and then consider reconfiguring the connector to "
            + "use the value \"requested\" for this property (which will disable this preflight check and allow the "
            + "connector to be created).";
    /** Framework error when {@code exactlyOnceSupport} returns UNSUPPORTED (MirrorSource without read_committed). */
    public static final String EOS_UNSUPPORTED =
            "The connector does not support exactly-once semantics with the provided configuration.";
    /** MirrorSourceConnector's own error for {@code required} without a read_committed source consumer. */
    public static final String MM2_READ_COMMITTED = "MirrorSourceConnector can only provide exactly-once guarantees "
            + "when its source consumer is configured with isolation.level set to 'read_committed'; otherwise, records "
            + "from aborted and uncommitted transactions will be replicated from the source cluster to the target cluster.";
    /**
     * Framework error for {@code transaction.boundary: connector} on a connector that cannot define boundaries
     * (all MM2 connectors keep the UNSUPPORTED default).
     */
    public static final String CONNECTOR_BOUNDARY_UNSUPPORTED = "The connector does not support connector-defined "
            + "transaction boundaries with the given configuration. Please reconfigure it to use a different "
            + "transaction boundary definition.";
    /** Connector key selecting the preflight check. */
    public static final String EXACTLY_ONCE_SUPPORT = "exactly.once.support";
    /** Connector key selecting how transactions are bounded. */
    public static final String TRANSACTION_BOUNDARY = "transaction.boundary";

    private ConnectorValidator() {
    }

    /**
     * @param connectorClass {@code spec.class}: a fully qualified MM2 class or its simple name
     * @return true when the simulated workers have that plugin installed (the three MM2 connectors)
     */
    public static boolean knownClass(String connectorClass) {
        return ConnectorRole.ofClass(connectorClass) != null;
    }

    /**
     * Runs the exactly-once validation of one connector configuration.
     *
     * @param connectorClass {@code spec.class}
     * @param config         {@code spec.config}, values as strings
     * @param workerMode     {@code exactly.once.source.support} of the worker that received the request
     * @return Kafka's error messages in Kafka's order; empty when the configuration is accepted
     */
    public static List<String> validate(String connectorClass, Map<String, String> config, EosMode workerMode) {
        ConnectorRole role = ConnectorRole.ofClass(connectorClass);
        List<String> errors = new ArrayList<>();
        String support = config.get(EXACTLY_ONCE_SUPPORT);
        // MirrorSourceConnector.validate flags exactly.once.support itself (case-sensitive "required" without
        // read_committed); DistributedHerder then skips its own checks of that key, so this is the only error for
        // it, whatever the worker's mode (Kafka 4.3.1).
        boolean mm2Rejects = role == ConnectorRole.SOURCE && "required".equals(support)
                && !"read_committed".equals(sourceConsumerIsolationLevel(config));
        if (!mm2Rejects && support != null && "required".equals(support.strip().toLowerCase(Locale.ROOT))) {
            if (workerMode != EosMode.ENABLED) {
                errors.add(WORKER_NOT_ENABLED);
            }
            if (role == ConnectorRole.SOURCE) {
                if (!"read_committed".equals(sourceConsumerIsolationLevel(config))) {
                    errors.add(EOS_UNSUPPORTED);
                }
            } else {
                errors.add(NO_PREFLIGHT_API);
            }
        }
        String boundary = config.get(TRANSACTION_BOUNDARY);
        if (boundary != null && "connector".equals(boundary.strip().toLowerCase(Locale.ROOT))) {
            errors.add(CONNECTOR_BOUNDARY_UNSUPPORTED);
        }
        if (mm2Rejects) {
            errors.add(MM2_READ_COMMITTED);
        }
        return errors;
    }

    /**
     * The effective {@code isolation.level} of MirrorSourceConnector's source consumer
     * ({@code MirrorSourceConfig.sourceConsumerConfig}: {@code consumer.*}, then {@code source.consumer.*}); neither
     * {@code source.cluster.*} nor {@code consumer.override.*} reaches it (docs/domain-rules.md, 4).
     *
     * @param config the connector configuration
     * @return the value, or null when none is set (Kafka's default is read_uncommitted)
     */
    public static String sourceConsumerIsolationLevel(Map<String, String> config) {
        String level = null;
        for (String prefix : List.of("consumer.", "source.consumer.")) {
            String v = config.get(prefix + "isolation.level");
            if (v != null) {
                level = v;
            }
        }
        return level;
    }

    /**
     * Formats errors as Kafka Connect's REST layer does ({@code AbstractHerder.maybeAddConfigErrors}).
     *
     * @param errors the messages from {@link #validate(String, Map, EosMode)}, not empty
     * @return "Connector configuration is invalid and contains the following N error(s):\n..." with the
     *         pointer to the validate endpoint
     */
    public static String invalidConfigMessage(List<String> errors) {
        StringBuilder sb = new StringBuilder("Connector configuration is invalid and contains the following ")
                .append(errors.size()).append(" error(s):");
        errors.forEach(e -> sb.append('\n').append(e));
        return sb.append("\nYou can also find the above list of errors at the endpoint "
                + "`/connector-plugins/{connectorType}/config/validate`").toString();
    }
}
