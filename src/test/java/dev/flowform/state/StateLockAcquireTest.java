package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What {@link StateLockTable#acquire} reports while taking the lock, and what the {@link HeldStateLock} it returns does. */
class StateLockAcquireTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");
    private final List<String> events = new ArrayList<>();
    private final StateLockTable.Listener recorder = new StateLockTable.Listener() {
        @Override
        public void waiting(LockInfo holder) {
            events.add("waiting for " + holder.who());
        }

        @Override
        public void releasedGone(LockInfo gone) {
            events.add("released " + gone.id());
        }
    };

    private static StateLockTable.Request request() {
        return new StateLockTable.Request("apply", "bob@laptop", "0.1.0", null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void aFreeLockIsTakenSilentlyAndReleasedOnClose(StatePlace place) throws Exception {
        try (StateStore store = place.open("prod", clock)) {
            HeldStateLock held = store.lockTable().acquire(request(), Duration.ZERO, d -> { }, recorder);
            assertThat(store.lockTable().current()).contains(held.info());
            assertThat(held.releasedGone()).isEmpty();
            assertThat(held.lost()).isEmpty();

            held.close();
            held.close();
            assertThat(held.isReleased()).isTrue();
            assertThat(store.lockTable().current()).isEmpty();
            assertThat(events).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void waitingIsReportedOnceBeforeTheFirstPause(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            store.lockTable().lock("apply", "alice@host", "0.1.0");
            List<Duration> pauses = new ArrayList<>();
            catchThrowableOfType(LockHeldException.class, () -> store.lockTable().acquire(request(), Duration.ofSeconds(10),
                    d -> {
                        pauses.add(d);
                        clock.advance(d);
                    }, recorder));
            assertThat(pauses).hasSize(4);
            assertThat(events).containsExactly("waiting for alice@host");
        }
    }

    @Test
    void aLockLeftByAProcessThatNoLongerRunsIsReleasedReportedAndTaken() throws Exception {
        ProcessIdentity me = ProcessIdentity.current();
        assumeThat(me.started()).as("this machine tells process start times").isNotNull();
        String gone = new ProcessIdentity(me.pid(), me.machine(), Instant.EPOCH).encode();
        try (StateStore store = StateStore.inMemory("prod", clock)) {
            store.inTransaction("test: a lock left by a killed apply", c -> {
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO state_lock (lock_id, environment, operation, "
                        + "who, version, created, heartbeat, info, holder_process) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                    ps.setString(1, "dead-lock-id");
                    ps.setString(2, "prod");
                    ps.setString(3, "apply");
                    ps.setString(4, "alice@host");
                    ps.setString(5, "0.1.0");
                    ps.setObject(6, Sql.timestamp(clock.instant()));
                    ps.setObject(7, Sql.timestamp(clock.instant()));
                    ps.setString(8, null);
                    ps.setString(9, gone);
                    return ps.executeUpdate();
                }
            });

            try (HeldStateLock held = store.lockTable().acquire(request(), Duration.ZERO, d -> { }, recorder)) {
                assertThat(held.info().who()).isEqualTo("bob@laptop");
                assertThat(held.releasedGone()).containsExactly("dead-lock-id");
                assertThat(events).containsExactly("released dead-lock-id");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void aHeldLockThatWasForceUnlockedReportsItIsLost(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            LockInfo info = store.lockTable().lock("apply", "alice@host", "0.1.0");
            try (HeldStateLock held = HeldStateLock.start(store.lockTable(), info, Set.of(), Duration.ofMillis(20))) {
                assertThat(store.lockTable().forceUnlock(info.id())).isTrue();
                await().atMost(Duration.ofSeconds(10)).until(() -> held.lost().isPresent());
                assertThat(held.lost().orElseThrow()).hasMessageContaining("no longer held");
            }
        }
    }
}
