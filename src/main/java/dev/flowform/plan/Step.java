package dev.flowform.plan;

import dev.flowform.model.ObjectRef;
import java.util.List;

/**
 * One ordered action of a plan; a cluster's steps form a chain, except connector lanes from Kafka 3.6
 * ({@link StepGraph#forks}); different clusters' chains are independent.
 *
 * @param id        1-based position in the plan
 * @param address   the resource address it acts on, e.g. {@code connect_cluster.west}
 * @param object    the Kubernetes object it reads or writes
 * @param dependsOn ids of steps that must be done first
 * @param payload   the data to execute it
 * @param summary   one human line, e.g. {@code exactly.once.source.support = preparing}
 */
public record Step(int id, StepKind kind, String address, ObjectRef object, List<Integer> dependsOn,
                   StepPayload payload, String summary) {
    public Step {
        dependsOn = List.copyOf(dependsOn);
    }
}
