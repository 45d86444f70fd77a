/**
 * Planning one Connect cluster, split as the Strimzi operator splits a model from the operator that acts on it:
 * <ol>
 *   <li>{@link dev.flowform.plan.cluster.ClusterFacts}: what the cluster and its flows are, desired against live,
 *       computed once (the claims on existing objects, the spec and connector differences, the roll state, the
 *       path of exactly-once modes);</li>
 *   <li>guards, asked in a fixed order ({@link dev.flowform.plan.cluster.OwnershipGuard} first, then
 *       {@link dev.flowform.plan.cluster.ClusterGuards}): each returns diagnostics of its
 *       {@link dev.flowform.plan.Rule}s, or nothing, and the first refusal ends the list;</li>
 *   <li>{@link dev.flowform.plan.cluster.StepSequencer}: emits the chain of steps and the object changes from the
 *       facts, deciding no refusal of its own; {@link dev.flowform.plan.cluster.OwnershipMarks} then writes the
 *       ownership marks into it.</li>
 * </ol>
 * {@link dev.flowform.plan.cluster.ClusterPlanner} composes the three. Pure: no I/O.
 */
package dev.flowform.plan.cluster;
