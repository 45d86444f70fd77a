package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LockHeartbeatTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    @Test
    void keepsTheLockFreshWhileALongStepRuns() {
        try (StateStore store = StateStore.inMemory("prod", clock)) {
            LockInfo lock = store.locker().lock("apply", "alice@host", "0.1.0");
            try (LockHeartbeat heartbeat = LockHeartbeat.start(store.locker(), lock.id(), scheduler, Duration.ofMillis(20))) {
                clock.advance(Duration.ofMinutes(10)); // a long roll
                await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                        assertThat(store.locker().current().orElseThrow().heartbeat()).isEqualTo(Instant.parse("2026-03-01T10:10:00Z")));
                assertThat(store.locker().current().orElseThrow().isProbablyStale(clock)).isFalse();
                assertThat(heartbeat.failure()).isEmpty();
            }
        }
    }

    @Test
    void reportsALockThatWasForceUnlocked() {
        try (StateStore store = StateStore.inMemory("prod", clock)) {
            LockInfo lock = store.locker().lock("apply", "alice@host", "0.1.0");
            try (LockHeartbeat heartbeat = LockHeartbeat.start(store.locker(), lock.id(), scheduler, Duration.ofMillis(20))) {
                assertThat(store.locker().forceUnlock(lock.id())).isTrue();
                await().atMost(Duration.ofSeconds(10)).until(() -> heartbeat.failure().isPresent());
                assertThat(heartbeat.failure().orElseThrow())
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no longer held");
            }
        }
    }

    @Test
    void rejectsANonPositiveInterval() {
        try (StateStore store = StateStore.inMemory("prod", clock)) {
            assertThatThrownBy(() -> LockHeartbeat.start(store.locker(), "id", scheduler, Duration.ZERO))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
