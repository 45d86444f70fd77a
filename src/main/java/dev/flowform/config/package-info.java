/**
 * Configuration: loading {@code *.flow.json} files, written in Terraform's JSON configuration
 * syntax, into a {@link dev.flowform.config.Configuration} for one environment; checking them
 * offline ({@link dev.flowform.config.ConfigLoader#validate}); and laying them out canonically
 * ({@link dev.flowform.config.syntax.Formatter}). The language itself (syntax, blocks and arguments, expressions,
 * variables, modules, diagnostics) is described for users in {@code docs/configuration.md}.
 *
 * <p>Entry point: {@link dev.flowform.config.ConfigLoader}. It is the only class that reads files
 * (the configuration folder, {@code --var-file} files and module folders, the latter through a
 * {@code ModuleReader}); everything else here is pure (an architecture test checks it). Nothing
 * throws for bad input: every problem is a {@link dev.flowform.diag.Diagnostic}, located where it has a place in a
 * file. The order of work for one environment is {@code ConfigDecoder}'s; the checks that need
 * no cluster are listed on {@code ResourceDecoder} and {@code MirrorMakerDecoder}. Values of {@code sensitive}
 * variables, and of sensitive outputs, are collected in
 * {@link dev.flowform.config.Configuration#sensitiveValues()}, and the configuration keys they flow into are listed
 * in the blocks' {@code sensitiveKeys}.
 */
package dev.flowform.config;
