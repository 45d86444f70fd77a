package dev.flowform.state;

import dev.flowform.locking.Renewal;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * A state lock taken by {@link StateLockTable#acquire}, held until {@link #close()} (any thread, more than once), its
 * heartbeat renewed every {@link LockInfo#HEARTBEAT_INTERVAL}; {@link #lost()} says when it was lost (force-unlocked,
 * database failed) and the holder stops writing.
 */
public final class HeldStateLock implements AutoCloseable {

    private final StateLockTable locker;
    private final LockInfo info;
    private final Set<String> releasedGone;
    private final Renewal heartbeat;
    private boolean released;

    private HeldStateLock(StateLockTable locker, LockInfo info, Set<String> releasedGone, Duration interval) {
        this.locker = locker;
        this.info = info;
        this.releasedGone = Set.copyOf(releasedGone);
        this.heartbeat = Renewal.start("flowform-lock-heartbeat", interval, () -> locker.heartbeat(info.id()));
    }

    /** Starts the heartbeat of a lock just taken. */
    static HeldStateLock start(StateLockTable locker, LockInfo info, Set<String> releasedGone, Duration interval) {
        return new HeldStateLock(locker, info, releasedGone, interval);
    }

    /** @return the lock as it was taken */
    public LockInfo info() {
        return info;
    }

    /**
     * @return the IDs of locks released while taking this one because their holder process no longer runs: a
     *         cluster lease still naming one of them belongs to that dead process
     */
    public Set<String> releasedGone() {
        return releasedGone;
    }

    /**
     * @return the error of the heartbeat that failed (typically {@link IllegalStateException}: the lock is no longer
     *         held), or empty while the heartbeats succeed
     */
    public Optional<RuntimeException> lost() {
        return heartbeat.failure();
    }

    /** @return true once {@link #close()} has run */
    public synchronized boolean isReleased() {
        return released;
    }

    /**
     * Stops the heartbeat and releases the lock; does nothing the second time.
     *
     * @throws StateStoreException when the database fails while releasing: the lock may still be held, and
     *                             {@code force-unlock} with {@link LockInfo#id()} releases it
     */
    @Override
    public synchronized void close() {
        if (released) {
            return;
        }
        released = true;
        heartbeat.close();
        locker.unlock(info.id());
    }

    @Override
    public String toString() {
        return "HeldStateLock[" + info.id() + " of " + info.environment() + "]";
    }
}
