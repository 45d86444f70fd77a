package dev.flowform.apply;

import java.time.Duration;

/**
 * Pauses the calling thread; injected wherever flowform waits (the back-off of a cluster write, a held state
 * lock, a state database another process is opening), so tests record the pauses instead of sleeping.
 *
 * <p>The one {@code Sleeper} lives here because both edge packages that wait use it and {@code state} already
 * depends on {@code apply} (its run journal implements {@link Journal}); in {@code state} it would make
 * {@code apply} depend on {@code state} and close a package cycle. The pure core cannot hold it, as
 * {@link #SYSTEM} sleeps.
 */
@FunctionalInterface
public interface Sleeper {

    /** Sleeps for real with {@link Thread#sleep(long, int)}, to the nanosecond part of the duration. */
    Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);

    /**
     * Pauses for {@code duration}.
     *
     * @param duration how long; zero or positive
     * @throws InterruptedException when the thread is interrupted while pausing
     */
    void sleep(Duration duration) throws InterruptedException;
}
