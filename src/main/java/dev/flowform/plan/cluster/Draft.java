package dev.flowform.plan.cluster;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;

/**
 * A step of a cluster's plan before the planner numbers it: on the spine without a lane (after the spine step before
 * it, or every lane opened since), in a lane after that lane's previous step; lanes are independent.
 *
 * Components as in {@link dev.flowform.plan.Step}; {@code lane} is the lane it runs in (a connector's address), or
 * null for the spine.
 */
public record Draft(StepKind kind, String address, ObjectRef object, StepPayload payload, String summary, String lane) {

    /** A draft on the spine; the components are the record's. */
    public Draft(StepKind kind, String address, ObjectRef object, StepPayload payload, String summary) {
        this(kind, address, object, payload, summary, null);
    }

    /**
     * @param newPayload the payload instead of this one
     * @return this draft, in the same lane, with {@code newPayload}
     */
    public Draft withPayload(StepPayload newPayload) {
        return new Draft(kind, address, object, newPayload, summary, lane);
    }
}
