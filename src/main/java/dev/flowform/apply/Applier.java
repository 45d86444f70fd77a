package dev.flowform.apply;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepGraph;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Executes a plan's steps: the chains of different Connect clusters in parallel, the steps of one
 * chain strictly in order.
 *
 * <p><b>Chains.</b> Steps linked by {@code dependsOn} (directly or not) form a chain; the planner
 * builds one chain per Connect cluster. Up to {@code parallelism} chains run at once (Terraform's
 * {@code -parallelism}, default 10); within a chain, a step starts only after the one before it.
 *
 * <p><b>Per step.</b> Journal the intent (a wait records the exact generation it waits for), then
 * act (create / edit / delete through the {@link ClusterWriter}, or wait through the
 * {@link RolloutWatcher}), then journal done or failed with the detail. A failed step stops its
 * chain: every later step that depends on it is skipped; other chains go on. A wait step whose payload
 * names no generation waits for the generation that the previous write to the same object produced
 * (the "G our patch produced" of rule 7).
 *
 * <p><b>Stopping.</b> When the {@link StopSignal} is raised (Ctrl-C, a lost lock), a write in flight
 * finishes and is journaled, a wait in progress ends at once and is journaled as failed, and no further
 * step starts; the result says {@link ApplyResult#interrupted()}.
 *
 * <p><b>Errors.</b> Cluster errors fail the step ({@link ApplyException}); so does any other unexpected
 * error of the writer or watcher, so the run still ends journaled and unlocked. A journal that cannot write
 * (the state database failed) stops the whole run and is rethrown once every chain has stopped:
 * flowform never acts on the cluster without recording it first.
 */
public final class Applier {

    /** How the journal detail of a wait ended by a stop request starts. */
    public static final String STOPPED = "stopped while waiting";

    /** Default number of chains applied at once (Terraform's {@code -parallelism} default). */
    public static final int DEFAULT_PARALLELISM = 10;

    private final ClusterWriter writer;
    private final RolloutWatcher watcher;
    private final Journal journal;
    private final ApplyListener listener;
    private final Clock clock;
    private final StepTimeouts timeouts;
    private final int parallelism;
    private final StopSignal stop;
    /** When this run annotated each resource's PodSet for a forced roll, by address; what its forced-roll wait checks. */
    private final Map<String, Instant> forcedAt = new ConcurrentHashMap<>();

    /**
     * An applier that runs chains one after another and cannot be stopped.
     *
     * @param writer      changes objects
     * @param watcher     waits for rolls and connectors
     * @param journal     durable step journal
     * @param listener    progress sink
     * @param clock       time source for durations
     * @param waitTimeout how long each wait step may take before it fails
     */
    public Applier(ClusterWriter writer, RolloutWatcher watcher, Journal journal, ApplyListener listener, Clock clock,
                   Duration waitTimeout) {
        this(writer, watcher, journal, listener, clock, StepTimeouts.of(waitTimeout), 1, StopSignal.never());
    }

    /**
     * @param writer      changes objects
     * @param watcher     waits for rolls and connectors
     * @param journal     durable step journal; called from several threads when chains run in parallel
     * @param listener    progress sink; called from several threads when chains run in parallel
     * @param clock       time source for durations
     * @param timeouts    how long each kind of wait may take
     * @param parallelism how many chains may run at once, at least 1
     * @param stop        raised to stop the run gracefully
     * @throws IllegalArgumentException when {@code parallelism} is below 1
     */
    public Applier(ClusterWriter writer, RolloutWatcher watcher, Journal journal, ApplyListener listener, Clock clock,
                   StepTimeouts timeouts, int parallelism, StopSignal stop) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        }
        this.writer = writer;
        this.watcher = watcher;
        this.journal = journal;
        this.listener = listener;
        this.clock = clock;
        this.timeouts = timeouts;
        this.parallelism = parallelism;
        this.stop = stop;
    }

    /**
     * Runs the plan.
     *
     * @param plan an applyable plan
     * @return one result per step, in plan order; when stopped, the step that was waiting is failed,
     *         the steps not started are skipped and {@link ApplyResult#interrupted()} is true
     * @throws RuntimeException what the journal threw, after every chain has stopped
     */
    public ApplyResult apply(Plan plan) {
        List<Step> steps = plan.steps();
        StepResult[] results = new StepResult[steps.size()];
        List<List<Integer>> chains = StepGraph.chains(steps);
        Set<Integer> notDone = ConcurrentHashMap.newKeySet();
        Map<String, Long> generations = new ConcurrentHashMap<>();
        int threads = Math.min(parallelism, chains.size());
        RuntimeException journalFailure = null;
        if (threads <= 1) {
            for (List<Integer> chain : chains) {
                try {
                    runChain(steps, chain, results, notDone, generations);
                } catch (RuntimeException e) {
                    journalFailure = first(journalFailure, e);
                    stop.requestStop("the state could not be written: " + e.getMessage());
                }
            }
        } else {
            journalFailure = runParallel(steps, chains, results, notDone, generations, threads);
        }
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                results[i] = new StepResult(steps.get(i), StepResult.Outcome.SKIPPED, "not started", Duration.ZERO);
            }
        }
        if (journalFailure != null) {
            throw journalFailure;
        }
        return new ApplyResult(Arrays.asList(results), stop.stopRequested(), stop.reason());
    }

    private RuntimeException runParallel(List<Step> steps, List<List<Integer>> chains, StepResult[] results,
                                         Set<Integer> notDone, Map<String, Long> generations, int threads) {
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "flowform-apply-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        RuntimeException failure = null;
        try {
            List<Future<?>> running = new ArrayList<>();
            for (List<Integer> chain : chains) {
                running.add(pool.submit(() -> {
                    try {
                        runChain(steps, chain, results, notDone, generations);
                    } catch (RuntimeException e) {
                        stop.requestStop("the state could not be written: " + e.getMessage());
                        throw e;
                    }
                }));
            }
            for (Future<?> f : running) {
                failure = first(failure, join(f));
            }
        } finally {
            pool.shutdown();
        }
        return failure;
    }

    /** Waits for a chain without ever being interrupted itself; returns what it threw. */
    private static RuntimeException join(Future<?> f) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    f.get();
                    return null;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    return e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static RuntimeException first(RuntimeException a, RuntimeException b) {
        return a != null ? a : b;
    }

    private void runChain(List<Step> steps, List<Integer> chain, StepResult[] results, Set<Integer> notDone,
                          Map<String, Long> generations) {
        int total = steps.size();
        for (int position : chain) {
            Step step = steps.get(position);
            int index = position + 1;
            if (stop.check()) {
                results[position] = skip(step, index, total, "the run was stopped: " + stop.reason(), notDone);
                continue;
            }
            Integer failedDep = step.dependsOn().stream().filter(notDone::contains).findFirst().orElse(null);
            if (failedDep != null) {
                results[position] = skip(step, index, total, "step " + failedDep + " did not complete", notDone);
                continue;
            }
            results[position] = runStep(step, index, total, notDone, generations);
        }
    }

    private StepResult runStep(Step planned, int index, int total, Set<Integer> notDone, Map<String, Long> generations) {
        Step step = planned;
        String early = null;
        try {
            step = withGeneration(planned, generations);
        } catch (ApplyException e) {
            early = e.getMessage();
        }
        long handle = journal.started(step, index);
        listener.stepStarted(step, index, total);
        Instant start = clock.instant();
        boolean ok;
        boolean stopped = false;
        String detail;
        if (early != null) {
            ok = false;
            detail = early;
        } else {
            try {
                Outcome o = execute(step, index, total, generations);
                ok = o.ok;
                detail = o.detail;
            } catch (ApplyException e) {
                ok = false;
                detail = e.getMessage();
            } catch (RuntimeException e) {
                ok = false;
                detail = "unexpected error: " + e;
            } catch (InterruptedException e) {
                ok = false;
                stopped = true;
                detail = STOPPED + " (" + (stop.reason() == null ? "interrupted" : stop.reason()) + ")";
            }
        }
        Duration took = Duration.between(start, clock.instant());
        if (ok) {
            journal.done(handle, detail);
            listener.stepDone(step, index, total, detail, took);
            return new StepResult(step, StepResult.Outcome.DONE, detail, took);
        }
        if (stopped) {
            journal.stopped(handle, detail);
        } else {
            journal.failed(handle, detail);
        }
        listener.stepFailed(step, index, total, detail, took);
        notDone.add(step.id());
        return new StepResult(step, StepResult.Outcome.FAILED, detail, took);
    }

    private StepResult skip(Step step, int index, int total, String reason, Set<Integer> notDone) {
        notDone.add(step.id());
        listener.stepSkipped(step, index, total, reason);
        return new StepResult(step, StepResult.Outcome.SKIPPED, reason, Duration.ZERO);
    }

    private record Outcome(boolean ok, String detail) {
    }

    /** @return the step with the generation a wait will wait for filled in (so the journal records it) */
    private Step withGeneration(Step step, Map<String, Long> generations) {
        StepPayload p = step.payload();
        if (p instanceof StepPayload.WaitForRoll w && w.generation() == null) {
            return new Step(step.id(), step.kind(), step.address(), step.object(), step.dependsOn(),
                    new StepPayload.WaitForRoll(w.expectedMode(), generationFor(step.object(), generations)), step.summary());
        }
        if (p instanceof StepPayload.WaitForConnector w && w.generation() == null) {
            return new Step(step.id(), step.kind(), step.address(), step.object(), step.dependsOn(),
                    new StepPayload.WaitForConnector(w.expectedState(), generationFor(step.object(), generations)),
                    step.summary());
        }
        return step;
    }

    private Outcome execute(Step step, int index, int total, Map<String, Long> generations)
            throws InterruptedException {
        String key = key(step.object());
        StepPayload p = step.payload();
        if (p instanceof StepPayload.CreateObject c) {
            long g = writer.create(c.manifest());
            generations.put(key, g);
            return new Outcome(true, "created " + step.object() + " (generation " + g + ")");
        }
        if (p instanceof StepPayload.PatchObject po) {
            if (step.kind() == StepKind.FORCE_ROLL) {
                forcedAt.put(step.address(), clock.instant());
            }
            long g = writer.patch(step.object(), po.edits());
            generations.put(key, g);
            if (step.kind() == StepKind.TRANSFER_OWNERSHIP) {
                // the journal keeps this detail: the run history says what was taken over, from whom
                return new Outcome(true, "ownership of " + step.object() + ": " + step.summary() + " (generation " + g + ")");
            }
            return new Outcome(true, "updated " + step.object() + " (generation " + g + ")");
        }
        if (p instanceof StepPayload.SetWorkerEos s) {
            long g = writer.patch(step.object(), s.edits());
            generations.put(key, g);
            return new Outcome(true, "set exactly.once.source.support=" + s.mode().value() + " on " + step.object()
                    + " (generation " + g + ")");
        }
        if (p instanceof StepPayload.DeleteObject) {
            writer.delete(step.object());
            generations.remove(key);
            return new Outcome(true, "deleted " + step.object());
        }
        if (p instanceof StepPayload.WaitForRoll w) {
            RolloutWatcher.Progress progress = (state, elapsed) -> listener.stepProgress(step, index, total, state, elapsed);
            Readiness r = stop.interruptibly(() -> step.kind() == StepKind.WAIT_FOR_FORCED_ROLL
                    ? watcher.awaitForcedRoll(step.object(), forcedAt.get(step.address()), w.expectedMode(),
                    timeouts.forKind(step.kind()), progress)
                    : watcher.awaitRoll(step.object(), w.generation(), w.expectedMode(), timeouts.forKind(step.kind()), progress));
            return outcome(r);
        }
        if (p instanceof StepPayload.WaitForConnector w) {
            Readiness r = stop.interruptibly(() -> watcher.awaitConnector(step.object(), w.generation(), w.expectedState(),
                    timeouts.forKind(step.kind()), (state, elapsed) -> listener.stepProgress(step, index, total, state, elapsed)));
            return outcome(r);
        }
        throw new IllegalStateException("unknown payload " + p);
    }

    private long generationFor(ObjectRef ref, Map<String, Long> generations) {
        Long g = generations.get(key(ref));
        return g != null ? g : writer.generation(ref);
    }

    private static Outcome outcome(Readiness r) {
        if (r instanceof Readiness.Complete) {
            return new Outcome(true, r.detail());
        }
        if (r instanceof Readiness.TimedOut) {
            return new Outcome(false, "timed out " + r.detail());
        }
        return new Outcome(false, r.detail());
    }

    private static String key(ObjectRef r) {
        return r.kind() + " " + r.namespace() + "/" + r.name();
    }
}
