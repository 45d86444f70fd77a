package dev.flowform.apply;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Executes a plan's steps as the graph their {@code dependsOn} makes: different clusters' chains and a cluster's
 * connector lanes (Kafka 3.6+, KAFKA-15059) run in parallel, at most {@code parallelism} steps at once
 * ({@link StepWalk}). Per step: journal the intent, act through the {@link ClusterWriter} or {@link RolloutWatcher},
 * journal the outcome. A failed step skips the rest of its chain; a {@link StopSignal} lets a write finish and ends a
 * wait; a journal that cannot write stops the whole run, since flowform never acts without recording it first
 * (docs/architecture.md, "The flow of one apply").
 */
public final class Applier {

    /** How the journal detail of a wait ended by a stop request starts. */
    public static final String STOPPED = "stopped while waiting";

    /** Default number of steps applied at once (Terraform's {@code -parallelism} default). */
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

    /** An applier that runs chains one after another and cannot be stopped; the arguments are the full constructor's. */
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
     * @param parallelism how many steps may run at once over the whole plan, at least 1
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
        Map<String, Long> generations = new ConcurrentHashMap<>();
        int total = steps.size();
        StepWalk walk = new StepWalk(steps, parallelism, stop, new StepWalk.Runner() {
            @Override
            public StepResult run(int position) {
                return runStep(steps.get(position), position + 1, total, generations);
            }

            @Override
            public StepResult skip(int position, String reason) {
                Step step = steps.get(position);
                listener.stepSkipped(step, position + 1, total, reason);
                return new StepResult(step, StepResult.Outcome.SKIPPED, reason, Duration.ZERO);
            }
        });
        StepResult[] results = walk.run();
        for (int i = 0; i < results.length; i++) {
            if (results[i] == null) {
                results[i] = new StepResult(steps.get(i), StepResult.Outcome.SKIPPED, "not started", Duration.ZERO);
            }
        }
        if (walk.failure() != null) {
            throw walk.failure();
        }
        return new ApplyResult(Arrays.asList(results), stop.stopRequested(), stop.reason());
    }

    private StepResult runStep(Step planned, int index, int total, Map<String, Long> generations) {
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
        return new StepResult(step, StepResult.Outcome.FAILED, detail, took);
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
