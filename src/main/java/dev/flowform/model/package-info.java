/**
 * The domain vocabulary shared by every stage: what the user wants ({@code Desired*}), what the
 * cluster has ({@code Live*}), and the EOS modes and ownership rules that connect them.
 *
 * <p>Records only, immutable, no I/O. Live objects are reduced to the fields the planner and the
 * waiters reason about (generation, observedGeneration, conditions, revisions), plus the raw object
 * body for snapshots and fingerprints.
 */
package dev.flowform.model;
