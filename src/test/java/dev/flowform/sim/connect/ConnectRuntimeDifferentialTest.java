package dev.flowform.sim.connect;

import dev.flowform.connect.RealKafka;
import dev.flowform.connect.RestResult;
import dev.flowform.connect.WorkerSpec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The simulated Connect runtime against the real one: MirrorMaker 2 connector configurations (source,
 * checkpoint, heartbeat; {@code exactly.once.support} required / requested / absent; the source consumer's
 * isolation level set, absent, or only through {@code consumer.override.*}; {@code transaction.boundary}
 * poll / interval / connector) sent with {@code PUT /connectors/{name}/config} to workers in each
 * {@code exactly.once.source.support} mode. Both must give the same verdict and, for a rejection, the same
 * status and message: this is what keeps the fast tests, which use the simulated runtime, honest.
 */
@Tag("kafka")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectRuntimeDifferentialTest {
    private static final List<String> MODES = List.of("disabled", "preparing", "enabled");
    private static final String SOURCE = "org.apache.kafka.connect.mirror.MirrorSourceConnector";
    private static final String CHECKPOINT = "org.apache.kafka.connect.mirror.MirrorCheckpointConnector";
    private static final String HEARTBEAT = "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector";

    @TempDir
    static Path dir;

    private RealKafka kafka;
    private final SimulatedConnectRuntime sim = new SimulatedConnectRuntime();
    private final List<String> table = new ArrayList<>();

    @BeforeAll
    void start() {
        kafka = RealKafka.start(Map.of("dc1", List.of("dc1-kafka-bootstrap:9092"), "dc2", List.of("dc2-kafka-bootstrap:9092")),
                Map.of("dc1", List.of("orders")), dir);
        for (String mode : MODES) {
            WorkerSpec w = new WorkerSpec("diff/" + mode + "-connect-0", "diff/" + mode, workerProperties(mode));
            kafka.runtime().startWorker(w);
            sim.startWorker(w);
        }
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                .until(() -> MODES.stream().allMatch(m -> kafka.runtime().healthy("diff/" + m + "-connect-0")));
    }

    @AfterAll
    void stop() {
        table.forEach(System.out::println);
        if (kafka != null) {
            kafka.close();
        }
        sim.close();
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        List<Case> cases = List.of(
                new Case("source, no EOS keys", SOURCE, Map.of()),
                new Case("source, requested", SOURCE, Map.of("exactly.once.support", "requested")),
                new Case("source, requested, read_committed", SOURCE,
                        Map.of("exactly.once.support", "requested", "source.consumer.isolation.level", "read_committed")),
                new Case("source, required, read_committed", SOURCE,
                        Map.of("exactly.once.support", "required", "source.consumer.isolation.level", "read_committed")),
                new Case("source, required, no isolation", SOURCE, Map.of("exactly.once.support", "required")),
                new Case("source, required, consumer.override isolation only", SOURCE,
                        Map.of("exactly.once.support", "required", "consumer.override.isolation.level", "read_committed")),
                new Case("source, required, read_uncommitted", SOURCE,
                        Map.of("exactly.once.support", "required", "source.consumer.isolation.level", "read_uncommitted")),
                new Case("source, required, consumer.isolation.level", SOURCE,
                        Map.of("exactly.once.support", "required", "consumer.isolation.level", "read_committed")),
                new Case("source, required, source.cluster.isolation.level", SOURCE,
                        Map.of("exactly.once.support", "required", "source.cluster.isolation.level", "read_committed")),
                new Case("source, required, read_committed, boundary poll", SOURCE, Map.of("exactly.once.support", "required",
                        "source.consumer.isolation.level", "read_committed", "transaction.boundary", "poll")),
                new Case("source, required, read_committed, boundary interval", SOURCE, Map.of("exactly.once.support",
                        "required", "source.consumer.isolation.level", "read_committed", "transaction.boundary", "interval",
                        "transaction.boundary.interval.ms", "3000")),
                new Case("source, required, read_committed, boundary connector", SOURCE, Map.of("exactly.once.support",
                        "required", "source.consumer.isolation.level", "read_committed", "transaction.boundary", "connector")),
                new Case("source, boundary connector", SOURCE, Map.of("transaction.boundary", "connector")),
                new Case("source, requested, read_committed, boundary interval", SOURCE, Map.of("exactly.once.support",
                        "requested", "source.consumer.isolation.level", "read_committed", "transaction.boundary", "interval")),
                new Case("source, REQUIRED upper case, read_committed", SOURCE,
                        Map.of("exactly.once.support", "REQUIRED", "source.consumer.isolation.level", "read_committed")),
                new Case("checkpoint, no EOS keys", CHECKPOINT, Map.of()),
                new Case("checkpoint, requested", CHECKPOINT, Map.of("exactly.once.support", "requested")),
                new Case("checkpoint, required, read_committed", CHECKPOINT,
                        Map.of("exactly.once.support", "required", "source.consumer.isolation.level", "read_committed")),
                new Case("checkpoint, required", CHECKPOINT, Map.of("exactly.once.support", "required")),
                new Case("checkpoint, requested, boundary connector", CHECKPOINT,
                        Map.of("exactly.once.support", "requested", "transaction.boundary", "connector")),
                new Case("heartbeat, no EOS keys", HEARTBEAT, Map.of()),
                new Case("heartbeat, required", HEARTBEAT, Map.of("exactly.once.support", "required")),
                new Case("heartbeat, requested, boundary interval", HEARTBEAT,
                        Map.of("exactly.once.support", "requested", "transaction.boundary", "interval")));
        int i = 0;
        for (Case c : cases) {
            i++;
            for (String mode : MODES) {
                out.add(Arguments.of(i, c, mode));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "[{0}] {1} on {2} workers")
    @MethodSource("cases")
    void both_runtimes_give_the_same_verdict_and_message(int index, Case c, String mode) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("connector.class", c.connectorClass());
        config.put("tasks.max", "1");
        config.put("source.cluster.alias", "dc1");
        config.put("target.cluster.alias", "dc2");
        config.put("source.cluster.bootstrap.servers", "dc1-kafka-bootstrap:9092");
        config.put("target.cluster.bootstrap.servers", "dc2-kafka-bootstrap:9092");
        config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        if (c.connectorClass().equals(SOURCE)) {
            config.put("topics", "orders");
        }
        config.putAll(c.extra());
        String cluster = "diff/" + mode;
        String name = "case-" + index;
        RestResult real = kafka.runtime().putConnectorConfig(cluster, name, config);
        RestResult simulated = sim.putConnectorConfig(cluster, name, config);
        table.add(String.format("%-60s %-9s real %d sim %d %s", c.name(), mode, real.status(), simulated.status(),
                real.ok() ? "" : firstError(real.message())));
        if (real.ok()) {
            kafka.runtime().deleteConnector(cluster, name);
        }
        if (simulated.ok()) {
            sim.deleteConnector(cluster, name);
        }
        assertThat(simulated.ok()).as("verdict; real Kafka answered %s", real).isEqualTo(real.ok());
        if (!real.ok()) {
            assertThat(simulated.status()).isEqualTo(real.status());
            assertThat(simulated.message()).isEqualTo(real.message());
        }
    }

    private static String firstError(String message) {
        String[] lines = message == null ? new String[0] : message.split("\n");
        return lines.length > 1 ? lines[1] : String.valueOf(message);
    }

    private static Map<String, String> workerProperties(String mode) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("bootstrap.servers", "dc2-kafka-bootstrap:9092");
        p.put("group.id", "diff-" + mode);
        p.put("config.storage.topic", "diff-" + mode + "-configs");
        p.put("offset.storage.topic", "diff-" + mode + "-offsets");
        p.put("status.storage.topic", "diff-" + mode + "-status");
        p.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        p.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        p.put("exactly.once.source.support", mode);
        return p;
    }

    /**
     * One configuration of the table.
     *
     * @param name           what it is
     * @param connectorClass the MirrorMaker 2 connector
     * @param extra          the keys under test
     */
    record Case(String name, String connectorClass, Map<String, String> extra) {
        @Override
        public String toString() {
            return name;
        }
    }
}
