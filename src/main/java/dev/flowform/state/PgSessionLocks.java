package dev.flowform.state;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The PostgreSQL half of {@link StateLockTable}: the lock row is written only by the session holding the environment's
 * advisory lock, so a row found while taking that lock was left by an ended session and is taken over, a heartbeat
 * checks the session still holds it, and a force-unlock of a live holder ends its session (docs/state-backends.md,
 * "Locking").
 */
final class PgSessionLocks {

    /** How often a refused taker re-reads for the holder's row while the holder is between its two steps. */
    private static final int ROW_READS = 40;

    /** Pause between those reads: 50 ms, so about 2 seconds in all. */
    private static final Duration ROW_READ_PAUSE = Duration.ofMillis(50);

    private final StateStore store;
    private final StateLockTable locker;
    /**
     * The session locks this process holds, by lock ID: process-wide, because the lock belongs to the process (as the
     * H2 row does), so unlocking through any store of the process ends the session lock too.
     */
    private static final Map<String, Backend.SessionLock> HELD = new ConcurrentHashMap<>();

    PgSessionLocks(StateStore store, StateLockTable locker) {
        this.store = store;
        this.locker = locker;
    }

    /**
     * Takes the lock for {@code mine}: the session lock, then the row.
     *
     * @param mine     the lock to write
     * @param tookOver told about a row left by a holder whose session ended, after replacing it
     * @return {@code mine} with its session when taken; else the holder's row
     * @throws StateStoreException when the database fails, or no holder's row appears while the session lock is held
     */
    LockInfo lock(LockInfo mine, Consumer<LockInfo> tookOver) {
        Optional<Backend.SessionLock> session = store.inTransaction("lock(" + mine.operation() + ")",
                c -> store.backend().trySessionLock(store.environmentName()));
        if (session.isEmpty()) {
            return holderRow();
        }
        LockInfo taken = mine.withSession(session.get().session());
        try {
            Optional<LockInfo> left = store.inTransaction("lock(" + mine.operation() + ")", c -> {
                Optional<LockInfo> previous = locker.select(c);
                if (previous.isPresent()) {
                    locker.delete(c, previous.get().id());
                }
                locker.insertRow(c, taken);
                return previous;
            });
            HELD.put(taken.id(), session.get());
            left.ifPresent(tookOver);
            return taken;
        } catch (RuntimeException e) {
            session.get().close();
            throw e;
        }
    }

    /** @return the row of the session that holds the lock, waiting briefly for it to be written */
    private LockInfo holderRow() {
        for (int i = 0; i < ROW_READS; i++) {
            Optional<LockInfo> row = locker.current();
            if (row.isPresent()) {
                return row.get();
            }
            try {
                store.backend().sleeper().sleep(ROW_READ_PAUSE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new StateStoreException("the state lock of environment \"" + store.environmentName() + "\" is held by "
                + "a PostgreSQL session that wrote no lock row; try again", null);
    }

    /**
     * Checks that this process still holds {@code lockId}'s session lock; after the session ended (server restart)
     * takes it again if the row still names {@code lockId}, and records the new session in the row.
     *
     * @param lockId a lock taken by {@link #lock}
     * @throws IllegalStateException when the session lock is lost to another holder or cannot be taken again
     */
    void confirm(String lockId) {
        Backend.SessionLock session = HELD.get(lockId);
        if (session == null || session.stillHeld()) {
            return;
        }
        session.close();
        Optional<Backend.SessionLock> again = store.inTransaction("relock",
                c -> store.backend().trySessionLock(store.environmentName()));
        boolean ours = again.isPresent() && store.inTransaction("relock", c -> locker.setSession(c, lockId,
                again.get().session()));
        if (!ours) {
            HELD.remove(lockId);
            again.ifPresent(Backend.SessionLock::close);
            throw new IllegalStateException("the state lock " + lockId + " on environment \"" + store.environmentName()
                    + "\" was lost: its PostgreSQL session ended and the lock " + (again.isPresent()
                    ? "row no longer names it" : "is now held by another session") + "; stop writing to this state");
        }
        HELD.put(lockId, again.get());
    }

    /** Ends the session lock of {@code lockId} after its row was deleted; does nothing for a lock not held here. */
    void released(String lockId) {
        Backend.SessionLock session = HELD.remove(lockId);
        if (session != null) {
            session.close();
        }
    }

    /**
     * Ends the session of a live holder before its row is deleted by a force-unlock.
     *
     * @param holder the row being removed
     * @throws SQLException when the session cannot be ended (nothing is unlocked then)
     */
    void endHolder(java.sql.Connection c, LockInfo holder) throws SQLException {
        OptionalInt live = store.backend().sessionLockHolder(c, store.environmentName());
        if (live.isPresent() && holder.session() != null && live.getAsInt() == holder.session()
                && !HELD.containsKey(holder.id())) {
            if (!store.backend().terminateSession(c, holder.session())) {
                throw new SQLException("the holder's PostgreSQL session " + holder.session() + " could not be ended");
            }
        }
        released(holder.id());
    }
}
