package dev.flowform.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.connect.WorkerSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("kafka")
class KafkaConnectRuntimeSmokeTest {
    @TempDir
    Path dir;

    @Test
    void workerStartsAndRunsMirrorSource() {
        KafkaClusters clusters = KafkaClusters.start(Map.of("dc1", List.of("dc1:9092"), "dc2", List.of("dc2:9092")), dir);
        clusters.createTopic("dc1", "orders", 1);
        try (KafkaConnectRuntime rt = new KafkaConnectRuntime(clusters, dir.resolve("workers"), true)) {
            Map<String, String> props = new LinkedHashMap<>();
            props.put("bootstrap.servers", "dc2:9092");
            props.put("group.id", "smoke");
            props.put("config.storage.topic", "smoke-configs");
            props.put("offset.storage.topic", "smoke-offsets");
            props.put("status.storage.topic", "smoke-status");
            props.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
            props.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
            props.put("exactly.once.source.support", "preparing");
            long t0 = System.nanoTime();
            rt.startWorker(new WorkerSpec("ns/w-0", "ns/c", props));
            await().atMost(Duration.ofSeconds(60)).until(() -> rt.healthy("ns/w-0"));
            System.out.printf("worker healthy after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            Map<String, String> cfg = new LinkedHashMap<>();
            cfg.put("connector.class", "org.apache.kafka.connect.mirror.MirrorSourceConnector");
            cfg.put("source.cluster.alias", "dc1");
            cfg.put("target.cluster.alias", "dc2");
            cfg.put("source.cluster.bootstrap.servers", "dc1:9092");
            cfg.put("target.cluster.bootstrap.servers", "dc2:9092");
            cfg.put("topics", "orders");
            cfg.put("tasks.max", "1");
            cfg.put("exactly.once.support", "required");
            cfg.put("source.consumer.isolation.level", "read_committed");
            RestResult r = rt.putConnectorConfig("ns/c", "m-source", cfg);
            System.out.println(r);
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.message()).contains("This worker does not have exactly-once source support enabled.");
            cfg.put("exactly.once.support", "requested");
            assertThat(rt.putConnectorConfig("ns/c", "m-source", cfg).ok()).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> rt.status("ns/c", "m-source")
                    .map(s -> s.state().equals("RUNNING") && !s.tasks().isEmpty()
                            && s.tasks().stream().allMatch(t -> t.state().equals("RUNNING"))).orElse(false));
            ConnectorStatus s = rt.status("ns/c", "m-source").orElseThrow();
            System.out.println(s);
            assertThat(rt.connectors("ns/c")).containsExactly("m-source");
        }
    }
}
