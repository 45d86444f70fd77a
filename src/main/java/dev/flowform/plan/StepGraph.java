package dev.flowform.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dependency graph of a plan's steps, read from {@link Step#dependsOn()}. Pure: no I/O.
 *
 * <p>The planner links the steps of one Connect cluster into a chain, each depending on the one before, and
 * leaves the chains of different clusters independent (Terraform's graph walk runs independent resources in
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
     * @param steps the plan's steps
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

    private static int root(int[] parent, int i) {
        while (parent[i] != i) {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    }
}
