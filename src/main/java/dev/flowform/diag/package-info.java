/**
 * Diagnostics: the errors and warnings every stage reports instead of throwing.
 *
 * <p>Shape borrowed from Terraform's {@code tfdiags}: a {@link dev.flowform.diag.Diagnostic} has a
 * severity, a one-line summary, a detail paragraph, and, when it comes from a file, a
 * {@link dev.flowform.diag.SourceRange} (file, line, column). Stages return values together with
 * {@link dev.flowform.diag.Diagnostics}; only the CLI decides how to print them and which exit code
 * follows. {@link dev.flowform.diag.Suggestions} gives the "Did you mean ...?" hint of a misspelt name. Pure
 * package: no I/O.
 */
package dev.flowform.diag;
