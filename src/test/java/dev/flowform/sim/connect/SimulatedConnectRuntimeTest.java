package dev.flowform.sim.connect;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.connect.WorkerSpec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.ConnectorValidator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The in-memory Kafka Connect answers the REST calls the simulated operator makes as Kafka Connect does. */
class SimulatedConnectRuntimeTest {
    private static final String CLUSTER = "mirror/dr-connect";
    private static final String SOURCE = "org.apache.kafka.connect.mirror.MirrorSourceConnector";

    private static WorkerSpec worker(int n, String eos) {
        return new WorkerSpec("mirror/dr-connect-connect-" + n, CLUSTER, Map.of("exactly.once.source.support", eos,
                SimulatedConnectRuntime.ADVERTISED_HOST, "10.0.0." + n, SimulatedConnectRuntime.ADVERTISED_PORT, "8083"));
    }

    @Test
    void withoutAWorkerNothingAnswersThePut() {
        SimulatedConnectRuntime rt = new SimulatedConnectRuntime();
        assertThat(rt.putConnectorConfig(CLUSTER, "src", Map.of("connector.class", SOURCE)))
                .isEqualTo(new RestResult(0, "Connection refused"));
        assertThat(rt.status(CLUSTER, "src")).isEmpty();
    }

    @Test
    void validatesAgainstTheMostConservativeWorkerAndReportsTheRejection() {
        SimulatedConnectRuntime rt = new SimulatedConnectRuntime();
        rt.startWorker(worker(0, "enabled"));
        rt.startWorker(worker(1, "preparing"));
        assertThat(rt.healthy("mirror/dr-connect-connect-1")).isTrue();
        RestResult rejected = rt.putConnectorConfig(CLUSTER, "src", Map.of("connector.class", SOURCE,
                "exactly.once.support", "required", "source.consumer.isolation.level", "read_committed"));
        assertThat(rejected.status()).isEqualTo(400);
        assertThat(rejected.message()).isEqualTo(ConnectorValidator.invalidConfigMessage(List.of(ConnectorValidator.WORKER_NOT_ENABLED)));
        assertThat(rt.connectors(CLUSTER)).isEmpty();
        ConnectorStatus failed = rt.status(CLUSTER, "src").orElseThrow();
        assertThat(failed.state()).isEqualTo("FAILED");
        assertThat(failed.trace()).isEqualTo(rejected.message());
        assertThat(failed.tasks()).isEmpty();

        rt.stopWorker("mirror/dr-connect-connect-1", false);
        assertThat(rt.putConnectorConfig(CLUSTER, "src", Map.of("connector.class", SOURCE, "tasks.max", "3",
                "exactly.once.support", "required", "source.consumer.isolation.level", "read_committed")).status()).isEqualTo(201);
        assertThat(rt.status(CLUSTER, "src").orElseThrow().state()).isEqualTo("RUNNING");
    }

    @Test
    void unknownClassesAreAServerError() {
        SimulatedConnectRuntime rt = new SimulatedConnectRuntime();
        rt.startWorker(worker(0, "disabled"));
        RestResult r = rt.putConnectorConfig(CLUSTER, "x", Map.of("connector.class", "com.example.Nope"));
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.message()).startsWith("Failed to find any class that implements Connector and which name matches com.example.Nope");
    }

    @Test
    void tasksAreSpreadRoundRobinFromTheConnectorsWorkerAndStoppedConnectorsHaveNone() {
        SimulatedConnectRuntime rt = new SimulatedConnectRuntime();
        for (int i = 0; i < 3; i++) {
            rt.startWorker(worker(i, "disabled"));
        }
        assertThat(rt.putConnectorConfig(CLUSTER, "src", Map.of("connector.class", SOURCE, "tasks.max", "4")).ok()).isTrue();
        ConnectorStatus s = rt.status(CLUSTER, "src").orElseThrow();
        int first = Math.floorMod("src".hashCode(), 3);
        assertThat(s.workerId()).isEqualTo("10.0.0." + first + ":8083");
        assertThat(s.tasks()).extracting(ConnectorStatus.TaskStatus::workerId).containsExactly(
                "10.0.0." + first + ":8083", "10.0.0." + (first + 1) % 3 + ":8083", "10.0.0." + (first + 2) % 3 + ":8083",
                "10.0.0." + first + ":8083");

        assertThat(rt.setTargetState(CLUSTER, "src", ConnectRuntime.TargetState.STOPPED).ok()).isTrue();
        assertThat(rt.status(CLUSTER, "src").orElseThrow().tasks()).isEmpty();
        assertThat(rt.setTargetState(CLUSTER, "nope", ConnectRuntime.TargetState.PAUSED).status()).isEqualTo(404);
    }

    @Test
    void exportAndImportKeepTheConnectorTableWithoutClassAndTasksMaxInTheConfig() {
        SimulatedConnectRuntime rt = new SimulatedConnectRuntime();
        rt.startWorker(worker(0, "disabled"));
        rt.putConnectorConfig(CLUSTER, "src", Map.of("connector.class", SOURCE, "tasks.max", "2", "topics", "a.*"));
        rt.setTargetState(CLUSTER, "src", ConnectRuntime.TargetState.PAUSED);
        Map<String, Map<String, SimulatedConnectRuntime.Connector>> exported = rt.exportConnectors();
        assertThat(exported).containsOnlyKeys(CLUSTER);
        assertThat(exported.get(CLUSTER).get("src"))
                .isEqualTo(new SimulatedConnectRuntime.Connector(SOURCE, Map.of("topics", "a.*"), "PAUSED", List.of()));

        SimulatedConnectRuntime copy = new SimulatedConnectRuntime();
        copy.importConnector(CLUSTER, "src", new SimulatedConnectRuntime.Connector(SOURCE, Map.of(), "RUNNING", List.of("t1")));
        assertThat(copy.connectors(CLUSTER)).containsExactly("src");
        assertThat(copy.topics(CLUSTER, "src")).containsExactly("t1");
        assertThat(copy.deleteConnector(CLUSTER, "src").status()).isEqualTo(204);
        assertThat(copy.deleteConnector(CLUSTER, "src").status()).isEqualTo(404);
        assertThat(copy.exportConnectors()).isEmpty();
    }
}
