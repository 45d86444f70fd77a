/**
 * Diagnostics, the errors and warnings every stage returns instead of throwing, shaped after Terraform's
 * {@code tfdiags}: severity, summary, detail and, for a file, a {@link dev.flowform.diag.SourceRange}; the CLI decides
 * how to print them. {@link dev.flowform.diag.Suggestions} gives "Did you mean ...?". Pure.
 */
package dev.flowform.diag;
