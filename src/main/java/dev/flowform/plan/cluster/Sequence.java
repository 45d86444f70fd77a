package dev.flowform.plan.cluster;

import dev.flowform.plan.Change;
import java.util.List;

/** What the {@link StepSequencer} emits for one cluster: the steps in order, and the object changes they make. */
record Sequence(List<Draft> chain, List<Change> changes) {

    /** No step and no change: a refused cluster, or one with nothing to do. */
    static final Sequence EMPTY = new Sequence(List.of(), List.of());

    Sequence {
        chain = List.copyOf(chain);
        changes = List.copyOf(changes);
    }
}
