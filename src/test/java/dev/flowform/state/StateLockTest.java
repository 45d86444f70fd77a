package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

class StateLockTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void lockRecordsTerraformLockInfo(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            LockInfo lock = store.lockTable().lock("apply", "alice@host", "0.1.0", "plan file prod.plan");
            assertThat(lock.id()).matches("[0-9a-f-]{36}");
            assertThat(lock.environment()).isEqualTo("prod");
            assertThat(lock.operation()).isEqualTo("apply");
            assertThat(lock.who()).isEqualTo("alice@host");
            assertThat(lock.version()).isEqualTo("0.1.0");
            assertThat(lock.created()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
            assertThat(lock.heartbeat()).isEqualTo(lock.created());
            assertThat(lock.info()).isEqualTo("plan file prod.plan");
            assertThat(store.lockTable().current()).contains(lock);
        }
        try (StateStore store = place.open("prod", clock)) {
            assertThat(store.lockTable().current()).isPresent().get()
                    .extracting(LockInfo::who).isEqualTo("alice@host");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void aHeldLockIsRefusedWithTheHoldersInfoAndAge(StatePlace place) {
        try (StateStore alice = place.open("prod", clock);
             StateStore bob = place.open("prod", clock)) {
            LockInfo held = alice.lockTable().lock("apply", "alice@host", "0.1.0");
            clock.advance(Duration.ofSeconds(90));

            LockHeldException e = catchThrowableOfType(LockHeldException.class,
                    () -> bob.lockTable().lock("apply", "bob@laptop", "0.1.0"));
            assertThat(e.holder()).isEqualTo(held);
            assertThat(e.age()).isEqualTo(Duration.ofSeconds(90));
            assertThat(e.sinceHeartbeat()).isEqualTo(Duration.ofSeconds(90));
            assertThat(e.waited()).isZero();
            assertThat(e.isProbablyStale()).isFalse();
            assertThat(e.getMessage())
                    .startsWith("Error acquiring the state lock: environment \"prod\" is locked.")
                    .contains("ID:        " + held.id())
                    .contains("Operation: apply")
                    .contains("Who:       alice@host")
                    .contains("Created:   2026-03-01T10:00:00Z (1m30s ago)")
                    .contains("Wait for the other run to finish");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void heartbeatKeepsALockFreshAndSilenceMakesItProbablyStale(StatePlace place) {
        try (StateStore alice = place.open("prod", clock);
             StateStore bob = place.open("prod", clock)) {
            LockInfo held = alice.lockTable().lock("apply", "alice@host", "0.1.0");
            clock.advance(Duration.ofMinutes(5));
            alice.lockTable().heartbeat(held.id());
            clock.advance(Duration.ofSeconds(30));
            LockInfo fresh = bob.lockTable().current().orElseThrow();
            assertThat(fresh.heartbeat()).isEqualTo(Instant.parse("2026-03-01T10:05:00Z"));
            assertThat(fresh.age(clock)).isEqualTo(Duration.ofSeconds(330));
            assertThat(fresh.isProbablyStale(clock)).isFalse();

            clock.advance(LockInfo.STALE_AFTER);
            LockInfo silent = bob.lockTable().current().orElseThrow();
            assertThat(silent.isProbablyStale(clock)).isTrue();
            LockHeldException e = catchThrowableOfType(LockHeldException.class,
                    () -> bob.lockTable().lock("apply", "bob@laptop", "0.1.0"));
            assertThat(e.isProbablyStale()).isTrue();
            assertThat(e.getMessage()).contains("has probably stopped").contains("force-unlock");
            // staleness is advice only: the lock is still alice's
            assertThat(bob.lockTable().current()).map(LockInfo::id).contains(held.id());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void unlockReleasesOnlyWithTheMatchingId(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            LockInfo held = store.lockTable().lock("apply", "alice@host", "0.1.0");
            assertThat(store.lockTable().unlock("00000000-0000-0000-0000-000000000000")).isFalse();
            assertThat(store.lockTable().current()).contains(held);
            assertThat(store.lockTable().unlock(held.id())).isTrue();
            assertThat(store.lockTable().current()).isEmpty();
            assertThat(store.lockTable().unlock(held.id())).isFalse();
            assertThatThrownBy(() -> store.lockTable().heartbeat(held.id()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("no longer held");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void forceUnlockRefusesAWrongIdAndReleasesWithTheRightOne(StatePlace place) {
        try (StateStore crashed = place.open("prod", clock);
             StateStore operator = place.open("prod", clock)) {
            LockInfo held = crashed.lockTable().lock("apply", "ci@runner-7", "0.1.0");

            assertThatThrownBy(() -> operator.lockTable().forceUnlock("not-the-id"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("does not match")
                    .hasMessageContaining("ci@runner-7")
                    .hasMessageContaining("nothing was unlocked")
                    .message().doesNotContain(held.id());
            assertThat(operator.lockTable().current()).contains(held);

            assertThat(operator.lockTable().forceUnlock(held.id())).isTrue();
            assertThat(operator.lockTable().current()).isEmpty();
            assertThat(operator.lockTable().forceUnlock(held.id())).isFalse();
            // the old holder learns it lost the lock at its next heartbeat
            assertThatThrownBy(() -> crashed.lockTable().heartbeat(held.id())).isInstanceOf(IllegalStateException.class);
            assertThat(operator.lockTable().lock("apply", "op@desk", "0.1.0").who()).isEqualTo("op@desk");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void racingStoresOnOneFileNeverBothWin(StatePlace place) throws Exception {
        int racers = 4;
        List<StateStore> stores = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(racers);
        try {
            for (int i = 0; i < racers; i++) {
                stores.add(place.open("prod", clock));
            }
            for (int round = 0; round < 15; round++) {
                CyclicBarrier start = new CyclicBarrier(racers);
                List<Future<Object>> results = new ArrayList<>();
                for (int i = 0; i < racers; i++) {
                    StateStore store = stores.get(i);
                    String who = "racer" + i + "@host";
                    Callable<Object> attempt = () -> {
                        start.await(10, TimeUnit.SECONDS);
                        try {
                            return store.lockTable().lock("apply", who, "0.1.0");
                        } catch (LockHeldException e) {
                            return e;
                        }
                    };
                    results.add(pool.submit(attempt));
                }
                List<LockInfo> winners = new ArrayList<>();
                List<LockHeldException> losers = new ArrayList<>();
                for (Future<Object> f : results) {
                    Object r = f.get(30, TimeUnit.SECONDS);
                    if (r instanceof LockInfo l) {
                        winners.add(l);
                    } else {
                        losers.add((LockHeldException) r);
                    }
                }
                assertThat(winners).as("round %d winners", round).hasSize(1);
                LockInfo winner = winners.get(0);
                assertThat(losers).hasSize(racers - 1)
                        .allSatisfy(e -> assertThat(e.holder()).isEqualTo(winner));
                assertThat(stores.get(0).lockTable().current()).contains(winner);
                assertThat(stores.get(0).lockTable().unlock(winner.id())).isTrue();
            }
        } finally {
            pool.shutdownNow();
            for (StateStore s : stores) {
                s.close();
            }
        }
    }

    @Test
    void localWhoIsUserAtHost() {
        assertThat(LockInfo.localWho()).startsWith(System.getProperty("user.name") + "@").doesNotEndWith("@");
    }
}
