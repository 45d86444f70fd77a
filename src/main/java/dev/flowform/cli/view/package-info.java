/**
 * The views: the only code that prints what an operation reports. {@link dev.flowform.cli.view.TerminalView}
 * shows diagnostics and notes for people; {@link dev.flowform.cli.view.HumanApplyView} and
 * {@link dev.flowform.cli.view.JsonApplyView} show an apply as text (with {@link dev.flowform.cli.view.HumanProgress}
 * or the live status block of {@link dev.flowform.cli.view.LiveProgress}) or as Terraform's machine-readable lines.
 */
package dev.flowform.cli.view;
