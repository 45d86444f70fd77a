/**
 * The command line: picocli commands that parse flags, call one {@link dev.flowform.run} operation and hand its events
 * to a {@link dev.flowform.cli.view} view. Exit codes follow Terraform (0, 1, and 2 for changes with
 * {@code --detailed-exitcode}; usage errors exit 1); no stack trace unless {@code FLOWFORM_DEBUG=1}.
 */
package dev.flowform.cli;
