package dev.flowform.cli;

import dev.flowform.model.LiveState;
import dev.flowform.plan.Plan;
import dev.flowform.render.PlanRenderer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code flowform plan}: reads the live cluster, compares it with the configuration and prints the
 * ordered plan. Changes nothing in the cluster.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Show the changes and the ordered steps that would converge the cluster to the configuration.")
public final class PlanCommand implements Callable<Integer> {

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Option(names = {"--detailed-exitcode", "-detailed-exitcode"},
            description = "Exit 0 when there are no changes, 1 on error, 2 when there are changes.")
    boolean detailedExitCode;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        try (Session session = Session.open(common, parent.context(), term)) {
            LiveState live = session.readLive(term);
            Plan plan = session.plan(live);
            term.diagnostics(plan.diagnostics());
            if (!plan.isApplyable()) {
                return 1;
            }
            term.print(PlanRenderer.render(plan, term.style()));
            if (plan.hasChanges()) {
                term.println("");
                term.println("Note: this plan was not saved; \"flowform apply\" plans again from the live cluster and "
                        + "asks before it acts.");
            }
            return detailedExitCode && plan.hasChanges() ? 2 : 0;
        } catch (CommandFailed e) {
            return e.exitCode();
        }
    }
}
