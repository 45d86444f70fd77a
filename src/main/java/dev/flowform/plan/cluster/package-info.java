/**
 * Planning one Connect-family resource, split as Strimzi splits a model from the operator acting on it:
 * {@link dev.flowform.plan.cluster.ClusterFacts} (computed once), the guards ({@link dev.flowform.plan.cluster.OwnershipGuard},
 * then {@link dev.flowform.plan.cluster.ClusterGuards}; the first refusal ends the list) and the
 * {@link dev.flowform.plan.cluster.StepSequencer}, composed by {@link dev.flowform.plan.cluster.ClusterPlanner}
 * (docs/architecture.md, "The planner"). Pure.
 */
package dev.flowform.plan.cluster;
