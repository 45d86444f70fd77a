package dev.flowform.sim;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The simulated operator's single scheduler thread, like Strimzi's event loop: every decision of the operator and
 * the kubelet runs here, so their state needs no locks; delays are scheduled, never slept. Tracks idleness for
 * {@link StrimziSimulator#awaitIdle(Duration)} and tells {@link StrimziSimulator.Observer}s of Ready generations.
 */
final class OperatorLoop {
    private static final Logger LOG = Logger.getLogger(OperatorLoop.class.getName());
    private static final Duration QUIET = Duration.ofMillis(30);

    private final ScheduledThreadPoolExecutor exec;
    private final Clock clock;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong activity = new AtomicLong();
    private final Object idleMonitor = new Object();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<StrimziSimulator.Observer> observers = new CopyOnWriteArrayList<>();
    /** First sighting of each generation a client wrote, per {@code kind ns/name}, until its Ready status is written. */
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();

    /** @param clock the clock of observer times and status timestamps */
    OperatorLoop(Clock clock) {
        this.clock = clock;
        this.exec = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "flowform-sim-operator");
            t.setDaemon(true);
            return t;
        });
        exec.setRemoveOnCancelPolicy(true);
    }

    /** @return the clock of observer times and status timestamps */
    Clock clock() {
        return clock;
    }

    /** @return true once {@link #close()} was called */
    boolean closed() {
        return closed.get();
    }

    /** Runs {@code r} on the operator thread as soon as possible. */
    void execute(Runnable r) {
        schedule(Duration.ZERO, r);
    }

    /**
     * Runs {@code r} on the operator thread after {@code delay}; a step that throws is logged and dropped.
     *
     * @return a handle that cancels the step if it has not started; a no-op after {@link #close()}
     */
    Task schedule(Duration delay, Runnable r) {
        if (closed.get()) {
            return () -> { };
        }
        pending.incrementAndGet();
        bump();
        AtomicBoolean done = new AtomicBoolean();
        ScheduledFuture<?> f;
        try {
            f = exec.schedule(() -> {
                if (done.compareAndSet(false, true)) {
                    try {
                        r.run();
                    } catch (RuntimeException e) {
                        if (!closed.get()) {
                            LOG.log(Level.WARNING, "simulator step failed", e);
                        }
                    } finally {
                        pending.decrementAndGet();
                        bump();
                    }
                }
            }, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            pending.decrementAndGet();
            return () -> { };
        }
        return () -> {
            if (done.compareAndSet(false, true)) {
                f.cancel(false);
                pending.decrementAndGet();
                bump();
            }
        };
    }

    /**
     * Like {@link #schedule}, but the delay does not count as pending work (periodic reconciliation); a no-op handle
     * after {@link #close()}.
     */
    Task background(Duration delay, Runnable r) {
        if (closed.get()) {
            return () -> { };
        }
        AtomicBoolean due = new AtomicBoolean();
        ScheduledFuture<?> f;
        try {
            f = exec.schedule(() -> {
                if (due.compareAndSet(false, true)) {
                    execute(r);
                }
            }, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            return () -> { };
        }
        return () -> {
            if (due.compareAndSet(false, true)) {
                f.cancel(false);
            }
        };
    }

    /**
     * Runs a cheap {@code check} after {@code delay} without counting it as work for {@link #awaitIdle}; the work it
     * finds goes to {@link #execute}; a check that throws is logged.
     */
    Task poll(Duration delay, Runnable check) {
        if (closed.get()) {
            return () -> { };
        }
        ScheduledFuture<?> f;
        try {
            f = exec.schedule(() -> {
                try {
                    check.run();
                } catch (RuntimeException e) {
                    if (!closed.get()) {
                        LOG.log(Level.WARNING, "simulator check failed", e);
                    }
                }
            }, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            return () -> { };
        }
        return () -> f.cancel(false);
    }

    /**
     * Waits until no step is pending and {@code settled} holds, for a short quiet period.
     *
     * @return true when idle (or closed), false when {@code timeout} passed first
     */
    boolean awaitIdle(Duration timeout, BooleanSupplier settled) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (closed.get()) {
                return true;
            }
            long before = activity.get();
            if (pending.get() == 0 && settled.getAsBoolean()) {
                waitForActivity(QUIET, before);
                if (activity.get() == before && pending.get() == 0) {
                    return true;
                }
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            waitForActivity(Duration.ofNanos(Math.min(left, Duration.ofMillis(25).toNanos())), before);
        }
    }

    /**
     * Marks the loop closed, runs {@code beforeShutdown} (e.g. stopping the informers that feed it), stops the
     * thread (waiting up to 5 s for the running step) and wakes every waiter; idempotent.
     */
    void close(Runnable beforeShutdown) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        beforeShutdown.run();
        exec.shutdownNow();
        try {
            exec.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (idleMonitor) {
            idleMonitor.notifyAll();
        }
    }

    /** @param observer told about every Ready status written for a generation a client produced */
    void addObserver(StrimziSimulator.Observer observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
    }

    /**
     * Remembers when the informer first delivered a generation written by a client (an update that changed
     * {@code metadata.generation}); added objects and the simulator's own status writes are not recorded.
     * Runs on the informer thread, before the event is queued for the operator thread.
     */
    void noteSeen(String kind, String key, Long oldGeneration, Long generation) {
        if (observers.isEmpty() || Objects.equals(oldGeneration, generation)) {
            return;
        }
        Instant at = clock.instant();
        seen.merge(kind + " " + key, new Seen(generation == null ? 0 : generation, at),
                (before, now) -> before.generation() >= now.generation() ? before : new Seen(now.generation(), before.at()));
    }

    /** Tells the observers that a Ready status for {@code generation} of {@code ns/name} was written at {@code readyAt}. */
    void reportReady(String kind, String ns, String name, long generation, Instant readyAt) {
        if (observers.isEmpty()) {
            return;
        }
        String k = kind + " " + ns + "/" + name;
        Seen s = seen.get(k);
        if (s == null || s.generation() > generation) {
            return;
        }
        seen.remove(k, s);
        for (StrimziSimulator.Observer o : observers) {
            o.ready(kind, ns, name, generation, s.at(), readyAt);
        }
    }

    private void waitForActivity(Duration max, long seenActivity) {
        synchronized (idleMonitor) {
            if (activity.get() != seenActivity || closed.get()) {
                return;
            }
            try {
                idleMonitor.wait(Math.max(1, max.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void bump() {
        activity.incrementAndGet();
        synchronized (idleMonitor) {
            idleMonitor.notifyAll();
        }
    }

    /** A cancellable scheduled step. */
    @FunctionalInterface
    interface Task {
        /** Cancels the step unless it already started; idempotent. */
        void cancel();
    }

    /** When a generation was first delivered. */
    private record Seen(long generation, Instant at) {
    }
}
