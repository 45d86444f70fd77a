package dev.flowform.locking;

import java.time.Duration;

/**
 * Pauses the calling thread; injected wherever flowform waits (the back-off of a cluster write, a held state lock or
 * cluster lease, a state database another process is opening), so tests record the pauses instead of sleeping, and a
 * command makes its waits end on Ctrl-C. The pure core cannot hold it, as {@link #SYSTEM} sleeps.
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
