/**
 * The planner and the plan document, the pure core: {@link dev.flowform.plan.Planner} turns desired and live state
 * into an ordered, exactly-once-safe plan or refuses citing a {@link dev.flowform.plan.Rule};
 * {@link dev.flowform.plan.PlanCodec} is the document every output comes from; {@link dev.flowform.plan.Staleness}
 * guards saved plans (docs/architecture.md, "The planner"; docs/domain-rules.md). No I/O, no clock.
 */
package dev.flowform.plan;
