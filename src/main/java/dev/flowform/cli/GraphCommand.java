package dev.flowform.cli;

import dev.flowform.cli.view.TerminalView;
import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.render.PlanGraph;
import dev.flowform.run.Environment;
import dev.flowform.run.OperationFailed;
import dev.flowform.run.PlanOperation;
import dev.flowform.run.SavedPlan;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code flowform graph [FILE] [--format dot|mermaid]} (Terraform's {@code graph}, for the plan's steps): the steps
 * and their order ({@link PlanGraph}) of a plan made as {@code plan} makes it, or of a saved one (nothing decrypted, no
 * cluster contacted). Stdout holds the graph alone; exit 1 when the plan is refused (the graph is still printed) or
 * cannot be made.
 */
@Command(name = "graph", mixinStandardHelpOptions = true,
        description = "Draw the plan's steps and their order as Graphviz DOT or Mermaid.")
public final class GraphCommand extends FlowformSubcommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE",
            description = "A plan saved with \"flowform plan --out\"; without it, plan now.")
    Path planFile;

    @Option(names = {"--format", "-format"}, paramLabel = "FORMAT", defaultValue = "dot",
            description = "dot (default: Graphviz, e.g. | dot -Tsvg) or mermaid (a ```mermaid block on GitHub or GitLab).")
    PlanGraph.Notation format;

    @Mixin
    PlanningOptions planning;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        if (planFile != null) {
            Plan plan = saved(term);
            return plan == null ? 1 : draw(plan, term);
        }
        CliContext ctx = parent.context();
        try (Environment env = CommandEnvironment.open(common, ctx, term, new TerminalView(term), null)) {
            return draw(new PlanOperation(env, ctx.clock()).plan(planning.toOptions()), term);
        } catch (CommandFailed e) {
            return e.exitCode();
        } catch (OperationFailed e) {
            return 1;
        }
    }

    /** Prints the plan's refusals to stderr and its graph, drawn from its masked document, to stdout. */
    private int draw(Plan plan, Terminal term) {
        term.diagnostics(plan.diagnostics().stream().filter(Diagnostic::isError).toList());
        Plan shown = PlanCodec.decode(PlanCodec.toJson(plan, Version.get(), PlanCodec.MASK));
        term.print(PlanGraph.render(shown, format));
        return plan.isApplyable() ? 0 : 1;
    }

    /** @return the saved plan, or null after printing why it cannot be read */
    private Plan saved(Terminal term) {
        if (!planning.given().isEmpty()) {
            term.error("Can't set planning options when drawing a saved plan",
                    "The plan file " + planFile + " was already made, so " + String.join(", ", planning.given())
                            + " cannot change it. Draw the plan without FILE to plan with these options.");
            return null;
        }
        String text = SavedPlan.read(planFile, term::diagnostics);
        return text == null ? null : SavedPlan.decode(planFile, text, UnaryOperator.identity(), term::diagnostics);
    }

}
