/**
 * The pure decision functions behind the domain rules (docs/domain-rules.md), shared by the planner, the
 * configuration checks and the applier's waits: {@link dev.flowform.plan.rules.RollCheck} (rule 7: has Strimzi
 * finished a roll?), {@link dev.flowform.plan.rules.ConnectorCheck} (rule 8: has a connector change
 * settled?) and {@link dev.flowform.plan.rules.ConnectorRules} (the exactly-once rules of a connector's
 * configuration, returned as {@link dev.flowform.plan.rules.Finding}s the caller places). Every rule they apply is a
 * {@link dev.flowform.plan.Rule} with its source.
 *
 * <p>Depends only on {@code diag}, {@code model} and {@code plan}'s vocabulary ({@code Rule},
 * {@code Readiness}); {@code config} asks it, and nothing in {@code plan} depends on {@code config}. Pure: no I/O.
 */
package dev.flowform.plan.rules;
