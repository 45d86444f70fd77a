package dev.flowform.plan.resume;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepGraph;
import dev.flowform.plan.StepPayload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plan that continues an interrupted run: the waits it carries over, each at the head of the chain of
 * its Connect cluster, then the fresh plan's steps renumbered (see {@link Resume#continuePlan}). Pure.
 */
final class ContinuePlan {

    private ContinuePlan() {
    }

    /** @return the continuation ({@link Resume#continuePlan}), the analysis' notice first among its diagnostics */
    static Plan of(Plan fresh, Resume.Analysis analysis, LiveState live) {
        List<Step> carried = new ArrayList<>();
        for (Step c : analysis.carried()) {
            // covered when the fresh plan's first step on that object already is the same kind of wait
            // a carried forced roll is covered only when the fresh plan's first step on that resource rolls its pods
            // already (a roll the operator was asked for, or the one before enabled); later ones follow later steps
            boolean covered = forced(c) ? fresh.steps().stream().filter(s -> s.address().equals(c.address())).findFirst()
                    .map(ContinuePlan::forced).orElse(false)
                    : fresh.steps().stream().filter(s -> s.object().equals(c.object())).findFirst()
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
            return fresh.withDiagnostics(diagnostics);
        }
        List<Step> out = new ArrayList<>();
        Map<String, Integer> lastCarriedByCluster = new LinkedHashMap<>();
        for (Step c : carried) {
            int id = out.size() + 1;
            String key = clusterKey(c, live);
            Integer previous = lastCarriedByCluster.get(key);
            out.add(new Step(id, c.kind(), c.address(), c.object(), previous == null ? List.of() : List.of(previous),
                    c.payload(), c.summary()));
            lastCarriedByCluster.put(key, id);
        }
        int shift = out.size();
        Map<Integer, String> chainKeyOfHead = new HashMap<>();
        for (List<Integer> chain : StepGraph.chains(fresh.steps())) {
            Step head = fresh.steps().get(chain.get(0));
            String key = null;
            for (int position : chain) {
                Step s = fresh.steps().get(position);
                if ("KafkaConnect".equals(s.object().kind())) {
                    key = clusterKey(s, live);
                    break;
                }
            }
            chainKeyOfHead.put(head.id(), key != null ? key : clusterKey(head, live));
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
        return fresh.withSteps(out).withDiagnostics(diagnostics);
    }

    private static boolean forced(Step s) {
        return s.kind() == StepKind.FORCE_ROLL || s.kind() == StepKind.WAIT_FOR_FORCED_ROLL;
    }

    /**
     * @return {@code namespace/connect-cluster} the step's object belongs to: a KafkaConnector's cluster from the live
     *         connector, else from the {@code strimzi.io/cluster} label of the manifest the step creates it with (the
     *         first step of a connector lane that a crash left uncreated)
     */
    private static String clusterKey(Step step, LiveState live) {
        ObjectRef ref = step.object();
        if ("KafkaConnector".equals(ref.kind())) {
            String cluster = live.connector(ref.namespace(), ref.name()).map(LiveConnector::connectCluster)
                    .orElseGet(() -> createdOn(step));
            return ref.namespace() + "/" + (cluster == null ? "connector " + ref.name() : cluster);
        }
        return ref.namespace() + "/" + CarriedForcedRoll.owner(ref);
    }

    /** @return the {@code strimzi.io/cluster} label of the object a create step makes, or null */
    private static String createdOn(Step step) {
        if (step.payload() instanceof StepPayload.CreateObject c && c.manifest().get("metadata") instanceof Map<?, ?> md
                && md.get("labels") instanceof Map<?, ?> labels && labels.get(Strimzi.CLUSTER_LABEL) != null) {
            return labels.get(Strimzi.CLUSTER_LABEL).toString();
        }
        return null;
    }
}
