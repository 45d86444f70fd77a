package dev.flowform.plan.cluster;

import dev.flowform.plan.Rule;
import java.util.List;
import java.util.function.Function;

/**
 * One check of a cluster's plan against the facts: it reports diagnostics of its rules, and may refuse the
 * cluster. {@link ClusterGuards} lists them in the order they are asked; the first refusal ends the list. Its
 * {@code name} is short, for documentation and test messages.
 */
record Guard(String name, List<Rule> rules, Function<ClusterFacts, Verdict> check) {

    Guard {
        rules = List.copyOf(rules);
    }

    /** @return what the guard says about the cluster whose facts these are */
    Verdict check(ClusterFacts facts) {
        return check.apply(facts);
    }
}
