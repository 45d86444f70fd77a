/**
 * The syntax of configuration files: Terraform's JSON configuration syntax (hashicorp/hcl {@code json/spec.md}).
 *
 * <p>{@link dev.flowform.config.syntax.JsonSourceParser} reads bytes into a located
 * {@link dev.flowform.config.syntax.ConfigNode} tree (every value and property name keeps its
 * {@code file:line:column}, through {@link dev.flowform.config.syntax.SourceText});
 * {@link dev.flowform.config.syntax.Blocks} turns properties into blocks with labels and bodies and checks a body
 * against a schema; {@link dev.flowform.config.syntax.Names} holds the naming rules of block labels;
 * {@link dev.flowform.config.syntax.Formatter} writes the canonical layout that {@code flowform fmt} uses.
 * Problems go to a {@link dev.flowform.config.syntax.Sink} as diagnostics; nothing here throws for bad input.
 * Pure: depends on no other part of {@code config}.
 */
package dev.flowform.config.syntax;
