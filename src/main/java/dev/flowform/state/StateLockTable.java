package dev.flowform.state;

import dev.flowform.locking.LockWait;
import dev.flowform.locking.Sleeper;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The environment's state lock (Terraform's {@code Locker} and {@code LockWithContext}): one row in {@code state_lock},
 * taken by an INSERT the primary key lets one racer win, released by the holder or by {@link #forceUnlock} naming the
 * lock's ID. {@link #acquire} waits and returns a {@link HeldStateLock} that heartbeats. The serial is left alone
 * (docs/state-backends.md, "Locking").
 */
public final class StateLockTable {

    /** How many locks of gone holders one {@link #acquire} releases at most: 3. */
    static final int GONE_RELEASES = 3;

    private static final int INSERT_ATTEMPTS = 5;
    private static final String COLUMNS =
            "lock_id, environment, operation, who, version, created, heartbeat, info, holder_process, holder_session";

    private final StateStore store;
    private final PgSessionLocks sessions;

    StateLockTable(StateStore store) {
        this.store = store;
        this.sessions = new PgSessionLocks(store, this);
    }

    /**
     * What a lock is taken for, shown to whoever finds it held.
     *
     * @param operation what the caller will do, e.g. {@code apply}; not blank
     * @param who       {@code user@host} (see {@link LockInfo#localWho()}); not blank
     * @param version   flowform version; not blank
     * @param info      free text shown to others who find the lock held (e.g. the plan file), or null
     */
    public record Request(String operation, String who, String version, String info) {
        /** @throws IllegalArgumentException when a required component is blank */
        public Request {
            Sql.requireText(operation, "operation");
            Sql.requireText(who, "who");
            Sql.requireText(version, "version");
        }
    }

    /** What {@link #acquire} reports while it works, for a command to print. */
    public interface Listener {

        /** A listener that reports nothing. */
        Listener NONE = new Listener() {
        };

        /**
         * Called once, before the first pause: the lock is held and will be waited for.
         *
         * @param holder the current holder, or null when the process holding the state open does not answer and no
         *               lock could be read from the state
         */
        default void waiting(LockInfo holder) {
        }

        /**
         * Called after releasing a lock whose holder was a process on this machine that no longer runs.
         *
         * @param gone the lock released
         */
        default void releasedGone(LockInfo gone) {
        }

        /**
         * Called after taking over, on PostgreSQL, a lock whose holder's session had ended (its row replaced without
         * a force-unlock).
         *
         * @param gone the lock replaced
         */
        default void tookOver(LockInfo gone) {
        }
    }

    /** {@link #lock(String, String, String, String)} without info: the same arguments, result and errors. */
    public LockInfo lock(String operation, String who, String version) {
        return lock(operation, who, version, null);
    }

    /**
     * Takes the lock, or fails at once if it is held (Terraform's {@code Locker.Lock}): the INSERT either succeeds or
     * hits the primary key, so of several processes racing exactly one wins. The losers read the winner's row and
     * throw it in a {@link LockHeldException}. A stale lock is never taken over; see {@link LockInfo#isProbablyStale}.
     *
     * @param operation what the caller will do, e.g. {@code apply}; not blank
     * @param who       {@code user@host}; not blank
     * @param version   flowform version; not blank
     * @param info      free text shown to others who find the lock held (e.g. the plan file), or null
     * @return the lock taken, with a new random id, created = heartbeat = now
     * @throws LockHeldException        when another holder has the lock
     * @throws IllegalArgumentException when an argument is blank
     * @throws StateStoreException      when the database fails
     */
    public LockInfo lock(String operation, String who, String version, String info) {
        return lock(new Request(operation, who, version, info), gone -> { });
    }

    /** {@link #lock(String, String, String, String)}, telling {@code tookOver} about a dead session's lock replaced. */
    private LockInfo lock(Request request, java.util.function.Consumer<LockInfo> tookOver) {
        String operation = request.operation();
        for (int attempt = 0; attempt < INSERT_ATTEMPTS; attempt++) {
            Instant now = store.now();
            LockInfo mine = new LockInfo(UUID.randomUUID().toString(), store.environmentName(), operation,
                    request.who(), request.version(), now, now, request.info(), ProcessIdentity.current().encode());
            // the lock row after our INSERT: ours, the winner's, or null when it vanished in between
            LockInfo current = store.backend().locksSessions() ? sessions.lock(mine, tookOver) : insert(operation, mine);
            if (current == null) {
                continue; // the holder released it between our INSERT and our read: try again
            }
            if (current.id().equals(mine.id())) {
                return current;
            }
            throw new LockHeldException(current, current.age(store.clock()), current.sinceHeartbeat(store.clock()),
                    Duration.ZERO);
        }
        throw new StateStoreException("lock(" + operation + ") on " + store.location() + ": the lock was taken and "
                + "released by others " + INSERT_ATTEMPTS + " times while trying; try again", null);
    }

    /**
     * Takes the lock for a command, retrying while it is held until {@code timeout} (Terraform's
     * {@code LockWithContext}, pauses by {@link LockWait}); a lock whose holder process on this machine is gone is
     * released and taken, up to {@value #GONE_RELEASES} times, and reported to {@code listener}.
     *
     * @param request  what the lock is for
     * @param timeout  how long to keep trying; zero or positive (Terraform's {@code -lock-timeout})
     * @param sleeper  how to pause between attempts
     * @param listener told when waiting starts and when a gone holder's lock is released
     * @return the lock, held until it is closed, with its heartbeat running
     * @throws LockHeldException        when the lock is still held after {@code timeout} (with the time waited)
     * @throws InterruptedException     when the sleeper is interrupted
     * @throws IllegalArgumentException when {@code timeout} is negative
     * @throws StateStoreException      when the database fails
     */
    public HeldStateLock acquire(Request request, Duration timeout, Sleeper sleeper, Listener listener)
            throws InterruptedException {
        return acquire(() -> store, false, request, timeout, store.clock(), sleeper, listener).lock();
    }

    /** A state opened and locked by {@link #openLocked}. */
    public record Locked(StateStore store, HeldStateLock lock) {
    }

    /**
     * Opens a state and takes its lock, waiting as {@link #acquire(Request, Duration, Sleeper, Listener)} does both
     * while the lock is held and while the state cannot be opened because the process holding its file open does not
     * answer ({@link HolderNotAnsweringException}); that holder's lock, when the file shows one, is what
     * {@link Listener#waiting} is told about.
     *
     * @param open     opens the state (again after a holder did not answer); what it throws other than
     *                 {@link HolderNotAnsweringException} ends the wait
     * @param request  what the lock is for
     * @param timeout  how long to keep trying; zero or positive
     * @param clock    times the wait
     * @param sleeper  how to pause between attempts
     * @param listener told when waiting starts and when a gone holder's lock is released
     * @return the open state and its lock; nothing stays open when this throws
     * @throws LockHeldException           when the lock is still held after {@code timeout}
     * @throws HolderNotAnsweringException when the state's holder still does not answer after {@code timeout}
     * @throws InterruptedException        when the sleeper is interrupted
     */
    public static Locked openLocked(Supplier<StateStore> open, Request request, Duration timeout, Clock clock,
                                    Sleeper sleeper, Listener listener) throws InterruptedException {
        return acquire(open, true, request, timeout, clock, sleeper, listener);
    }

    private static Locked acquire(Supplier<StateStore> open, boolean owned, Request request, Duration timeout,
                                  Clock clock, Sleeper sleeper, Listener listener) throws InterruptedException {
        Objects.requireNonNull(request, "request");
        Wait wait = new Wait(timeout, clock, sleeper, listener);
        Set<String> released = new LinkedHashSet<>();
        int goneReleases = 0;
        StateStore store = null;
        try {
            while (true) {
                try {
                    store = store == null ? open.get() : store;
                    return new Locked(store, store.lockTable().take(request, released, listener));
                } catch (HolderNotAnsweringException e) {
                    if (!owned) {
                        throw e;
                    }
                    closeQuietly(store);
                    store = null;
                    wait.forHolder(e);
                } catch (LockHeldException e) {
                    if (e.holder().isHolderGone() && goneReleases < GONE_RELEASES) {
                        goneReleases++;
                        if (store.lockTable().forceUnlock(e.holder().id())) {
                            released.add(e.holder().id());
                            listener.releasedGone(e.holder());
                        }
                        continue;
                    }
                    wait.forLock(e);
                }
            }
        } catch (InterruptedException | RuntimeException e) {
            if (owned) {
                closeQuietly(store);
            }
            throw e;
        }
    }

    /** The waiting of one {@link #acquire}: {@link LockWait}, with what is said and done at each refusal. */
    private static final class Wait {
        private final LockWait wait;
        private final Clock clock;
        private final Sleeper sleeper;
        private final Listener listener;

        Wait(Duration timeout, Clock clock, Sleeper sleeper, Listener listener) {
            this.wait = new LockWait(timeout, clock, sleeper);
            this.clock = clock;
            this.sleeper = sleeper;
            this.listener = Objects.requireNonNull(listener, "listener");
        }

        /** Pauses before the next attempt, or throws {@code held} (with the time waited) when the timeout has ended. */
        void forLock(LockHeldException held) throws InterruptedException {
            wait.pause(wait.remaining(waited -> waited.isZero() ? held : held.afterWaiting(waited),
                    () -> listener.waiting(held.holder())), null);
        }

        /**
         * Keeps asking a holder that does not answer until it answers (it does as soon as it runs again) or the timeout
         * ends; then throws {@code silent} with the time waited.
         */
        void forHolder(HolderNotAnsweringException silent) throws InterruptedException {
            Duration remaining = wait.remaining(waited -> waited.isZero() ? silent : silent.afterWaiting(waited),
                    () -> listener.waiting(silent.lock().orElse(null)));
            Instant asked = clock.instant();
            if (!silent.awaitAnswer(remaining, sleeper)) {
                wait.waitedFor(remaining);
                throw silent.afterWaiting(wait.waited());
            }
            wait.waitedFor(Duration.between(asked, clock.instant()));
        }
    }

    /** Takes the lock at once or throws {@link LockHeldException}; starts its heartbeat. */
    private HeldStateLock take(Request request, Set<String> released, Listener listener) {
        LockInfo taken = lock(request, gone -> {
            released.add(gone.id());
            listener.tookOver(gone);
        });
        return HeldStateLock.start(this, taken, released, LockInfo.HEARTBEAT_INTERVAL);
    }

    private static void closeQuietly(StateStore store) {
        if (store != null) {
            store.close();
        }
    }

    /**
     * Shows the holder is alive: sets the lock's heartbeat to now. {@link HeldStateLock} calls it every
     * {@link LockInfo#HEARTBEAT_INTERVAL}. Does not change the serial.
     *
     * @param lockId the id {@link #lock} returned
     * @throws IllegalStateException when this environment is no longer locked with that id (it was
     *                               released or force-unlocked): the caller must stop writing
     * @throws StateStoreException   when the database fails
     */
    public void heartbeat(String lockId) {
        Objects.requireNonNull(lockId, "lockId");
        sessions.confirm(lockId);
        store.inTransaction("heartbeat", c -> {
            if (Sql.update(c, "UPDATE state_lock SET heartbeat = ? WHERE environment = ? AND lock_id = ?", store.now(),
                    store.environmentName(), lockId) == 0) {
                throw new IllegalStateException("the state lock " + lockId + " on environment \""
                        + store.environmentName() + "\" is no longer held (released or force-unlocked); stop writing "
                        + "to this state");
            }
            return null;
        });
    }

    /**
     * Releases the lock if it is held with {@code lockId} (Terraform's {@code Locker.Unlock}); does
     * nothing when the lock is free or held under another id. Does not change the serial.
     *
     * @param lockId the id {@link #lock} returned
     * @return true when the lock was released, false when it was not held with that id
     * @throws StateStoreException when the database fails
     */
    public boolean unlock(String lockId) {
        Objects.requireNonNull(lockId, "lockId");
        boolean deleted = store.inTransaction("unlock", c -> delete(c, lockId));
        sessions.released(lockId);
        return deleted;
    }

    /**
     * Releases a lock left by another process, for the {@code force-unlock LOCK_ID} command. As in
     * Terraform, the id acts as a nonce: it must match the current lock, so a user cannot release a
     * lock they have not looked at. Does not change the serial.
     *
     * @param lockId the id of the lock to release, as printed by {@link LockHeldException}
     * @return true when that lock was released; false when the environment is not locked
     * @throws IllegalArgumentException when the environment is locked under a different id (nothing
     *                                  is released)
     * @throws StateStoreException      when the database fails
     */
    public boolean forceUnlock(String lockId) {
        Objects.requireNonNull(lockId, "lockId");
        return store.inTransaction("forceUnlock", c -> {
            Optional<LockInfo> current = select(c);
            if (current.isEmpty()) {
                return false;
            }
            LockInfo h = current.get();
            if (!h.id().equals(lockId)) {
                throw new IllegalArgumentException("lock ID \"" + lockId + "\" does not match the lock on environment \""
                        + store.environmentName() + "\" (" + h.operation() + " by " + h.who() + " since " + h.created()
                        + "); nothing was unlocked. Use the ID printed in the lock error.");
            }
            if (store.backend().locksSessions()) {
                sessions.endHolder(c, h);
            }
            return delete(c, lockId);
        });
    }

    /**
     * @return the lock as it is now in the database, or empty when the environment is not locked
     * @throws StateStoreException when the database fails
     */
    public Optional<LockInfo> current() {
        return store.inTransaction("currentLock()", this::select);
    }

    /** @return the row after inserting {@code mine}: ours, the winner's when another got there first, or null */
    /**
     * Inserts the lock row; when the connection was lost during the commit (an H2 auto-server's host process exiting
     * as another command fails on the lock), reads the row again on the new connection: whether the insert was saved
     * shows in whose row is there.
     */
    private LockInfo insert(String operation, LockInfo mine) {
        try {
            return store.inTransaction("lock(" + operation + ")", c -> insert(c, mine));
        } catch (StateStoreException e) {
            if (!e.outcomeUnknown()) {
                throw e;
            }
            return store.inTransaction("lock(" + operation + ") re-read", c -> select(c).orElse(null));
        }
    }

    private LockInfo insert(Connection c, LockInfo mine) throws SQLException {
        try {
            insertRow(c, mine);
            return mine;
        } catch (SQLException e) {
            if (!Sql.isContention(e)) {
                throw e;
            }
            c.rollback();
            return select(c).orElse(null);
        }
    }

    /** Writes the row of {@code mine}, in the caller's transaction. */
    void insertRow(Connection c, LockInfo mine) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO state_lock (" + COLUMNS
                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            Sql.bind(ps, mine.id(), mine.environment(), mine.operation(), mine.who(), mine.version(), mine.created(),
                    mine.heartbeat(), mine.info(), mine.process());
            ps.setObject(10, mine.session(), java.sql.Types.INTEGER);
            ps.executeUpdate();
        }
    }

    /** @return true when the row still names {@code lockId} and now records {@code session} as its holder's */
    boolean setSession(Connection c, String lockId, int session) throws SQLException {
        return Sql.update(c, "UPDATE state_lock SET holder_session = ? WHERE environment = ? AND lock_id = ?", session,
                store.environmentName(), lockId) == 1;
    }

    /** Deletes the row of {@code lockId}, in the caller's transaction. */
    boolean delete(Connection c, String lockId) throws SQLException {
        return Sql.update(c, "DELETE FROM state_lock WHERE environment = ? AND lock_id = ?", store.environmentName(),
                lockId) == 1;
    }

    /** @return the lock row, read in the caller's transaction */
    Optional<LockInfo> select(Connection c) throws SQLException {
        return Sql.query(c, "SELECT " + COLUMNS + " FROM state_lock WHERE environment = ?",
                rs -> new LockInfo(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        Sql.instant(rs, 6), Sql.instant(rs, 7), rs.getString(8), rs.getString(9),
                        rs.getObject(10, Integer.class)), store.environmentName()).stream().findFirst();
    }
}
