package dev.flowform.apply;

import dev.flowform.plan.Step;
import dev.flowform.plan.StepGraph;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Walks a plan's step graph for the {@link Applier}: a step starts once every step it depends on has finished, and
 * at most {@code parallelism} steps run at once over the whole plan (Terraform's {@code -parallelism} bounds the
 * operations in flight the same way). Of the steps ready to start, the one of the chain (connected part of the
 * graph: one Connect cluster) with the fewest steps running goes first, then the earliest in the plan, so with a
 * parallelism of 1 the chains run one after another, each in plan order, and with more every chain gets a turn.
 *
 * <p>A step is skipped instead of started when the run was stopped, when a step it depends on did not complete,
 * or, for a write, when a step of its chain failed: a failure stops launching new writes on its Connect cluster,
 * while the steps in flight finish and a lane whose write went through still waits for it, so the journal never
 * holds a connector written but not waited for because another connector failed. What the step runner throws
 * (the journal could not write) stops the run; it is returned once every step in flight has finished.
 */
final class StepWalk {

    /** Runs one step (by position) to its result, or decides it is skipped. */
    interface Runner {
        /**
         * @param position 0-based index of the step in the plan
         * @return its result (done or failed)
         */
        StepResult run(int position);

        /**
         * @param position 0-based index of the step in the plan
         * @param reason   why it does not run
         * @return its result (skipped)
         */
        StepResult skip(int position, String reason);
    }

    private final List<Step> steps;
    private final int parallelism;
    private final StopSignal stop;
    private final Runner runner;
    private final int[] chainOf;
    private final int[] pendingDeps;
    private final List<List<Integer>> dependents = new ArrayList<>();
    private final int[] runningInChain;
    private final Integer[] failedInChain;
    private final List<Integer> ready = new ArrayList<>();
    private final StepResult[] results;
    private final Map<Integer, Integer> positionById = new HashMap<>();
    private RuntimeException failure;

    StepWalk(List<Step> steps, int parallelism, StopSignal stop, Runner runner) {
        this.steps = steps;
        this.parallelism = parallelism;
        this.stop = stop;
        this.runner = runner;
        this.results = new StepResult[steps.size()];
        this.chainOf = new int[steps.size()];
        this.pendingDeps = new int[steps.size()];
        List<List<Integer>> chains = StepGraph.chains(steps);
        for (int c = 0; c < chains.size(); c++) {
            for (int position : chains.get(c)) {
                chainOf[position] = c;
            }
        }
        this.runningInChain = new int[chains.size()];
        this.failedInChain = new Integer[chains.size()];
        for (int i = 0; i < steps.size(); i++) {
            positionById.put(steps.get(i).id(), i);
            dependents.add(new ArrayList<>());
        }
        for (int i = 0; i < steps.size(); i++) {
            for (int dep : steps.get(i).dependsOn()) {
                Integer j = positionById.get(dep);
                if (j != null) {
                    dependents.get(j).add(i);
                    pendingDeps[i]++;
                }
            }
            if (pendingDeps[i] == 0) {
                ready.add(i);
            }
        }
    }

    /**
     * Runs every step, on the calling thread when {@code parallelism} is 1.
     *
     * @return one result per step (null for a step never reached: a dependency cycle), in plan order
     */
    StepResult[] run() {
        if (parallelism <= 1 || steps.size() <= 1) {
            while (!ready.isEmpty()) {
                int p = next();
                if (!skipped(p)) {
                    runCaught(p);
                    finished(p);
                }
            }
            return results;
        }
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallelism, steps.size()), r -> {
            Thread t = new Thread(r, "flowform-apply-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            walkOn(new ExecutorCompletionService<>(pool));
        } catch (Error e) {
            pool.shutdownNow();
            throw e;
        } finally {
            pool.shutdown();
        }
        return results;
    }

    /** @return what the runner threw first (the journal failed), or null */
    RuntimeException failure() {
        return failure;
    }

    private void walkOn(ExecutorCompletionService<Integer> done) {
        int inFlight = 0;
        boolean interrupted = false;
        while (!ready.isEmpty() || inFlight > 0) {
            while (!ready.isEmpty() && inFlight < parallelism) {
                int p = next();
                if (!skipped(p)) {
                    runningInChain[chainOf[p]]++;
                    inFlight++;
                    done.submit(() -> {
                        runCaught(p);
                        return p;
                    });
                }
            }
            if (inFlight == 0) {
                continue;
            }
            try {
                int p = done.take().get();
                inFlight--;
                runningInChain[chainOf[p]]--;
                finished(p);
            } catch (InterruptedException e) {
                interrupted = true; // the walk itself is never interrupted: the stop signal ends the steps
            } catch (ExecutionException e) {
                if (e.getCause() instanceof Error error) {
                    throw error; // a VM error (or a test's simulated crash) ends the run as it would a serial one
                }
                throw new IllegalStateException("a step task failed outside its runner", e.getCause());
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs step {@code p}; what the runner throws stops the run and is kept for the caller. */
    private void runCaught(int p) {
        try {
            results[p] = runner.run(p);
        } catch (RuntimeException e) {
            synchronized (this) {
                failure = failure == null ? e : failure;
            }
            stop.requestStop("the state could not be written: " + e.getMessage());
        }
    }

    /** @return true when step {@code p} was skipped (and its dependents released); false when it is to run */
    private boolean skipped(int p) {
        String reason = null;
        if (stop.check()) {
            reason = "the run was stopped: " + stop.reason();
        } else {
            Integer failedDep = steps.get(p).dependsOn().stream().filter(this::notDone).findFirst().orElse(null);
            if (failedDep != null) {
                reason = "step " + failedDep + " did not complete";
            } else if (failedInChain[chainOf[p]] != null && steps.get(p).kind().isMutation()) {
                reason = "step " + failedInChain[chainOf[p]] + " of the same Connect cluster failed";
            }
        }
        if (reason == null) {
            return false;
        }
        results[p] = runner.skip(p, reason);
        finished(p);
        return true;
    }

    /** @return true when the step with this id is in the plan and did not end done (yet) */
    private boolean notDone(int id) {
        Integer p = positionById.get(id);
        return p != null && (results[p] == null || results[p].outcome() != StepResult.Outcome.DONE);
    }

    /** Records that step {@code p} ended and makes the steps that waited only for it ready. */
    private void finished(int p) {
        StepResult r = results[p];
        if (r != null && r.outcome() == StepResult.Outcome.FAILED && failedInChain[chainOf[p]] == null) {
            failedInChain[chainOf[p]] = steps.get(p).id();
        }
        for (int d : dependents.get(p)) {
            if (--pendingDeps[d] == 0) {
                ready.add(d);
            }
        }
    }

    /** Takes the ready step of the chain with the fewest steps running, the earliest in the plan among equals. */
    private int next() {
        int best = 0;
        for (int i = 1; i < ready.size(); i++) {
            int a = ready.get(i);
            int b = ready.get(best);
            int byLoad = Integer.compare(runningInChain[chainOf[a]], runningInChain[chainOf[b]]);
            int byChain = Integer.compare(chainOf[a], chainOf[b]);
            if (byLoad < 0 || (byLoad == 0 && (byChain < 0 || (byChain == 0 && a < b)))) {
                best = i;
            }
        }
        return ready.remove(best);
    }
}
