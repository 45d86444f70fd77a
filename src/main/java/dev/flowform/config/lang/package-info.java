/**
 * The expression language of configuration files: what a written value means once references are resolved.
 *
 * <p>Every string is a {@link dev.flowform.config.lang.Template} (HCL JSON "full expression mode" reduced to
 * references: {@code ${var.x}}, {@code ${local.x}}, {@code ${module.m.out}}, {@code ${environment.name}});
 * {@link dev.flowform.config.lang.Evaluator} computes a {@link dev.flowform.config.lang.Value} (typed, located,
 * carrying Terraform's sensitive mark) through a scope; {@link dev.flowform.config.lang.Evaluation} computes
 * named values once and reports reference cycles; {@link dev.flowform.config.lang.VarType} is a type constraint
 * with Terraform's conversion rules; {@link dev.flowform.config.lang.Arguments} gives typed access to a block's
 * arguments; {@link dev.flowform.config.lang.ValidationExpression} is the predicate language of variable
 * {@code validation} conditions. Pure; depends on {@code config.syntax} only.
 */
package dev.flowform.config.lang;
