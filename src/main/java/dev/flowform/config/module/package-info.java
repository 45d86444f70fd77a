/**
 * Module instances: the root configuration folder and every folder a {@code module} block instantiates.
 *
 * <p>{@link dev.flowform.config.module.ModuleTree} builds the instances (folders come through a
 * {@link dev.flowform.config.module.ModuleReader} port, so this package reads no files);
 * {@link dev.flowform.config.module.ModuleInstance} holds one instance's declarations and is the scope its
 * expressions are evaluated in; {@link dev.flowform.config.module.InputVariables} resolves the root module's
 * variable values from their sources in Terraform's precedence order. Pure; depends on {@code config.syntax}
 * and {@code config.lang}.
 */
package dev.flowform.config.module;
