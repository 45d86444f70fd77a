/**
 * The command line: picocli commands that parse flags, call one operation of the run layer
 * ({@link dev.flowform.run}) and hand its events to a view ({@link dev.flowform.cli.view}), which prints through a
 * {@link dev.flowform.cli.Terminal}.
 *
 * <p>Exit codes follow Terraform: 0 success, 1 error, and with {@code plan --detailed-exitcode} 2 when
 * the plan has changes. Usage errors also exit 1 (not picocli's default 2) so that 2 keeps meaning
 * "changes present". Nothing here prints a stack trace unless {@code FLOWFORM_DEBUG=1} is set.
 */
package dev.flowform.cli;
