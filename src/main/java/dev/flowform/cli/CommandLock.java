package dev.flowform.cli;

import dev.flowform.locking.Sleeper;
import dev.flowform.apply.StopSignal;
import dev.flowform.render.Text;
import dev.flowform.state.HeldStateLock;
import dev.flowform.state.HolderNotAnsweringException;
import dev.flowform.state.LockHeldException;
import dev.flowform.state.LockInfo;
import dev.flowform.state.ProcessIdentity;
import dev.flowform.state.StateLockTable;
import dev.flowform.state.StateStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The environment's state lock as one command holds it and tells the user about it (Terraform's automatic locking):
 * {@link StateLockTable#acquire} takes, waits and heartbeats; this class prints what it reports (the wait, a gone
 * holder's lock released, the holder and the {@code force-unlock} command when it stays held) and ends the wait on
 * Ctrl-C (exit 130). {@link #release()} is idempotent and may run on any thread.
 */
final class CommandLock {

    /** The operation {@code cluster serve} holds the lock for. */
    static final String SERVE = "cluster serve";

    private final String operation;
    private final Duration timeout;
    private final String info;
    private final Terminal term;
    private final StopSignal stop;
    private final String releaseHint;
    private final Clock clock;
    private HeldStateLock held;
    private volatile boolean acquiring;

    /**
     * @param operation   what the holder does, e.g. {@code apply}
     * @param timeout     how long to keep trying when the lock is held (zero: one attempt)
     * @param info        shown to others who find the lock held, or null
     * @param stop        interrupts the pauses between attempts (Ctrl-C while waiting for the lock)
     * @param releaseHint the options to put after {@code flowform force-unlock ID} in hints, e.g. {@code -e prod}
     */
    CommandLock(String operation, Duration timeout, String info, CliContext ctx, Terminal term, StopSignal stop,
              String releaseHint) {
        this.operation = operation;
        this.timeout = timeout;
        this.info = info;
        this.term = term;
        this.stop = stop;
        this.releaseHint = releaseHint;
        this.clock = ctx.clock();
    }

    /**
     * @return the pause of the state this lock opens: while the lock is being taken (the state's holder or the lock's
     *         may be waited for), a stop request (Ctrl-C, SIGTERM) interrupts it; afterwards it is an ordinary pause, so
     *         that a graceful stop can still write the state
     */
    Sleeper sleeper() {
        return d -> {
            if (!acquiring) {
                Sleeper.SYSTEM.sleep(d);
                return;
            }
            stop.interruptibly(() -> {
                Sleeper.SYSTEM.sleep(d);
                return null;
            });
        };
    }

    /**
     * Opens the state with {@code open} and takes its lock ({@link StateLockTable#openLocked}), printing its events,
     * waiting both while the lock is held and while the state's holder does not answer.
     *
     * @throws CommandFailed exit 1 when the lock stays held or the holder does not answer, 130 (143) when interrupted
     */
    StateStore open(Supplier<StateStore> open) {
        StateLockTable.Locked locked = locked(() -> StateLockTable.openLocked(open, request(), timeout, clock, sleeper(),
                new Notes()));
        return locked.store();
    }

    /**
     * Takes the lock of a state already open with {@link StateLockTable#acquire}, printing its events.
     *
     * @throws CommandFailed exit 1 after printing the holder when the lock stays held, exit 130 when interrupted
     */
    void acquire(StateStore store) {
        locked(() -> new StateLockTable.Locked(store, store.lockTable().acquire(request(), timeout, sleeper(), new Notes())));
    }

    /** Work that takes the lock. */
    private interface Taking {
        StateLockTable.Locked take() throws InterruptedException;
    }

    private StateLockTable.Locked locked(Taking taking) {
        acquiring = true;
        try {
            StateLockTable.Locked taken = taking.take();
            acquiring = false;
            synchronized (this) {
                held = taken.lock();
            }
            if (stop.stopRequested()) {
                release();
                taken.store().close();
                throw interrupted();
            }
            return taken;
        } catch (LockHeldException e) {
            throw refused(e);
        } catch (HolderNotAnsweringException e) {
            throw notAnswering(e);
        } catch (InterruptedException e) {
            throw interrupted();
        } catch (RuntimeException e) {
            if (stop.stopRequested() && !(e instanceof CommandFailed)) {
                throw interrupted();
            }
            throw e;
        } finally {
            acquiring = false;
        }
    }

    private StateLockTable.Request request() {
        return new StateLockTable.Request(operation, LockInfo.localWho(), Version.get(), info);
    }

    private CommandFailed interrupted() {
        term.error("Interrupted while waiting for the state lock", "Nothing was changed.");
        return new CommandFailed(130);
    }

    /** Prints what taking the lock reports. */
    private final class Notes implements StateLockTable.Listener {
        @Override
        public void waiting(LockInfo holder) {
            term.note("info", "Acquiring state lock. This may take a few moments...");
        }

        @Override
        public void tookOver(LockInfo h) {
            term.note("warn", "Took over the state lock of environment \"" + h.environment() + "\" left by "
                    + h.operation() + " of " + h.who() + ", whose PostgreSQL session " + (h.session() == null ? ""
                    : h.session() + " ") + "has ended (lock ID " + h.id() + ", taken " + h.created()
                    + "); no force-unlock was needed.");
        }

        @Override
        public void releasedGone(LockInfo h) {
            term.note("warn", "Released the state lock of environment \"" + h.environment() + "\" left by "
                    + h.operation() + " of " + h.who() + " (" + h.holderProcess().map(ProcessIdentity::describe)
                    .orElse("its process") + ", which no longer runs; lock ID " + h.id() + ", taken "
                    + h.created() + ").");
        }
    }

    private CommandFailed refused(LockHeldException e) {
        String message = e.getMessage();
        String prefix = "Error acquiring the state lock: ";
        String detail = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
        detail = detail.substring(0, 1).toUpperCase(Locale.ROOT) + detail.substring(1);
        if (SERVE.equals(e.holder().operation())) {
            detail += "\nThe environment's embedded cluster is being served by \"" + CommandHint.program()
                    + " cluster serve\", which alone writes its objects while it runs. Stop it (Ctrl-C) first, or "
                    + "work on the served cluster through an environment on its kubeconfig.";
        }
        if (e.isProbablyStale()) {
            detail += "\n\nThe lock is probably stale (no heartbeat for " + Text.duration(e.sinceHeartbeat())
                    + "). To release it:\n  " + CommandHint.program() + " force-unlock " + e.holder().id() + releaseHint;
        } else if (e.waited().isZero() && !SERVE.equals(e.holder().operation())) {
            // a server holds the lock until it is stopped: waiting would only time out
            detail += "\nTo wait for it, add --lock-timeout (e.g. --lock-timeout 10m).";
        }
        term.error("Error acquiring the state lock", detail);
        return new CommandFailed(1);
    }

    private CommandFailed notAnswering(HolderNotAnsweringException e) {
        StringBuilder detail = new StringBuilder(CommandState.notAnswering(e, clock));
        if (e.waited().isZero()) {
            detail.append("\nTo wait for it, add --lock-timeout (e.g. --lock-timeout 10m).");
        }
        term.error("Error acquiring the state lock", detail.toString());
        return new CommandFailed(1);
    }

    /**
     * @return the IDs of locks this lock released because their holder process no longer runs: a cluster lease
     *         still naming one of them belongs to that dead process
     */
    synchronized Set<String> releasedGone() {
        return held == null ? Set.of() : held.releasedGone();
    }

    /** @return the lock held, or null */
    synchronized LockInfo held() {
        return held == null || held.isReleased() ? null : held.info();
    }

    /** @return why the lock is no longer ours (its heartbeat failed: force-unlocked, database lost), or empty */
    synchronized Optional<String> lost() {
        if (held == null) {
            return Optional.empty();
        }
        return held.lost().map(e -> "the state lock was lost: " + e.getMessage());
    }

    /**
     * Stops the heartbeat and releases the lock; does nothing when it is not held. Never throws: a
     * failure is printed with the {@code force-unlock} command that fixes it.
     */
    synchronized void release() {
        if (held == null || held.isReleased()) {
            return;
        }
        LockInfo mine = held.info();
        try {
            held.close();
        } catch (RuntimeException e) {
            term.error("Could not release the state lock", "The lock " + mine.id() + " of environment \"" + mine.environment()
                    + "\" may still be held: " + e.getMessage() + "\nRelease it with:\n  " + CommandHint.program()
                    + " force-unlock " + mine.id() + releaseHint);
        }
    }
}
