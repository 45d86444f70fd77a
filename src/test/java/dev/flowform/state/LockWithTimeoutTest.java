package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flowform.locking.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LockWithTimeoutTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");
    private final List<Duration> pauses = new ArrayList<>();
    private final List<HeldStateLock> taken = new ArrayList<>();
    private StateStore holder;
    private StateStore waiter;

    /** Records each pause and moves the clock by it, as a real sleep would. */
    private final Sleeper fakeSleeper = d -> {
        pauses.add(d);
        clock.advance(d);
    };

    @BeforeEach
    void setUp() {
        holder = StateStore.inMemory("prod", clock);
        waiter = holder; // same database; a lock taken by "holder" blocks every caller
    }

    @AfterEach
    void tearDown() {
        taken.forEach(HeldStateLock::close);
        holder.close();
    }

    /** Takes the lock the way every command does, keeping it to release after the test. */
    private LockInfo acquire(StateStore store, String operation, String who, String version, String info, Duration timeout,
                             Sleeper sleeper) throws InterruptedException {
        HeldStateLock lock = store.lockTable().acquire(new StateLockTable.Request(operation, who, version, info), timeout, sleeper,
                StateLockTable.Listener.NONE);
        taken.add(lock);
        return lock.info();
    }

    @Test
    void backsOffFromOneSecondDoublingToSixteenUntilTheTimeout() {
        LockInfo held = holder.lockTable().lock("apply", "alice@host", "0.1.0");

        LockHeldException e = catchThrowableOfType(LockHeldException.class, () ->
                acquire(waiter, "apply", "bob@laptop", "0.1.0", null, Duration.ofSeconds(60), fakeSleeper));

        assertThat(pauses).containsExactly(seconds(1), seconds(2), seconds(4), seconds(8), seconds(16), seconds(16), seconds(13));
        assertThat(e.holder()).isEqualTo(held);
        assertThat(e.waited()).isEqualTo(seconds(60));
        assertThat(e.getMessage()).contains("is locked (waited 1m0s)");
    }

    @Test
    void theLastPauseIsCutSoTheFinalAttemptIsAtTheTimeout() {
        holder.lockTable().lock("apply", "alice@host", "0.1.0");
        assertThatThrownBy(() ->
                acquire(waiter, "apply", "bob@laptop", "0.1.0", null, Duration.ofSeconds(30), fakeSleeper))
                .isInstanceOf(LockHeldException.class);
        assertThat(pauses).containsExactly(seconds(1), seconds(2), seconds(4), seconds(8), seconds(15));
        assertThat(clock.instant()).isEqualTo(Instant.parse("2026-03-01T10:00:30Z"));
    }

    @Test
    void succeedsAsSoonAsTheHolderLetsGo() throws Exception {
        LockInfo held = holder.lockTable().lock("apply", "alice@host", "0.1.0");
        Sleeper releasesDuringThirdPause = d -> {
            fakeSleeper.sleep(d);
            if (pauses.size() == 3) {
                holder.lockTable().unlock(held.id());
            }
        };

        LockInfo mine = acquire(waiter, "apply", "bob@laptop", "0.1.0", "ci job 42", Duration.ofMinutes(5),
                releasesDuringThirdPause);

        assertThat(pauses).containsExactly(seconds(1), seconds(2), seconds(4));
        assertThat(mine.who()).isEqualTo("bob@laptop");
        assertThat(mine.info()).isEqualTo("ci job 42");
        assertThat(mine.created()).isEqualTo(Instant.parse("2026-03-01T10:00:07Z"));
    }

    @Test
    void aFreeLockIsTakenWithoutPausing() throws Exception {
        LockInfo mine = acquire(waiter, "apply", "bob@laptop", "0.1.0", null, Duration.ofMinutes(1), fakeSleeper);
        assertThat(pauses).isEmpty();
        assertThat(waiter.lockTable().current()).contains(mine);
    }

    @Test
    void zeroTimeoutMakesOneAttempt() {
        holder.lockTable().lock("apply", "alice@host", "0.1.0");
        LockHeldException e = catchThrowableOfType(LockHeldException.class, () ->
                acquire(waiter, "apply", "bob@laptop", "0.1.0", null, Duration.ZERO, fakeSleeper));
        assertThat(pauses).isEmpty();
        assertThat(e.waited()).isZero();
        assertThatThrownBy(() -> acquire(waiter, "apply", "b@l", "1", null, Duration.ofSeconds(-1), fakeSleeper))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void endsEvenWhenTheClockStandsStill() {
        try (StateStore frozen = StateStore.inMemory("prod", Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC))) {
            frozen.lockTable().lock("apply", "alice@host", "0.1.0");
            List<Duration> seen = new ArrayList<>();
            assertThatThrownBy(() -> acquire(frozen, "apply", "bob@laptop", "0.1.0", null, Duration.ofSeconds(20), seen::add))
                    .isInstanceOf(LockHeldException.class);
            assertThat(seen).containsExactly(seconds(1), seconds(2), seconds(4), seconds(8), seconds(5));
        }
    }

    @Test
    void anInterruptedWaitStopsWaiting() {
        holder.lockTable().lock("apply", "alice@host", "0.1.0");
        Sleeper interrupted = d -> {
            throw new InterruptedException("Ctrl-C");
        };
        assertThatThrownBy(() -> acquire(waiter, "apply", "bob@laptop", "0.1.0", null, Duration.ofMinutes(1), interrupted))
                .isInstanceOf(InterruptedException.class);
    }

    private static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}
