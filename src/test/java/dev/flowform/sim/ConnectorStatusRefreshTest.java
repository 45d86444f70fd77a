package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flowform.connect.ConnectRuntime.TargetState;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.model.LiveConnector;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The simulated operator keeps reading a KafkaConnector's status from Connect until it settles, for each generation:
 * a status refresh still pending for the generation before must not keep the new one from being read. Real Kafka
 * Connect reports a stopped connector's tasks UNASSIGNED for a while and a resumed connector UNASSIGNED without tasks
 * right after the resume, which is when both happen.
 */
class ConnectorStatusRefreshTest extends SimTestSupport {

    /** Answers status reads as real Connect does around a stop and a resume. */
    static final class LaggingRuntime extends ConnectRuntimePortTest.SlowRuntime {
        /** Status reads left that show a resumed connector UNASSIGNED without tasks. */
        final AtomicInteger unassignedReads = new AtomicInteger();

        @Override
        public RestResult setTargetState(String cluster, String name, TargetState state) {
            Optional<ConnectorStatus> before = delegate.status(cluster, name);
            if (state == TargetState.RUNNING && before.isPresent() && "STOPPED".equals(before.get().state())) {
                unassignedReads.set(2);
            }
            return super.setTargetState(cluster, name, state);
        }

        @Override
        public Optional<ConnectorStatus> status(String cluster, String name) {
            return delegate.status(cluster, name).map(s -> {
                if ("STOPPED".equals(s.state())) {
                    // the status topic still holds the old task's entry
                    return new ConnectorStatus(s.name(), s.state(), s.workerId(), s.trace(),
                            List.of(new ConnectorStatus.TaskStatus(0, "UNASSIGNED", s.workerId(), null)), s.type());
                }
                if (unassignedReads.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    return new ConnectorStatus(s.name(), "UNASSIGNED", s.workerId(), null, List.of(), s.type());
                }
                return s;
            });
        }
    }

    @Test
    void aConnectorResumedWhileTheStatusOfItsStopIsStillReadReportsRunning() {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed("v1beta2"))
                .settings(SimSettings.fast()).connectRuntime(LaggingRuntime::new).build());
        awaitIdle();
        long stopped = editSpec(StrimziCrds.kafkaConnector(api()), NS, SOURCE, spec -> spec.put("state", "stopped"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            LiveConnector c = liveConnector(NS, SOURCE);
            assertThat(c.observedGeneration()).isEqualTo(stopped);
            assertThat(c.connectorState()).isEqualTo("STOPPED");
        });

        long resumed = editSpec(StrimziCrds.kafkaConnector(api()), NS, SOURCE, spec -> spec.put("state", "running"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            LiveConnector c = liveConnector(NS, SOURCE);
            assertThat(c.observedGeneration()).isEqualTo(resumed);
            assertThat(c.connectorState()).isEqualTo("RUNNING");
            assertThat(c.tasks()).isNotEmpty().extracting(dev.flowform.model.TaskStatus::state).containsOnly("RUNNING");
        });
    }
}
