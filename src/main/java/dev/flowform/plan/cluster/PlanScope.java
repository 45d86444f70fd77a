package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveState;
import dev.flowform.plan.PlanOptions;

/**
 * What every cluster of one plan is planned against.
 *
 * @param live    the cluster as read once for this plan; its Strimzi API is known
 * @param lineage the lineage of the state planning, or null when there is none (then no marks are written)
 */
public record PlanScope(DesiredState desired, LiveState live, String environment, String lineage, PlanOptions options) {
}
