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
 * fingerprint of every live object it read; {@link dev.flowform.plan.Staleness} refuses to apply it when any
 * of them moved ("Saved plan is stale"). The live objects are compared by fingerprint
 * ({@code LiveMapper.fingerprint}: SHA-256 over labels, annotations, generation, spec and status) rather than
 * by {@code metadata.resourceVersion}, for two reasons. The embedded cluster (demo environments and tests)
 * reloads its objects from disk on every command, and the API server then assigns every object a new
 * resourceVersion, so a resourceVersion check would call every saved plan stale. And a resourceVersion also
 * moves on writes that change nothing the plan depends on, while a fingerprint changes exactly when the
 * object's content does (including its status: a roll that finished or failed since the plan was made does
 * make it stale). The lineage is created when an environment's state is first opened, which every plan does,
 * so even the first plan of a new environment is bound to a lineage and serial 0; applying it moves the
 * serial, and a replay is refused (the hole of hashicorp/terraform#24078 does not exist here).
 *
 * <p>Pure: no I/O, no clock, no fabric8, JDBC or picocli (enforced by {@code ArchitectureTest}).
 */
package dev.flowform.plan;
