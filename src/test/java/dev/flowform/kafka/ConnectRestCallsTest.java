package dev.flowform.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.connect.RestResult;
import org.junit.jupiter.api.Test;

/**
 * How the real runtime addresses connectors and which Connect REST answers it sends again. No Kafka needed.
 */
class ConnectRestCallsTest {

    @Test
    void mirror_maker_2_connector_names_are_one_encoded_path_segment() {
        assertThat(ConnectRest.connectorPath("dc1->dc2.MirrorSourceConnector"))
                .isEqualTo("/connectors/dc1-%3Edc2.MirrorSourceConnector");
        assertThat(ConnectRest.connectorPath("dc1-to-dc2-source")).isEqualTo("/connectors/dc1-to-dc2-source");
        assertThat(ConnectRest.connectorPath("a b/c")).isEqualTo("/connectors/a%20b%2Fc");
    }

    @Test
    void rebalances_and_forwarding_to_a_stopped_leader_are_retried_validation_errors_are_not() {
        assertThat(KafkaConnectRuntime.transientFailure(new RestResult(409,
                "Cannot complete request momentarily due to no known leader URL, likely because a rebalance was underway.")))
                .isTrue();
        assertThat(KafkaConnectRuntime.transientFailure(new RestResult(500,
                "IO Error trying to forward REST request: java.net.ConnectException: Connection refused"))).isTrue();
        assertThat(KafkaConnectRuntime.transientFailure(new RestResult(503, "starting"))).isTrue();
        assertThat(KafkaConnectRuntime.transientFailure(new RestResult(500, "Request timed out"))).isFalse();
        assertThat(KafkaConnectRuntime.transientFailure(new RestResult(400,
                "Connector configuration is invalid and contains the following 1 error(s)"))).isFalse();
        assertThat(KafkaConnectRuntime.transientFailure(new RestResult(404, "Connector x not found"))).isFalse();
        assertThat(KafkaConnectRuntime.transientFailure(RestResult.success(200))).isFalse();
    }
}
