package dev.flowform.apply;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepPayload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Executes a plan's steps in order.
 *
 * <p>For every step: journal the intent, act (create / edit / delete through the {@link ClusterWriter},
 * or wait through the {@link RolloutWatcher}), then journal done or failed. A failed step stops its
 * chain: every later step that depends on it, directly or not, is skipped; steps of other Connect
 * clusters go on. A wait step whose payload names no generation waits for the generation that the
 * previous write to the same object produced (that is the "G our patch produced" of rule 7).
 */
public final class Applier {

    private final ClusterWriter writer;
    private final RolloutWatcher watcher;
    private final Journal journal;
    private final ApplyListener listener;
    private final Clock clock;
    private final Duration waitTimeout;

    /**
     * @param writer      changes objects
     * @param watcher     waits for rolls and connectors
     * @param journal     durable step journal
     * @param listener    progress sink
     * @param clock       time source for durations
     * @param waitTimeout how long each wait step may take before it fails
     */
    public Applier(ClusterWriter writer, RolloutWatcher watcher, Journal journal, ApplyListener listener, Clock clock,
                   Duration waitTimeout) {
        this.writer = writer;
        this.watcher = watcher;
        this.journal = journal;
        this.listener = listener;
        this.clock = clock;
        this.waitTimeout = waitTimeout;
    }

    /**
     * Runs the plan.
     *
     * @param plan an applyable plan
     * @return one result per step; when the thread is interrupted the current step is journaled as
     *         failed, the rest skipped, and {@link ApplyResult#interrupted()} is true
     */
    public ApplyResult apply(Plan plan) {
        List<StepResult> results = new ArrayList<>();
        Set<Integer> notDone = new HashSet<>();
        Map<String, Long> generations = new HashMap<>();
        int total = plan.steps().size();
        boolean interrupted = false;
        int index = 0;
        for (Step step : plan.steps()) {
            index++;
            if (interrupted) {
                results.add(skip(step, index, total, "the run was interrupted", notDone));
                continue;
            }
            Integer failedDep = step.dependsOn().stream().filter(notDone::contains).findFirst().orElse(null);
            if (failedDep != null) {
                results.add(skip(step, index, total, "step " + failedDep + " did not complete", notDone));
                continue;
            }
            listener.stepStarted(step, index, total);
            long handle = journal.started(step, index);
            Instant start = clock.instant();
            String detail;
            boolean ok;
            try {
                Outcome o = execute(step, index, total, generations, start);
                ok = o.ok;
                detail = o.detail;
            } catch (ApplyException e) {
                ok = false;
                detail = e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                interrupted = true;
                ok = false;
                detail = "interrupted while running";
            }
            Duration took = Duration.between(start, clock.instant());
            if (ok) {
                journal.done(handle, detail);
                listener.stepDone(step, index, total, detail, took);
                results.add(new StepResult(step, StepResult.Outcome.DONE, detail, took));
            } else {
                journal.failed(handle, detail);
                listener.stepFailed(step, index, total, detail, took);
                notDone.add(step.id());
                results.add(new StepResult(step, StepResult.Outcome.FAILED, detail, took));
            }
        }
        return new ApplyResult(results, interrupted);
    }

    private StepResult skip(Step step, int index, int total, String reason, Set<Integer> notDone) {
        notDone.add(step.id());
        listener.stepSkipped(step, index, total, reason);
        return new StepResult(step, StepResult.Outcome.SKIPPED, reason, Duration.ZERO);
    }

    private record Outcome(boolean ok, String detail) {
    }

    private Outcome execute(Step step, int index, int total, Map<String, Long> generations, Instant start)
            throws InterruptedException {
        String key = key(step.object());
        StepPayload p = step.payload();
        if (p instanceof StepPayload.CreateObject c) {
            long g = writer.create(c.manifest());
            generations.put(key, g);
            return new Outcome(true, "created " + step.object() + " (generation " + g + ")");
        }
        if (p instanceof StepPayload.PatchObject po) {
            long g = writer.patch(step.object(), po.edits());
            generations.put(key, g);
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
            long g = generationFor(step.object(), w.generation(), generations);
            Readiness r = watcher.awaitRoll(step.object(), g, w.expectedMode(), waitTimeout,
                    (state, elapsed) -> listener.stepProgress(step, index, total, state, elapsed));
            return outcome(r);
        }
        if (p instanceof StepPayload.WaitForConnector w) {
            long g = generationFor(step.object(), w.generation(), generations);
            Readiness r = watcher.awaitConnector(step.object(), g, w.expectedState(), waitTimeout,
                    (state, elapsed) -> listener.stepProgress(step, index, total, state, elapsed));
            return outcome(r);
        }
        throw new IllegalStateException("unknown payload " + p);
    }

    private long generationFor(ObjectRef ref, Long planned, Map<String, Long> generations) {
        if (planned != null) {
            return planned;
        }
        Long g = generations.get(key(ref));
        return g != null ? g : writer.generation(ref);
    }

    private static Outcome outcome(Readiness r) {
        if (r instanceof Readiness.Complete) {
            return new Outcome(true, r.detail());
        }
        if (r instanceof Readiness.TimedOut) {
            return new Outcome(false, "timed out: " + r.detail());
        }
        if (r instanceof Readiness.Paused) {
            return new Outcome(false, r.detail());
        }
        return new Outcome(false, r.detail());
    }

    private static String key(ObjectRef r) {
        return r.kind() + " " + r.namespace() + "/" + r.name();
    }
}
