package dev.flowform.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Test helper: the orders in which an applier may run a plan's steps, one at a time, as the step graph allows (every
 * topological order of {@link Step#dependsOn()}), so a plan whose connector lanes run concurrently is checked in every
 * order its lanes can interleave. Concurrent steps that overlap in time act on different objects, so their effects
 * commute and the sequential orders cover the overlaps too.
 */
final class Interleavings {

    private Interleavings() {
    }

    /**
     * @param steps a plan's steps
     * @param limit at most this many orders (the first in depth-first order, plan order first)
     * @return the orders; the first is the plan's own order
     */
    static List<List<Step>> of(List<Step> steps, int limit) {
        Map<Integer, Step> byId = new HashMap<>();
        steps.forEach(s -> byId.put(s.id(), s));
        List<List<Step>> out = new ArrayList<>();
        walk(steps, byId, new ArrayList<>(), new HashSet<>(), out, limit);
        return out;
    }

    private static void walk(List<Step> steps, Map<Integer, Step> byId, List<Step> prefix, Set<Integer> done,
                             List<List<Step>> out, int limit) {
        if (out.size() >= limit) {
            return;
        }
        if (prefix.size() == steps.size()) {
            out.add(List.copyOf(prefix));
            return;
        }
        for (Step s : steps) {
            if (done.contains(s.id()) || !s.dependsOn().stream().allMatch(d -> done.contains(d) || !byId.containsKey(d))) {
                continue;
            }
            prefix.add(s);
            done.add(s.id());
            walk(steps, byId, prefix, done, out, limit);
            done.remove(s.id());
            prefix.remove(prefix.size() - 1);
            if (out.size() >= limit) {
                return;
            }
        }
    }

    /**
     * @param steps a plan's steps
     * @return for each step id, the ids of every step it depends on directly or not
     */
    static Map<Integer, Set<Integer>> ancestors(List<Step> steps) {
        Map<Integer, Set<Integer>> anc = new HashMap<>();
        for (Step s : steps) {
            Set<Integer> a = new HashSet<>();
            for (int d : s.dependsOn()) {
                a.add(d);
                a.addAll(anc.getOrDefault(d, Set.of()));
            }
            anc.put(s.id(), a);
        }
        return anc;
    }

    /**
     * @return true when one of the two steps must finish before the other starts
     */
    static boolean ordered(Map<Integer, Set<Integer>> ancestors, Step a, Step b) {
        return ancestors.get(a.id()).contains(b.id()) || ancestors.get(b.id()).contains(a.id());
    }
}
