package dev.flowform.state;

import java.time.Duration;

/**
 * Pauses the calling thread; injected wherever flowform waits, so tests can record the pauses
 * instead of sleeping (docs/architecture.md: time and sleep are injected).
 */
@FunctionalInterface
public interface Sleeper {

    /** Sleeps for real with {@link Thread#sleep(long, int)}. */
    Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);

    /**
     * Pauses for {@code duration}.
     *
     * @param duration how long; zero or positive
     * @throws InterruptedException when the thread is interrupted while pausing
     */
    void sleep(Duration duration) throws InterruptedException;
}
