package dev.flowform.plan.resume;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Continues an apply that did not finish from the live cluster (Pulumi's "pending operations"): the next plan is
 * re-derived by the planner, so nothing is made twice; the journal adds the open mutations the cluster confirms
 * (recorded as done) and the waits never seen to finish (carried to the head of their cluster's chain). Pure: the
 * caller reads the journal and the cluster and writes the confirmations (docs/operations.md).
 */
public final class Resume {

    private Resume() {
    }

    /** Where one step of the prior run got to. */
    public enum StepState {
        /** No journal row: the step never started. */
        NOT_STARTED,
        /** Intent journaled, outcome not (the process died while it ran). */
        STARTED,
        /** Journaled as done. */
        DONE,
        /** Journaled as failed. */
        FAILED,
        /** Journaled as failed because the run was stopped while the step waited (the applier's "stopped while waiting"). */
        STOPPED
    }

    /**
     * A previous apply run that did not finish, as its journal recorded it.
     *
     * @param runId   its number in the environment's history ("Run 3")
     * @param crashed true when it is still recorded as running (its process died), false when it ended as interrupted
     * @param who     {@code user@host} that ran it
     * @param plan    the plan it executed (secret values replaced by the state's hashes)
     * @param states  step id to where that step got to; ids without an entry never started
     */
    public record PriorRun(long runId, boolean crashed, String who, Instant startedAt, Plan plan,
                           Map<Integer, StepState> states) {

        public PriorRun {
            Objects.requireNonNull(plan, "plan");
            states = Map.copyOf(states);
        }

        /** @return where step {@code id} got to */
        public StepState state(int id) {
            return states.getOrDefault(id, StepState.NOT_STARTED);
        }
    }

    /**
     * What resuming a prior run means against the live cluster.
     *
     * @param open      steps that were running when it stopped (journaled STARTED, or STOPPED)
     * @param confirmed open mutations whose change the live cluster shows: record them as done
     * @param carried   waits to run first in the new plan (ids and dependencies are assigned by
     *                  {@link #continuePlan}); their payload names the object's current generation
     * @param notice    the warning that tells the user what happened ("Apply interrupted during step 3
     *                  of 5: WAIT_FOR_ROLL connect_cluster.west")
     */
    public record Analysis(PriorRun run, List<Step> open, List<Step> confirmed, List<Step> carried, Diagnostic notice) {

        public Analysis {
            open = List.copyOf(open);
            confirmed = List.copyOf(confirmed);
            carried = List.copyOf(carried);
        }
    }

    /**
     * Compares what the prior run recorded with the live cluster, sensitive values through {@code hash} (the journal
     * holds only their hashes).
     *
     * @return open steps, confirmations, waits to carry over and the notice
     */
    public static Analysis analyze(PriorRun prior, LiveState live, UnaryOperator<String> hash) {
        List<Step> steps = prior.plan().steps();
        Map<Integer, Step> byId = new HashMap<>();
        steps.forEach(s -> byId.put(s.id(), s));
        List<Step> open = new ArrayList<>();
        List<Step> confirmed = new ArrayList<>();
        for (Step s : steps) {
            StepState st = prior.state(s.id());
            if (st == StepState.STARTED || st == StepState.STOPPED) {
                open.add(s);
            }
            if (st == StepState.STARTED && s.kind().isMutation() && inCluster(s, live, hash)) {
                confirmed.add(s);
            }
        }
        List<Step> carried = new ArrayList<>();
        for (Step w : steps) {
            if (w.kind().isMutation() || prior.state(w.id()) == StepState.DONE) {
                continue;
            }
            List<Step> before = w.dependsOn().stream().map(byId::get).filter(Objects::nonNull).toList();
            boolean reached;
            if (before.isEmpty()) {
                reached = prior.state(w.id()) != StepState.NOT_STARTED;
            } else {
                // every step it waits after is done: with concurrent connector lanes, others may still have been running
                reached = before.stream().allMatch(b -> prior.state(b.id()) == StepState.DONE || confirmed.contains(b));
            }
            if (reached) {
                carriedWait(w, live, prior.runId()).ifPresent(carried::add);
            }
        }
        carried.addAll(CarriedForcedRoll.of(steps, byId, prior, confirmed, live, prior.runId()));
        return new Analysis(prior, open, confirmed, carried, ResumeNotice.of(prior, open, confirmed, carried));
    }

    /**
     * Builds the plan that continues the prior run: the carried waits at the head of their Connect cluster's chain in
     * {@code fresh} (dropped when that chain already starts with such a wait), then {@code fresh}'s steps, renumbered,
     * with the notice added; {@code live} tells which Connect cluster a connector runs on.
     */
    public static Plan continuePlan(Plan fresh, Analysis analysis, LiveState live) {
        return ContinuePlan.of(fresh, analysis, live);
    }

    /** @return the wait to carry over, waiting for the object's current generation; empty when the object is gone */
    private static Optional<Step> carriedWait(Step w, LiveState live, long runId) {
        ObjectRef ref = w.object();
        if (w.payload() instanceof StepPayload.WaitForRoll && "KafkaConnect".equals(ref.kind())
                && w.kind() == StepKind.WAIT_FOR_ROLL) {
            Optional<LiveConnectCluster> c = live.cluster(ref.namespace(), ref.name());
            if (c.isEmpty() || c.get().eosMode().isEmpty()) {
                return Optional.empty();
            }
            EosMode mode = c.get().eosMode().get();
            long g = c.get().generation();
            return Optional.of(new Step(0, StepKind.WAIT_FOR_ROLL, w.address(), ref, List.of(),
                    new StepPayload.WaitForRoll(mode, g), "confirm the roll of generation " + g + " that interrupted run "
                    + runId + " did not see finish (" + EosMode.CONFIG_KEY + "=" + mode.value() + ")"));
        }
        if (w.payload() instanceof StepPayload.WaitForConnector wc) {
            Optional<LiveConnector> c = live.connector(ref.namespace(), ref.name());
            if (c.isEmpty()) {
                return Optional.empty();
            }
            long g = c.get().generation();
            return Optional.of(new Step(0, StepKind.WAIT_FOR_CONNECTOR_READY, w.address(), ref, List.of(),
                    new StepPayload.WaitForConnector(wc.expectedState(), g), "confirm that " + ref.name()
                    + " and its tasks are " + wc.expectedState() + " at generation " + g + " (interrupted run " + runId
                    + " did not see it)"));
        }
        return Optional.empty();
    }

    /** @return true when the live cluster shows the mutation's effect (see {@link LiveEffect#shows}) */
    static boolean inCluster(Step s, LiveState live, UnaryOperator<String> hash) {
        return LiveEffect.shows(s, live, hash);
    }
}
