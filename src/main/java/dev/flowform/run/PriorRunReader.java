package dev.flowform.run;

import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.Step;
import dev.flowform.plan.resume.Resume;
import dev.flowform.state.LockInfo;
import dev.flowform.state.RunOutcome;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one place that reads the prior run: the newest apply run of the state journal when it did not finish,
 * as {@link Resume} takes it; and, once resuming is decided, records what it found: open changes confirmed
 * from the live cluster are journaled as done, and a run whose process died is marked interrupted.
 */
final class PriorRunReader {

    /** How many recent runs to look through for the last apply. */
    private static final int RECENT_RUNS = 50;

    /**
     * A prior run with the journal row of each of its steps.
     *
     * @param run    what {@link Resume} needs, the run named by its number in the history
     * @param runRow the run's row id in the journal
     * @param rowIds step id to its newest journal row id
     */
    record Prior(Resume.PriorRun run, long runRow, Map<Integer, Long> rowIds) {
    }

    private final StateStore state;

    /** @param state the environment's state */
    PriorRunReader(StateStore state) {
        this.state = state;
    }

    /**
     * @return the newest apply run when it did not finish (still running, or interrupted) and its plan
     *         can be read; empty when the newest apply finished (succeeded or failed) or there is none
     */
    Optional<Prior> unfinished() {
        RunRecord last = state.journal().runs(RECENT_RUNS).stream().filter(r -> "apply".equals(r.kind())).findFirst().orElse(null);
        if (last == null || (last.outcome() != RunOutcome.RUNNING && last.outcome() != RunOutcome.INTERRUPTED)) {
            return Optional.empty();
        }
        Optional<String> json = state.journal().planJson(last.id());
        if (json.isEmpty()) {
            return Optional.empty();
        }
        Plan plan;
        try {
            plan = PlanCodec.decode(json.get());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        Map<Integer, Resume.StepState> states = new HashMap<>();
        Map<Integer, Long> rows = new HashMap<>();
        for (StepRecord r : state.journal().steps(last.id())) {
            states.put(r.stepId(), stepState(r));
            rows.put(r.stepId(), r.id());
        }
        return Optional.of(new Prior(new Resume.PriorRun(last.number(), last.outcome() == RunOutcome.RUNNING, last.who(),
                last.startedAt(), plan, states), last.id(), rows));
    }

    private static Resume.StepState stepState(StepRecord r) {
        return switch (r.status()) {
            case STARTED -> Resume.StepState.STARTED;
            case DONE -> Resume.StepState.DONE;
            case FAILED -> Resume.StepState.FAILED;
            case STOPPED -> Resume.StepState.STOPPED;
        };
    }

    /**
     * Records what resuming found; call while holding the lock (then no other process runs that run).
     *
     * @param analysis what {@link Resume#analyze} found against the live cluster
     */
    void settle(Prior prior, Resume.Analysis analysis) {
        for (Step s : analysis.confirmed()) {
            Long row = prior.rowIds().get(s.id());
            if (row != null) {
                state.journal().done(row, "confirmed by the next run from the live cluster: the change had reached it "
                        + "before run " + prior.run().runId() + " was interrupted");
            }
        }
        if (prior.run().crashed()) {
            state.journal().markInterrupted(prior.runRow());
        }
    }

    /**
     * For a read-only command (plan): is the unfinished run still running in another process?
     *
     * @return a warning that an apply is in progress (then the run must not be resumed), or empty when
     *         the run is over: not marked running, or its lock is free, stale or left by a dead process
     */
    Optional<Diagnostic> inProgress(Prior prior, Clock clock) {
        if (!prior.run().crashed()) {
            return Optional.empty();
        }
        Optional<LockInfo> lock = state.lockTable().current();
        if (lock.isEmpty() || lock.get().isHolderGone() || lock.get().isProbablyStale(clock)) {
            return Optional.empty();
        }
        LockInfo h = lock.get();
        List<Step> steps = prior.run().plan().steps();
        String at = steps.stream().filter(s -> prior.run().state(s.id()) == Resume.StepState.STARTED)
                .map(s -> "step " + s.id() + " of " + steps.size() + ": " + s.kind() + " " + s.address())
                .reduce((a, b) -> a + "; " + b).orElse("between steps");
        return Optional.of(Diagnostic.warning("An apply is in progress",
                "Run " + prior.run().runId() + " (" + h.operation() + " by " + h.who() + ", lock ID " + h.id() + ", since "
                        + h.created() + ") is at " + at + ". This plan reads the cluster in the middle of that change; "
                        + "plan again once it has finished."));
    }
}
