/**
 * The pure decision functions behind the domain rules (docs/domain-rules.md), shared by the planner, the configuration
 * checks and the applier's waits: {@link dev.flowform.plan.rules.RollCheck} (rule 7),
 * {@link dev.flowform.plan.rules.ConnectorCheck} (rule 8), {@link dev.flowform.plan.rules.ConnectorRules} (a
 * connector's exactly-once rules). {@code config} asks it; nothing in {@code plan} depends on {@code config}.
 */
package dev.flowform.plan.rules;
