package dev.flowform.cli;

import dev.flowform.apply.StopSignal;
import dev.flowform.render.Text;
import dev.flowform.state.LockHeartbeat;
import dev.flowform.state.LockHeldException;
import dev.flowform.state.LockInfo;
import dev.flowform.state.ProcessIdentity;
import dev.flowform.state.StateStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The environment's state lock, held by a command that writes state (Terraform's automatic locking,
 * Terraform documentation, "State Locking").
 *
 * <p><b>Taking it.</b> One attempt, or with {@code --lock-timeout} further attempts after pauses of
 * 1 s doubling to 16 s (Terraform's {@code LockWithContext}), announcing "Acquiring state lock. This
 * may take a few moments..." while it waits. A lock whose holder was a process on this machine that
 * no longer runs ({@link LockInfo#isHolderGone()}, e.g. an apply killed with {@code kill -9}) is
 * released with a note and taken: that is what an OS file lock would do. Otherwise the command fails
 * with exit 1 and the holder's LockInfo and age; a holder whose heartbeat is older than
 * {@link LockInfo#STALE_AFTER} is called probably stale, with the exact {@code force-unlock} command.
 *
 * <p><b>Holding it.</b> A heartbeat every {@link LockInfo#HEARTBEAT_INTERVAL} shows the holder is
 * alive; if the lock is lost (force-unlocked by someone), {@link #lost()} says so and the apply stops.
 *
 * <p><b>Releasing it.</b> {@link #release()} is idempotent and may run on any thread (the interrupt
 * handler uses it); the heartbeat thread is stopped without interrupting it, as an interrupt inside
 * H2's file I/O would close the database.
 */
final class StateLock {

    private static final Duration FIRST_PAUSE = StateStore.LOCK_RETRY_FIRST_DELAY;
    private static final Duration MAX_PAUSE = StateStore.LOCK_RETRY_MAX_DELAY;

    private final String operation;
    private final Duration timeout;
    private final String info;
    private final CliContext ctx;
    private final Terminal term;
    private final StopSignal stop;
    private final String releaseHint;
    private StateStore state;
    private LockInfo held;
    private ScheduledExecutorService scheduler;
    private LockHeartbeat heartbeat;
    private final java.util.Set<String> releasedGone = new java.util.LinkedHashSet<>();

    /**
     * @param operation   what the holder does, e.g. {@code apply}
     * @param timeout     how long to keep trying when the lock is held (zero: one attempt)
     * @param info        shown to others who find the lock held, or null
     * @param ctx         clock and environment
     * @param term        where notes and errors go
     * @param stop        interrupts the pauses between attempts (Ctrl-C while waiting for the lock)
     * @param releaseHint the options to put after {@code flowform force-unlock ID} in hints, e.g. {@code -e prod}
     */
    StateLock(String operation, Duration timeout, String info, CliContext ctx, Terminal term, StopSignal stop,
              String releaseHint) {
        this.operation = operation;
        this.timeout = timeout;
        this.info = info;
        this.ctx = ctx;
        this.term = term;
        this.stop = stop;
        this.releaseHint = releaseHint;
    }

    /**
     * Takes the lock (see the class comment) and starts its heartbeat.
     *
     * @param store the environment's state
     * @throws CommandFailed exit 1 after printing the holder when the lock stays held, exit 130 when
     *                       interrupted while waiting
     */
    void acquire(StateStore store) {
        Instant start = ctx.clock().instant();
        Duration pause = FIRST_PAUSE;
        Duration slept = Duration.ZERO;
        boolean announced = false;
        int releasedDead = 0;
        while (true) {
            LockInfo taken;
            try {
                taken = store.lock(operation, LockInfo.localWho(), Version.get(), info);
            } catch (LockHeldException e) {
                LockInfo h = e.holder();
                if (h.isHolderGone() && releasedDead < 3) {
                    releasedDead++;
                    if (store.forceUnlock(h.id())) {
                        synchronized (this) {
                            releasedGone.add(h.id());
                        }
                        term.note("warn", "Released the state lock of environment \"" + h.environment() + "\" left by "
                                + h.operation() + " of " + h.who() + " (" + h.holderProcess().map(ProcessIdentity::describe)
                                .orElse("its process") + ", which no longer runs; lock ID " + h.id() + ", taken "
                                + h.created() + ").");
                    }
                    continue;
                }
                Duration elapsed = Duration.between(start, ctx.clock().instant());
                Duration waited = elapsed.compareTo(slept) > 0 ? elapsed : slept;
                Duration remaining = timeout.minus(waited);
                if (remaining.isNegative() || remaining.isZero()) {
                    throw refused(e, timeout.isZero() ? Duration.ZERO : waited);
                }
                if (!announced) {
                    term.note("info", "Acquiring state lock. This may take a few moments...");
                    announced = true;
                }
                Duration p = pause.compareTo(remaining) < 0 ? pause : remaining;
                try {
                    stop.interruptibly(() -> {
                        Thread.sleep(Math.max(1, p.toMillis()));
                        return null;
                    });
                } catch (InterruptedException ie) {
                    term.error("Interrupted while waiting for the state lock", "Nothing was changed.");
                    throw new CommandFailed(130);
                }
                slept = slept.plus(p);
                pause = pause.multipliedBy(2).compareTo(MAX_PAUSE) > 0 ? MAX_PAUSE : pause.multipliedBy(2);
                continue;
            }
            synchronized (this) {
                state = store;
                held = taken;
                scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                    Thread t = new Thread(r, "flowform-lock-heartbeat");
                    t.setDaemon(true);
                    return t;
                });
                heartbeat = LockHeartbeat.start(store, taken.id(), scheduler, LockInfo.HEARTBEAT_INTERVAL);
            }
            return;
        }
    }

    private CommandFailed refused(LockHeldException e, Duration waited) {
        LockInfo h = e.holder();
        String message = (waited.isZero() ? e : new LockHeldException(h, e.age(), e.sinceHeartbeat(), waited)).getMessage();
        String prefix = "Error acquiring the state lock: ";
        String detail = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
        detail = detail.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + detail.substring(1);
        if (e.isProbablyStale()) {
            detail += "\n\nThe lock is probably stale (no heartbeat for " + Text.duration(e.sinceHeartbeat())
                    + "). To release it:\n  " + CommandHint.program() + " force-unlock " + h.id() + releaseHint;
        } else if (waited.isZero()) {
            detail += "\nTo wait for it, add --lock-timeout (e.g. --lock-timeout 10m).";
        }
        term.error("Error acquiring the state lock", detail);
        return new CommandFailed(1);
    }

    /**
     * @return the IDs of locks this lock released because their holder process no longer runs: a cluster lease
     *         still naming one of them belongs to that dead process
     */
    synchronized java.util.Set<String> releasedGone() {
        return java.util.Set.copyOf(releasedGone);
    }

    /** @return the lock held, or null */
    synchronized LockInfo held() {
        return held;
    }

    /** @return why the lock is no longer ours (its heartbeat failed: force-unlocked, database lost), or empty */
    synchronized Optional<String> lost() {
        if (heartbeat == null) {
            return Optional.empty();
        }
        return heartbeat.failure().map(e -> "the state lock was lost: " + e.getMessage());
    }

    /**
     * Stops the heartbeat and releases the lock; does nothing when it is not held. Never throws: a
     * failure is printed with the {@code force-unlock} command that fixes it.
     */
    synchronized void release() {
        if (held == null) {
            return;
        }
        LockInfo mine = held;
        held = null;
        heartbeat.close();
        scheduler.shutdown();
        try {
            scheduler.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            // go on: the flag stays clear so that the unlock below (H2 file I/O) is not disturbed
        }
        try {
            state.unlock(mine.id());
        } catch (RuntimeException e) {
            term.error("Could not release the state lock", "The lock " + mine.id() + " of environment \"" + mine.environment()
                    + "\" may still be held: " + e.getMessage() + "\nRelease it with:\n  " + CommandHint.program() + " force-unlock " + mine.id()
                    + releaseHint);
        }
    }
}
