package dev.flowform.locking;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Function;

/**
 * The wait of one attempt to take what another holder may have (the state lock, a cluster lease), Terraform's
 * {@code LockWithContext}: after each refusal ask {@link #remaining}, then {@link #pause}: 1 s doubling to 16 s, never
 * past the timeout. Time waited is the larger of the clock's and the pauses', so a fake clock and sleeper still end it.
 */
public final class LockWait {

    /** First pause: 1 second. */
    public static final Duration FIRST_PAUSE = Duration.ofSeconds(1);

    /** Longest pause; the pause doubles up to this: 16 seconds. */
    public static final Duration MAX_PAUSE = Duration.ofSeconds(16);

    private final Duration timeout;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Instant start;
    private Duration slept = Duration.ZERO;
    private Duration delay = FIRST_PAUSE;
    private boolean announced;

    /**
     * Starts the wait now.
     *
     * @param timeout how long to keep trying; zero or positive
     * @param clock   times the wait
     * @param sleeper pauses between attempts
     * @throws IllegalArgumentException when {@code timeout} is negative
     */
    public LockWait(Duration timeout, Clock clock, Sleeper sleeper) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("lock timeout must not be negative, got " + timeout);
        }
        this.start = clock.instant();
    }

    /**
     * After a refused attempt: how long the caller may still wait.
     *
     * @param refusal  the refusal to throw when no time is left, given how long was waited (zero when the timeout is
     *                 zero or nothing was waited yet)
     * @param announce run once, the first time there is time left: the caller starts waiting
     * @return the time left, positive
     */
    public Duration remaining(Function<Duration, RuntimeException> refusal, Runnable announce) {
        Duration waited = waited();
        Duration remaining = timeout.minus(waited);
        if (remaining.isNegative() || remaining.isZero()) {
            throw refusal.apply(timeout.isZero() ? Duration.ZERO : waited);
        }
        if (!announced) {
            announced = true;
            announce.run();
        }
        return remaining;
    }

    /**
     * Pauses before the next attempt: the next step of the back-off, at most {@code remaining} and {@code cap}.
     *
     * @param remaining what {@link #remaining} answered
     * @param cap       the longest pause worth making (e.g. until a held lease expires), or null for none
     * @throws InterruptedException when the sleeper is interrupted
     */
    public void pause(Duration remaining, Duration cap) throws InterruptedException {
        Duration p = delay.compareTo(remaining) < 0 ? delay : remaining;
        if (cap != null && cap.compareTo(p) < 0) {
            p = cap;
        }
        sleeper.sleep(p);
        slept = slept.plus(p);
        Duration doubled = delay.multipliedBy(2);
        delay = doubled.compareTo(MAX_PAUSE) < 0 ? doubled : MAX_PAUSE;
    }

    /**
     * Counts time the caller waited by other means than {@link #pause} (e.g. for a holder to answer).
     *
     * @param d the time waited
     */
    public void waitedFor(Duration d) {
        slept = slept.plus(d);
    }

    /** @return how long was waited so far: the larger of the clock's elapsed time and the pauses counted */
    public Duration waited() {
        Duration elapsed = Duration.between(start, clock.instant());
        return elapsed.compareTo(slept) > 0 ? elapsed : slept;
    }
}
