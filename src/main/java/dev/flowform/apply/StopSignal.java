package dev.flowform.apply;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Asks a running apply to stop gracefully (Ctrl-C, SIGTERM, a lost state lock), the way Terraform's
 * first interrupt does: the API call in flight finishes and is journaled, no further step starts, and
 * a wait in progress ends at once.
 *
 * <p>Threads that block only in waits enter them through {@link #interruptibly}; {@link #requestStop}
 * interrupts exactly those threads, never one that is writing to the cluster or the state database
 * (an interrupt there could abandon a request half-sent or, with H2, close the database file). Other
 * reasons to stop (a lost lock) are polled through probes by {@link #check()}.
 */
public final class StopSignal {

    /** Work that blocks and may be interrupted. */
    @FunctionalInterface
    public interface Interruptible<T> {
        /**
         * @return the result
         * @throws InterruptedException when stopped
         */
        T run() throws InterruptedException;
    }

    private final Set<Thread> waiting = new java.util.HashSet<>();
    private final List<Supplier<Optional<String>>> probes = new CopyOnWriteArrayList<>();
    private String reason;

    /** @return a signal nobody will ever raise (for callers without interrupts) */
    public static StopSignal never() {
        return new StopSignal();
    }

    /**
     * Asks the apply to stop; the first reason is kept. Interrupts the threads waiting in
     * {@link #interruptibly}. Safe to call from any thread, any number of times.
     *
     * @param why shown to the user, e.g. {@code interrupted by the user (SIGINT)}
     */
    public synchronized void requestStop(String why) {
        if (reason == null) {
            reason = why;
        }
        waiting.forEach(Thread::interrupt);
    }

    /**
     * Adds a condition that stops the apply when it yields a reason, checked by {@link #check()}.
     *
     * @param probe returns the reason to stop, or empty to go on (e.g. the lock heartbeat failed)
     */
    public void addProbe(Supplier<Optional<String>> probe) {
        probes.add(probe);
    }

    /** @return true when a stop was requested or a probe asks for one (which then counts as requested) */
    public boolean check() {
        for (Supplier<Optional<String>> p : probes) {
            p.get().ifPresent(this::requestStop);
        }
        return stopRequested();
    }

    /** @return true once {@link #requestStop} was called */
    public synchronized boolean stopRequested() {
        return reason != null;
    }

    /** @return why the apply was stopped, or null while it was not */
    public synchronized String reason() {
        return reason;
    }

    /**
     * Runs blocking work that a stop interrupts. The calling thread's interrupt flag is clear when this
     * returns or throws, so the thread can go on to write its journal safely.
     *
     * @param work the wait
     * @param <T>  its result
     * @return what {@code work} returned
     * @throws InterruptedException when a stop was requested before or during the work
     */
    public <T> T interruptibly(Interruptible<T> work) throws InterruptedException {
        Thread me = Thread.currentThread();
        synchronized (this) {
            if (reason != null) {
                throw new InterruptedException(reason);
            }
            waiting.add(me);
        }
        try {
            return work.run();
        } finally {
            synchronized (this) {
                waiting.remove(me);
            }
            // an interrupt delivered while we were registered but not consumed by the work; the apply
            // threads belong to flowform, and nobody else interrupts them
            Thread.interrupted();
        }
    }
}
