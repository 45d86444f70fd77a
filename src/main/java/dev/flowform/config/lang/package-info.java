/**
 * The expression language of configuration files: {@link dev.flowform.config.lang.Template},
 * {@link dev.flowform.config.lang.Evaluator}, {@link dev.flowform.config.lang.Value} (typed, located, sensitive),
 * {@link dev.flowform.config.lang.VarType} and variable validations (docs/configuration.md). Pure; depends on
 * {@code config.syntax} only.
 */
package dev.flowform.config.lang;
