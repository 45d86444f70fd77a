package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.flowform.locking.Renewal;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The state lock's heartbeat, as {@link HeldStateLock} runs it: {@link StateLockTable#heartbeat} through a {@link Renewal}. */
class LockHeartbeatTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void keepsTheLockFreshWhileALongStepRuns(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            LockInfo lock = store.lockTable().lock("apply", "alice@host", "0.1.0");
            try (Renewal heartbeat = Renewal.start("test-heartbeat", Duration.ofMillis(20),
                    () -> store.lockTable().heartbeat(lock.id()))) {
                clock.advance(Duration.ofMinutes(10)); // a long roll
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                        assertThat(store.lockTable().current().orElseThrow().heartbeat()).isEqualTo(Instant.parse("2026-03-01T10:10:00Z")));
                assertThat(store.lockTable().current().orElseThrow().isProbablyStale(clock)).isFalse();
                assertThat(heartbeat.failure()).isEmpty();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void reportsALockThatWasForceUnlocked(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            LockInfo lock = store.lockTable().lock("apply", "alice@host", "0.1.0");
            try (Renewal heartbeat = Renewal.start("test-heartbeat", Duration.ofMillis(20),
                    () -> store.lockTable().heartbeat(lock.id()))) {
                assertThat(store.lockTable().forceUnlock(lock.id())).isTrue();
                await().atMost(Duration.ofSeconds(10)).until(() -> heartbeat.failure().isPresent());
                assertThat(heartbeat.failure().orElseThrow())
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no longer held");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void rejectsANonPositiveInterval(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            assertThatThrownBy(() -> Renewal.start("test-heartbeat", Duration.ZERO, () -> store.lockTable().heartbeat("id")))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
