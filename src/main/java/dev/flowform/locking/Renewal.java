package dev.flowform.locking;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps something taken alive while a long operation runs (the state lock's heartbeat, the cluster leases): a renewal
 * every interval on a daemon thread; one that throws stops the renewing and is kept for {@link #failure()}.
 * {@link #close()} waits for a renewal in flight without interrupting it (an interrupt in H2's file I/O would close the
 * database); it may run on any thread, more than once.
 */
public final class Renewal implements AutoCloseable {

    /** How long closing waits for a renewal in flight to finish: 10 seconds. */
    private static final long STOP_WAIT_SECONDS = 10;

    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final ScheduledExecutorService scheduler;
    private final ScheduledFuture<?> task;

    private Renewal(String threadName, Duration interval, Runnable renew) {
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        long millis = Math.max(1, interval.toMillis());
        this.task = scheduler.scheduleWithFixedDelay(() -> renewOnce(renew), millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts renewing; the first renewal runs one interval from now.
     *
     * @param threadName the name of the renewing thread, e.g. {@code flowform-lock-heartbeat}
     * @param interval   pause between renewals; positive
     * @param renew      one renewal; throws when it fails (e.g. the lock is no longer held)
     * @return the running renewal; close it when what it renews is released
     * @throws IllegalArgumentException when {@code interval} is zero or negative
     */
    public static Renewal start(String threadName, Duration interval, Runnable renew) {
        Objects.requireNonNull(threadName, "threadName");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(renew, "renew");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("renewal interval must be positive, got " + interval);
        }
        return new Renewal(threadName, interval, renew);
    }

    /** @return the error of the renewal that failed, or empty while renewals succeed */
    public Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Stops renewing and waits up to 10 s for a renewal in flight. What was renewed stays taken. */
    @Override
    public void close() {
        task.cancel(false);
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            // go on with the flag clear: what the caller does next (releasing a lock: H2 file I/O) must not be disturbed
        }
    }

    private void renewOnce(Runnable renew) {
        if (failure.get() != null) {
            return;
        }
        try {
            renew.run();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
            task.cancel(false);
        }
    }
}
