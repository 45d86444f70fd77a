/**
 * The run layer (what Terraform keeps in {@code internal/backend/local}): one command's operation from
 * configuration to state. {@link dev.flowform.run.Workspace} loads the configuration, {@link dev.flowform.run.Environment}
 * opens the state (through the command's {@link dev.flowform.run.StateOpener}, which takes the lock) and the
 * {@link dev.flowform.run.ClusterConnection}; {@link dev.flowform.run.PlanOperation} and
 * {@link dev.flowform.run.ApplyOperation} do the work and report through {@link dev.flowform.run.RunHooks} and
 * {@link dev.flowform.run.ApplyHooks}, returning how they ended. {@link dev.flowform.run.Secrets} is the one
 * redactor the view and the journal share.
 *
 * <p>Layering: this package uses the core and the edges ({@code live}, {@code apply}, {@code state}, {@code sim});
 * it prints nothing and depends neither on {@code cli} nor on picocli.
 */
package dev.flowform.run;
