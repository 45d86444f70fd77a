/**
 * The syntax of configuration files, Terraform's JSON configuration syntax (hashicorp/hcl {@code json/spec.md}):
 * located parsing ({@link dev.flowform.config.syntax.JsonSourceParser}), blocks ({@link dev.flowform.config.syntax.Blocks}),
 * label rules, the canonical layout ({@link dev.flowform.config.syntax.Formatter}); problems go to a
 * {@link dev.flowform.config.syntax.Sink}. Pure; depends on no other part of {@code config}.
 */
package dev.flowform.config.syntax;
