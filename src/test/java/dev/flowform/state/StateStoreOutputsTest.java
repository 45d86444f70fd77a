package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/** Outputs in state (schema V2): replaced as a set, secrets hashed, serial moved only by a change. */
class StateStoreOutputsTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @Test
    void outputsAreReplacedAsASetAndSensitiveValuesAreOnlyHashed() throws Exception {
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            long before = store.stateRef().serial();
            assertThat(store.outputs().replace(List.of(
                    OutputRecord.of("source", "\"orders-source\"", "string", false, "the source connector"),
                    OutputRecord.of("password", "\"Hunter2-Canary\"", "string", true, null)))).isTrue();
            assertThat(store.stateRef().serial()).isEqualTo(before + 1);

            List<OutputRecord> stored = store.outputs().all();
            assertThat(stored).extracting(OutputRecord::name).containsExactly("password", "source");
            assertThat(stored.get(0).valueJson()).isNull();
            assertThat(stored.get(0).valueHash()).isEqualTo(store.cipher().hash("\"Hunter2-Canary\""));
            assertThat(stored.get(1).valueJson()).isEqualTo("\"orders-source\"");
            assertThat(stored.get(1).valueHash()).isNull();
            assertThat(stored.get(1).description()).isEqualTo("the source connector");
            assertThat(stored.get(1).updatedSerial()).isEqualTo(before + 1);

            assertThat(store.outputs().replace(List.of(
                    OutputRecord.of("password", "\"Hunter2-Canary\"", "string", true, null),
                    OutputRecord.of("source", "\"orders-source\"", "string", false, "the source connector")))).isFalse();
            assertThat(store.stateRef().serial()).isEqualTo(before + 1);

            assertThat(store.outputs().replace(List.of(OutputRecord.of("count", "2", "number", false, null)))).isTrue();
            assertThat(store.outputs().all()).extracting(OutputRecord::name).containsExactly("count");
            assertThat(store.stateRef().serial()).isEqualTo(before + 2);
        }
        byte[] file = Files.readAllBytes(StateStore.databaseFile(stateDir, "prod"));
        assertThat(new String(file, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("Hunter2-Canary");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void duplicateNamesAreRefused(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            assertThatThrownBy(() -> store.outputs().replace(List.of(OutputRecord.of("a", "1", "number", false, null),
                    OutputRecord.of("a", "2", "number", false, null)))).isInstanceOf(IllegalArgumentException.class);
            assertThat(store.outputs().all()).isEmpty();
        }
    }
}
