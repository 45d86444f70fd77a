package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

class StateStoreResourcesTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void snapshotsAreSavedReplacedListedAndDeleted(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            ResourceSnapshot saved = store.snapshots().save(
                    ResourceSnapshot.of("kafka_connector.orders-source", "KafkaConnector", "kafka", "orders-source", "{\"v\":1}"));
            assertThat(saved.updatedSerial()).isEqualTo(1);
            assertThat(saved.updatedAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
            store.snapshots().save(ResourceSnapshot.of("connect_cluster.eu", "KafkaConnect", "kafka", "eu", "{}"));

            clock.advance(Duration.ofMinutes(1));
            ResourceSnapshot replaced = store.snapshots().save(
                    ResourceSnapshot.of("kafka_connector.orders-source", "KafkaConnector", "kafka", "orders-source", "{\"v\":2}"));
            assertThat(replaced.updatedSerial()).isEqualTo(3);

            assertThat(store.snapshots().all()).extracting(ResourceSnapshot::address)
                    .containsExactly("connect_cluster.eu", "kafka_connector.orders-source");
            assertThat(store.snapshots().get("kafka_connector.orders-source")).contains(replaced);
            assertThat(replaced.bodyJson()).isEqualTo("{\"v\":2}");
            assertThat(replaced.updatedAt()).isEqualTo(Instant.parse("2026-03-01T10:01:00Z"));

            assertThat(store.snapshots().delete("connect_cluster.eu")).isTrue();
            assertThat(store.snapshots().delete("connect_cluster.eu")).isFalse();
            assertThat(store.snapshots().get("connect_cluster.eu")).isEmpty();
        }
        try (StateStore store = place.open("prod", clock)) {
            assertThat(store.snapshots().all()).singleElement()
                    .satisfies(r -> assertThat(r.bodyJson()).isEqualTo("{\"v\":2}"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void largeBodiesAreStoredWhole(StatePlace place) {
        String big = "{\"pad\":\"" + "x".repeat(3_000_000) + "\"}";
        try (StateStore store = place.open("prod", clock)) {
            store.snapshots().save(ResourceSnapshot.of("connect_cluster.big", "KafkaConnect", "kafka", "big", big));
            long run = store.journal().startRun("apply", big, "a@h", "1");
            assertThat(store.snapshots().get("connect_cluster.big").orElseThrow().bodyJson()).hasSize(big.length());
            assertThat(store.journal().planJson(run).orElseThrow()).isEqualTo(big);
        }
    }
}
