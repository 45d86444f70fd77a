package dev.flowform.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dependency graph of a plan's steps, read from {@link Step#dependsOn()}. Pure: no I/O.
 *
 * <p>The planner links the steps of one Connect cluster into a chain, each depending on the one before (on Kafka
 * 3.6 or newer with one lane per connector after the roll they need, see {@link #forks}), and leaves the chains of
 * different clusters independent (Terraform's graph walk runs independent resources in
 * parallel the same way). The applier runs each chain on its own worker; resuming an interrupted run puts the
 * waits it carries over at the head of the chain they belong to.
 */
public final class StepGraph {

    private StepGraph() {
    }

    /**
     * Splits the steps into chains: sets of steps linked by {@code dependsOn}, each in plan order, ordered by
     * their first step. A dependency on an id that is not among {@code steps} is ignored.
     *
     * @return positions (0-based indexes into {@code steps}) per chain
     */
    public static List<List<Integer>> chains(List<Step> steps) {
        int[] parent = new int[steps.size()];
        for (int i = 0; i < parent.length; i++) {
            parent[i] = i;
        }
        Map<Integer, Integer> positionById = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            positionById.put(steps.get(i).id(), i);
        }
        for (int i = 0; i < steps.size(); i++) {
            for (int dep : steps.get(i).dependsOn()) {
                Integer j = positionById.get(dep);
                if (j != null) {
                    parent[root(parent, i)] = root(parent, j);
                }
            }
        }
        Map<Integer, List<Integer>> byRoot = new LinkedHashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            byRoot.computeIfAbsent(root(parent, i), k -> new ArrayList<>()).add(i);
        }
        return new ArrayList<>(byRoot.values());
    }

    /**
     * One place where a plan forks into connector lanes that run concurrently: the steps of several KafkaConnectors
     * that all start after the same step ({@code dev.flowform.plan.cluster.StepSequencer} makes them on Kafka 3.6 or
     * newer): the id of the step every lane starts after, the ids of the lanes' first and last steps, how many lanes.
     */
    public record Fork(int after, int first, int last, int lanes) {
    }

    /**
     * Finds the forks into connector lanes: steps that two or more KafkaConnector steps depend on, each the head of a
     * lane (the steps that follow on the same object, each depending on the one before).
     *
     * @return the forks in plan order; empty for a plan whose connector steps run one at a time
     */
    public static List<Fork> forks(List<Step> steps) {
        Map<Integer, List<Step>> dependents = new LinkedHashMap<>();
        for (Step s : steps) {
            s.dependsOn().forEach(d -> dependents.computeIfAbsent(d, k -> new ArrayList<>()).add(s));
        }
        List<Fork> forks = new ArrayList<>();
        for (Step gate : steps) {
            List<Step> heads = dependents.getOrDefault(gate.id(), List.of()).stream()
                    .filter(s -> "KafkaConnector".equals(s.object().kind()) && s.dependsOn().equals(List.of(gate.id())))
                    .toList();
            if (heads.size() < 2) {
                continue;
            }
            int first = Integer.MAX_VALUE;
            int last = 0;
            for (Step s : heads) {
                first = Math.min(first, s.id());
                Step tail = s;
                for (Step next = laneNext(tail, dependents); next != null; next = laneNext(tail, dependents)) {
                    tail = next;
                }
                last = Math.max(last, tail.id());
            }
            forks.add(new Fork(gate.id(), first, last, heads.size()));
        }
        return forks;
    }

    /**
     * Connector steps that run one at a time: a run of two or more consecutive KafkaConnector steps, each depending
     * only on the one before, that touches at least two connectors (the sequencer chains them so on Kafka below 3.6 or
     * when the version is not known): the ids of its first and last step, and how many connectors it writes and waits
     * for.
     */
    public record SerialRun(int first, int last, int connectors) {
    }

    /** @return the runs of connector steps of several connectors that run one at a time, in plan order */
    public static List<SerialRun> serialConnectorRuns(List<Step> steps) {
        List<SerialRun> runs = new ArrayList<>();
        int i = 0;
        while (i < steps.size()) {
            int j = i;
            while (j + 1 < steps.size() && connector(steps.get(j)) && connector(steps.get(j + 1))
                    && steps.get(j + 1).dependsOn().equals(List.of(steps.get(j).id()))) {
                j++;
            }
            long connectors = steps.subList(i, j + 1).stream().filter(StepGraph::connector).map(Step::object)
                    .distinct().count();
            if (connectors >= 2) {
                runs.add(new SerialRun(steps.get(i).id(), steps.get(j).id(), (int) connectors));
            }
            i = j + 1;
        }
        return runs;
    }

    private static boolean connector(Step s) {
        return "KafkaConnector".equals(s.object().kind());
    }

    /** @return the step after {@code s} in its lane: the only dependent on the same object depending on it alone */
    private static Step laneNext(Step s, Map<Integer, List<Step>> dependents) {
        return dependents.getOrDefault(s.id(), List.of()).stream()
                .filter(d -> d.object().equals(s.object()) && d.dependsOn().equals(List.of(s.id())))
                .findFirst().orElse(null);
    }

    private static int root(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }
}
