package dev.flowform.sim;

import static dev.flowform.sim.ConnectorValidator.CONNECTOR_BOUNDARY_UNSUPPORTED;
import static dev.flowform.sim.ConnectorValidator.EOS_UNSUPPORTED;
import static dev.flowform.sim.ConnectorValidator.MM2_READ_COMMITTED;
import static dev.flowform.sim.ConnectorValidator.NO_PREFLIGHT_API;
import static dev.flowform.sim.ConnectorValidator.WORKER_NOT_ENABLED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.ConnectorRole;
import dev.flowform.model.EosMode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectorValidatorTest {
    static final String SOURCE = ConnectorRole.SOURCE.connectorClass();
    static final String CHECKPOINT = ConnectorRole.CHECKPOINT.connectorClass();
    static final String HEARTBEAT = ConnectorRole.HEARTBEAT.connectorClass();

    @Test
    void requiredNeedsAnEnabledWorker() {
        Map<String, String> cfg = Map.of("exactly.once.support", "REQUIRED", "source.consumer.isolation.level", "read_committed");
        assertThat(ConnectorValidator.validate(SOURCE, cfg, EosMode.DISABLED)).containsExactly(WORKER_NOT_ENABLED);
        assertThat(ConnectorValidator.validate(SOURCE, cfg, EosMode.PREPARING)).containsExactly(WORKER_NOT_ENABLED);
        assertThat(ConnectorValidator.validate(SOURCE, cfg, EosMode.ENABLED)).isEmpty();
        assertThat(ConnectorValidator.validate(SOURCE, Map.of("exactly.once.support", "requested"), EosMode.DISABLED)).isEmpty();
    }

    @Test
    void mirrorSourceNeedsReadCommittedOnItsSourceConsumer() {
        assertThat(ConnectorValidator.validate(SOURCE, Map.of("exactly.once.support", "required"), EosMode.ENABLED))
                .containsExactly(MM2_READ_COMMITTED);
        // Connect's per-connector override does not reach MM2's source consumer
        assertThat(ConnectorValidator.validate(SOURCE, Map.of("exactly.once.support", "required",
                "consumer.override.isolation.level", "read_committed"), EosMode.ENABLED))
                .containsExactly(MM2_READ_COMMITTED);
        // the connector flags exactly.once.support itself, so the worker's own checks of that key are skipped,
        // whatever its mode (Kafka 4.3.1, checked against real workers by ConnectRuntimeDifferentialTest)
        assertThat(ConnectorValidator.validate(SOURCE, Map.of("exactly.once.support", "required"), EosMode.PREPARING))
                .containsExactly(MM2_READ_COMMITTED);
        // the MM2 check compares case-sensitively, the framework's does not
        assertThat(ConnectorValidator.validate(SOURCE, Map.of("exactly.once.support", "Required"), EosMode.ENABLED))
                .containsExactly(EOS_UNSUPPORTED);
        assertThat(MM2_READ_COMMITTED).startsWith("MirrorSourceConnector can only provide exactly-once guarantees when its "
                + "source consumer is configured with isolation.level set to 'read_committed'; otherwise, records from "
                + "aborted and uncommitted transactions will be replicated from the source cluster to the target cluster.");
    }

    @Test
    void isolationLevelResolvesLaterPrefixesLast() {
        // isolation.level is no common client setting, so source.cluster.* does not carry it to the source consumer
        assertThat(ConnectorValidator.sourceConsumerIsolationLevel(Map.of("source.cluster.isolation.level", "read_committed")))
                .isNull();
        assertThat(ConnectorValidator.sourceConsumerIsolationLevel(Map.of("source.cluster.isolation.level", "read_committed",
                "consumer.isolation.level", "read_uncommitted"))).isEqualTo("read_uncommitted");
        assertThat(ConnectorValidator.sourceConsumerIsolationLevel(Map.of("consumer.isolation.level", "read_uncommitted",
                "source.consumer.isolation.level", "read_committed"))).isEqualTo("read_committed");
        assertThat(ConnectorValidator.sourceConsumerIsolationLevel(Map.of())).isNull();
    }

    @Test
    void checkpointAndHeartbeatCannotPassThePreflightCheck() {
        Map<String, String> cfg = Map.of("exactly.once.support", "required");
        assertThat(ConnectorValidator.validate(CHECKPOINT, cfg, EosMode.ENABLED)).containsExactly(NO_PREFLIGHT_API);
        assertThat(ConnectorValidator.validate(HEARTBEAT, cfg, EosMode.PREPARING)).containsExactly(WORKER_NOT_ENABLED, NO_PREFLIGHT_API);
        assertThat(NO_PREFLIGHT_API).contains("use the value \"requested\" for this property");
    }

    @Test
    void connectorDefinedTransactionBoundariesAreUnsupported() {
        assertThat(ConnectorValidator.validate(SOURCE, Map.of("transaction.boundary", "connector"), EosMode.DISABLED))
                .containsExactly(CONNECTOR_BOUNDARY_UNSUPPORTED);
        assertThat(ConnectorValidator.validate(SOURCE, Map.of("transaction.boundary", "interval"), EosMode.ENABLED)).isEmpty();
        assertThat(CONNECTOR_BOUNDARY_UNSUPPORTED)
                .startsWith("The connector does not support connector-defined transaction boundaries with the given configuration.");
    }

    @Test
    void formatsErrorsLikeTheConnectRestApi() {
        assertThat(ConnectorValidator.invalidConfigMessage(List.of("a", "b"))).isEqualTo(
                "Connector configuration is invalid and contains the following 2 error(s):\na\nb\n"
                        + "You can also find the above list of errors at the endpoint "
                        + "`/connector-plugins/{connectorType}/config/validate`");
        assertThat(ConnectorValidator.knownClass("MirrorSourceConnector")).isTrue();
        assertThat(ConnectorValidator.knownClass("org.example.Other")).isFalse();
    }
}
