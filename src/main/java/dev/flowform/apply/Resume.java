package dev.flowform.apply;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.Ownership;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Continues an apply that did not finish (the process was killed, lost its connection, or was stopped
 * with Ctrl-C), from the live cluster rather than from memory (Pulumi's
 * "pending operations").
 *
 * <p>The next plan is always re-derived from the live cluster by the planner, so a change that reached
 * the cluster is never made twice and one that did not is planned again. What the journal adds:
 * <ul>
 *   <li><b>Open steps.</b> A mutation whose intent was journaled but whose outcome was not is checked
 *       against the live object: when every field it sets is there (or the object it creates exists, or
 *       the one it deletes is gone), the change is confirmed and recorded as done.</li>
 *   <li><b>Unconfirmed waits.</b> A wait whose change went through but which was never seen to finish
 *       (the roll or the connector restart may still be running, or may have failed) is carried into
 *       the new plan at the head of its Connect cluster's chain, waiting for the object's current
 *       generation, unless the new plan already waits on that object. Without it, a connector whose
 *       update landed just before the crash would never be checked for {@code RUNNING}.</li>
 * </ul>
 * Pure: the caller reads the journal and the cluster and writes the confirmations.
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
        /** Journaled as failed because the run was stopped while the step waited ({@link Applier#STOPPED}). */
        STOPPED
    }

    /**
     * A previous apply run that did not finish, as its journal recorded it.
     *
     * @param runId     its id
     * @param crashed   true when it is still recorded as running (its process died), false when it
     *                  ended as interrupted (stopped gracefully, or already found and marked)
     * @param who       {@code user@host} that ran it
     * @param startedAt when it started
     * @param plan      the plan it executed (secret values replaced by the state's hashes)
     * @param states    step id to where that step got to; ids without an entry never started
     */
    public record PriorRun(long runId, boolean crashed, String who, Instant startedAt, Plan plan,
                           Map<Integer, StepState> states) {

        /**
         * Copies the states.
         *
         * @param runId     its id
         * @param crashed   true when its process died while it ran
         * @param who       {@code user@host} that ran it
         * @param startedAt when it started
         * @param plan      the plan it executed
         * @param states    step id to where that step got to
         */
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
     * @param run       the prior run
     * @param open      steps that were running when it stopped (journaled STARTED, or STOPPED)
     * @param confirmed open mutations whose change the live cluster shows: record them as done
     * @param carried   waits to run first in the new plan (ids and dependencies are assigned by
     *                  {@link #continuePlan}); their payload names the object's current generation
     * @param notice    the warning that tells the user what happened ("Apply interrupted during step 3
     *                  of 5: WAIT_FOR_ROLL connect_cluster.west")
     */
    public record Analysis(PriorRun run, List<Step> open, List<Step> confirmed, List<Step> carried, Diagnostic notice) {

        /**
         * Copies the lists.
         *
         * @param run       the prior run
         * @param open      steps that were running when it stopped
         * @param confirmed open mutations the live cluster shows
         * @param carried   waits to run first
         * @param notice    the warning for the user
         */
        public Analysis {
            open = List.copyOf(open);
            confirmed = List.copyOf(confirmed);
            carried = List.copyOf(carried);
        }
    }

    /**
     * Compares what the prior run recorded with the live cluster.
     *
     * @param prior the run that did not finish
     * @param live  the cluster now
     * @param hash  the state's secret hasher, to compare sensitive values the journal holds only as hashes
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
            Step before = w.dependsOn().isEmpty() ? null : byId.get(w.dependsOn().get(0));
            boolean reached;
            if (before == null) {
                reached = prior.state(w.id()) != StepState.NOT_STARTED;
            } else {
                reached = prior.state(before.id()) == StepState.DONE || confirmed.contains(before);
            }
            if (reached) {
                carriedWait(w, live, prior.runId()).ifPresent(carried::add);
            }
        }
        return new Analysis(prior, open, confirmed, carried, notice(prior, open, confirmed, carried));
    }

    /**
     * Builds the plan that continues the prior run: the carried waits first, each at the head of the
     * chain of its Connect cluster in {@code fresh} (so that chain starts only once the wait is over),
     * then the fresh plan's steps, renumbered. A carried wait is dropped when the first step {@code fresh}
     * has for the same object is already that kind of wait (the planner waits for a roll in progress
     * itself). The notice is added to the diagnostics.
     *
     * @param fresh    the plan the planner made from the live cluster
     * @param analysis what {@link #analyze} found
     * @param live     the cluster (to find which Connect cluster a connector runs on)
     * @return the plan to apply
     */
    public static Plan continuePlan(Plan fresh, Analysis analysis, LiveState live) {
        List<Step> carried = new ArrayList<>();
        for (Step c : analysis.carried()) {
            // covered when the fresh plan's first step on that object already is the same kind of wait
            boolean covered = fresh.steps().stream().filter(s -> s.object().equals(c.object())).findFirst()
                    .map(s -> s.kind() == c.kind()).orElse(false);
            boolean targeted = fresh.targets().isEmpty() || fresh.targets().contains(c.address());
            if (!covered && targeted && !fresh.isRefreshOnly()) {
                carried.add(c);
            }
        }
        List<Diagnostic> diagnostics = new ArrayList<>();
        diagnostics.add(analysis.notice());
        diagnostics.addAll(fresh.diagnostics());
        if (carried.isEmpty()) {
            return withDiagnostics(fresh, diagnostics);
        }
        List<Step> out = new ArrayList<>();
        Map<String, Integer> lastCarriedByCluster = new LinkedHashMap<>();
        for (Step c : carried) {
            int id = out.size() + 1;
            String key = clusterKey(c.object(), live);
            Integer previous = lastCarriedByCluster.get(key);
            out.add(new Step(id, c.kind(), c.address(), c.object(), previous == null ? List.of() : List.of(previous),
                    c.payload(), c.summary()));
            lastCarriedByCluster.put(key, id);
        }
        int shift = out.size();
        Map<Integer, String> chainKeyOfHead = new HashMap<>();
        for (List<Integer> chain : Applier.chains(fresh.steps())) {
            Step head = fresh.steps().get(chain.get(0));
            String key = null;
            for (int position : chain) {
                Step s = fresh.steps().get(position);
                if ("KafkaConnect".equals(s.object().kind())) {
                    key = clusterKey(s.object(), live);
                    break;
                }
            }
            chainKeyOfHead.put(head.id(), key != null ? key : clusterKey(head.object(), live));
        }
        for (Step s : fresh.steps()) {
            List<Integer> deps = new ArrayList<>();
            s.dependsOn().forEach(d -> deps.add(d + shift));
            if (s.dependsOn().isEmpty()) {
                Integer gate = lastCarriedByCluster.get(chainKeyOfHead.get(s.id()));
                if (gate != null) {
                    deps.add(gate);
                }
            }
            out.add(new Step(s.id() + shift, s.kind(), s.address(), s.object(), deps, s.payload(), s.summary()));
        }
        return withDiagnostics(fresh.withSteps(out), diagnostics);
    }

    /**
     * @param plan        a plan
     * @param diagnostics the diagnostics it should carry instead of its own
     * @return a copy of {@code plan} (every other field kept) with {@code diagnostics}
     */
    public static Plan withDiagnostics(Plan plan, List<Diagnostic> diagnostics) {
        return new Plan(plan.formatVersion(), plan.environment(), plan.createdAt(), plan.basedOn(), plan.liveFingerprints(),
                plan.changes(), plan.steps(), diagnostics, plan.mode(), plan.targets(), plan.drift(), plan.transactionalIds(),
                plan.inputs());
    }

    /** @return {@code namespace/connect-cluster} the object belongs to */
    private static String clusterKey(ObjectRef ref, LiveState live) {
        if ("KafkaConnector".equals(ref.kind())) {
            String cluster = live.connector(ref.namespace(), ref.name()).map(LiveConnector::connectCluster).orElse(null);
            return ref.namespace() + "/" + (cluster == null ? "connector " + ref.name() : cluster);
        }
        return ref.namespace() + "/" + ref.name();
    }

    /** @return the wait to carry over, waiting for the object's current generation; empty when the object is gone */
    private static Optional<Step> carriedWait(Step w, LiveState live, long runId) {
        ObjectRef ref = w.object();
        if (w.payload() instanceof StepPayload.WaitForRoll) {
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

    /**
     * @return true when the live cluster shows the mutation's effect: the created object exists, the
     *         deleted one is gone, every edited field has the step's value (sensitive values compared
     *         through {@code hash}, as the journal only holds their hashes)
     */
    static boolean inCluster(Step s, LiveState live, UnaryOperator<String> hash) {
        Map<String, Object> raw = raw(s.object(), live);
        StepPayload p = s.payload();
        if (p instanceof StepPayload.CreateObject) {
            return raw != null;
        }
        if (p instanceof StepPayload.DeleteObject) {
            return raw == null;
        }
        List<FieldEdit> edits = p instanceof StepPayload.PatchObject po ? po.edits()
                : p instanceof StepPayload.SetWorkerEos se ? se.edits() : null;
        if (edits == null || raw == null) {
            return false;
        }
        // One update carries all of a step's edits, so the ownership marks that ride along with a spec change say
        // nothing more about whether it landed (and may have been rewritten since by a transfer): judge such a step
        // by its other edits, and a step that only writes marks by the marks.
        List<FieldEdit> own = edits.stream().filter(e -> !Ownership.isMark(e.path())).toList();
        for (FieldEdit e : own.isEmpty() ? edits : own) {
            Object v = at(raw, e.path());
            if (e.remove()) {
                if (v != null) {
                    return false;
                }
            } else if (v == null) {
                return false;
            } else if (e.sensitive()) {
                if (!hash.apply(String.valueOf(v)).equals(String.valueOf(e.value()))) {
                    return false;
                }
            } else if (!Json.sameValue(v, e.value())) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Object> raw(ObjectRef ref, LiveState live) {
        return switch (ref.kind()) {
            case "KafkaConnect" -> live.cluster(ref.namespace(), ref.name()).map(LiveConnectCluster::raw).orElse(null);
            case "KafkaConnector" -> live.connector(ref.namespace(), ref.name()).map(LiveConnector::raw).orElse(null);
            default -> null;
        };
    }

    private static Object at(Map<String, Object> root, List<String> path) {
        Object cur = root;
        for (String k : path) {
            if (!(cur instanceof Map<?, ?> m)) {
                return null;
            }
            cur = m.get(k);
        }
        return cur;
    }

    private static Diagnostic notice(PriorRun prior, List<Step> open, List<Step> confirmed, List<Step> carried) {
        int total = prior.plan().steps().size();
        String summary;
        if (open.size() == 1) {
            Step s = open.get(0);
            summary = "Apply interrupted during step " + s.id() + " of " + total + ": " + s.kind() + " " + s.address();
        } else if (open.size() > 1) {
            List<String> parts = new ArrayList<>();
            open.forEach(s -> parts.add(s.id() + " (" + s.kind() + " " + s.address() + ")"));
            summary = "Apply interrupted during steps " + String.join(", ", parts) + " of " + total;
        } else {
            Step last = null;
            for (Step s : prior.plan().steps()) {
                if (prior.state(s.id()) == StepState.DONE) {
                    last = s;
                }
            }
            summary = last == null ? "Apply interrupted before its first step"
                    : "Apply interrupted after step " + last.id() + " of " + total + ": " + last.kind() + " " + last.address();
        }
        StringBuilder detail = new StringBuilder();
        detail.append("Run ").append(prior.runId()).append(" (apply by ").append(prior.who()).append(", started ")
                .append(prior.startedAt()).append(") ")
                .append(open.stream().anyMatch(s -> prior.state(s.id()) == StepState.STARTED)
                        ? "did not finish: its process was killed or lost its connection."
                        : "was stopped before it finished.")
                .append(" flowform re-read the live cluster and continues with only what is still needed.");
        for (Step s : open) {
            if (!s.kind().isMutation()) {
                continue;
            }
            detail.append(confirmed.contains(s)
                    ? " Step " + s.id() + " (" + s.kind() + " " + s.address() + ") had reached the cluster; it is recorded as done."
                    : " Step " + s.id() + " (" + s.kind() + " " + s.address() + ") had not reached the cluster; it is planned again.");
        }
        if (!carried.isEmpty()) {
            List<String> what = new ArrayList<>();
            carried.forEach(c -> what.add(c.kind() + " " + c.address()));
            detail.append(" Waits it had not seen finish are checked first: ").append(String.join(", ", what)).append('.');
        }
        return Diagnostic.warning(summary, detail.toString());
    }
}
