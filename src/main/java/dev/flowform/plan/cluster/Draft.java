package dev.flowform.plan.cluster;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;

/**
 * A step of a cluster's chain before the planner numbers it and links it to the one before.
 *
 * @param kind    what kind of work
 * @param address the resource it belongs to (used by {@code --target})
 * @param object  the Kubernetes object
 * @param payload the data to execute it
 * @param summary one human line
 */
public record Draft(StepKind kind, String address, ObjectRef object, StepPayload payload, String summary) {
}
