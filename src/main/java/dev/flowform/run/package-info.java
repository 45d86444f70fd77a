/**
 * The run layer (Terraform's {@code internal/backend/local}): one command's operation from configuration to state, in
 * {@link dev.flowform.run.Workspace}, {@link dev.flowform.run.Environment} and the operations, which report through
 * hooks and print nothing; no {@code cli}, no picocli (docs/architecture.md).
 */
package dev.flowform.run;
