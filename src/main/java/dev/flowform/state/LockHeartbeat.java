package dev.flowform.state;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps a held state lock's heartbeat fresh in the background while a long operation runs (an
 * apply waiting minutes for a rolling restart would otherwise look stale after
 * {@link LockInfo#STALE_AFTER} and invite a force-unlock).
 *
 * <p>Calls {@link StateLocker#heartbeat(String)} every {@code interval} on the given scheduler. If a
 * heartbeat fails (the lock was force-unlocked, or the database failed), it stops and keeps the
 * error; the holder checks {@link #failure()} between steps and stops writing when it is present.
 * Closing it stops the heartbeats; it does not release the lock.
 */
public final class LockHeartbeat implements AutoCloseable {

    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final ScheduledFuture<?> task;

    private LockHeartbeat(StateLocker locker, String lockId, ScheduledExecutorService scheduler, Duration interval) {
        long millis = Math.max(1, interval.toMillis());
        this.task = scheduler.scheduleWithFixedDelay(() -> beat(locker, lockId), millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts heartbeating.
     *
     * @param locker    the locker the lock was taken with
     * @param lockId    the id {@link StateLocker#lock} returned
     * @param scheduler runs the heartbeats; owned by the caller, who shuts it down
     * @param interval  pause between heartbeats; positive, normally {@link LockInfo#HEARTBEAT_INTERVAL}
     * @return the running heartbeat; close it when the lock is released
     * @throws IllegalArgumentException when {@code interval} is zero or negative
     */
    public static LockHeartbeat start(StateLocker locker, String lockId, ScheduledExecutorService scheduler,
                                      Duration interval) {
        Objects.requireNonNull(locker, "locker");
        Objects.requireNonNull(lockId, "lockId");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(interval, "interval");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("heartbeat interval must be positive, got " + interval);
        }
        return new LockHeartbeat(locker, lockId, scheduler, interval);
    }

    /**
     * @return the error of the heartbeat that failed (typically {@link IllegalStateException}: the
     *         lock is no longer held), or empty while heartbeats succeed
     */
    public Optional<RuntimeException> failure() {
        return Optional.ofNullable(failure.get());
    }

    /** Stops the heartbeats (an in-flight one may still finish). The lock stays held. */
    @Override
    public void close() {
        task.cancel(false);
    }

    private void beat(StateLocker locker, String lockId) {
        if (failure.get() != null) {
            return;
        }
        try {
            locker.heartbeat(lockId);
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
            task.cancel(false);
        }
    }
}
