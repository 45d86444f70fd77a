/**
 * Continuing an apply that did not finish: {@link dev.flowform.plan.resume.Resume} compares the interrupted
 * run's journal with the live cluster (which open changes landed, which waits were never seen to finish) and
 * builds the plan that continues it from a fresh plan. Pure: the caller reads the journal and the cluster and
 * records the confirmations.
 */
package dev.flowform.plan.resume;
