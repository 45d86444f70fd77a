/**
 * Module instances: {@link dev.flowform.config.module.ModuleTree} (folders through a
 * {@link dev.flowform.config.module.ModuleReader}), {@link dev.flowform.config.module.ModuleInstance} and
 * {@link dev.flowform.config.module.InputVariables}. Pure; depends on {@code config.syntax} and {@code config.lang}.
 */
package dev.flowform.config.module;
