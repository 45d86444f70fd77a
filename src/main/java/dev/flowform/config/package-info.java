/**
 * Configuration: {@code *.flow.json} files in Terraform's JSON syntax loaded into a
 * {@link dev.flowform.config.Configuration} for one environment ({@link dev.flowform.config.ConfigLoader}, the only
 * class that reads files), checked offline and formatted. Bad input is a located diagnostic, never an exception. The
 * language is described in docs/configuration.md.
 */
package dev.flowform.config;
