/**
 * The planner and the plan document: the pure core that turns desired and live state into an ordered,
 * exactly-once-safe plan, or refuses with a diagnostic naming the rule and its source ({@link
 * dev.flowform.plan.Rule}).
 *
 * <p><b>Planning.</b> {@link dev.flowform.plan.Planner} plans each Connect cluster with
 * {@link dev.flowform.plan.cluster.ClusterPlanner} (facts, guards, sequencer; rules in docs/domain-rules.md) and
 * numbers the chains; {@link dev.flowform.plan.rules.RollCheck} and {@link dev.flowform.plan.rules.ConnectorCheck}
 * decide when a roll or a connector change has settled, for the planner (is a roll in progress?) and for the
 * waits of an apply alike, and {@link dev.flowform.plan.rules.ConnectorRules} holds the connector exactly-once
 * rules that configuration validation asks too. {@link dev.flowform.plan.Drift} compares live objects with the
 * state's snapshots; {@link dev.flowform.plan.PlanOptions} carries the user's flags ({@code --target},
 * {@code --refresh-only} and the explicit acknowledgements); {@link dev.flowform.plan.resume.Resume} continues an
 * interrupted apply.
 *
 * <p><b>The document.</b> {@link dev.flowform.plan.PlanCodec} writes and reads the versioned JSON form of a
 * {@link dev.flowform.plan.Plan}: {@code plan --json} prints it, {@code plan --out} saves it (sensitive step
 * values encrypted by the state), {@code show} and the human rendering read it back, so the text never shows
 * more or less than the document holds.
 *
 * <p><b>Saved plans and staleness.</b> A saved plan records the state's lineage and serial and a content
 * fingerprint of every live object it read; {@link dev.flowform.plan.Staleness} refuses to apply it when any of them
 * moved, and says why fingerprints rather than {@code resourceVersion} (users: {@code docs/workflows.md}).
 *
 * <p>Pure: no I/O, no clock, no fabric8, JDBC or picocli (enforced by {@code ArchitectureTest}).
 */
package dev.flowform.plan;
