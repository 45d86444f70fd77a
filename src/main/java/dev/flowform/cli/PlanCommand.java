package dev.flowform.cli;

import dev.flowform.cli.view.TerminalView;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.render.PlanMarkdown;
import dev.flowform.render.PlanRenderer;
import dev.flowform.run.Environment;
import dev.flowform.run.OperationFailed;
import dev.flowform.run.PlanOperation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code flowform plan}: reads the live cluster, compares it with the configuration (and the state, for drift) and
 * prints the ordered plan, rendered from its JSON document so the text shows exactly what {@code --json} and
 * {@code --out} hold; {@code --out FILE} saves it with secrets encrypted for this environment, {@code --format
 * markdown} prints it for a pull request ({@link PlanMarkdown}). Changes nothing.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Show the changes and the ordered steps that would converge the cluster to the configuration.")
public final class PlanCommand extends FlowformSubcommand implements Callable<Integer> {

    @Mixin
    PlanningOptions planning;

    @Option(names = {"--detailed-exitcode", "-detailed-exitcode"},
            description = "Exit 0 when there are no changes, 1 on error, 2 when there are changes or drift.")
    boolean detailedExitCode;

    @Option(names = {"--out", "-out"}, paramLabel = "FILE",
            description = "Save the plan to FILE (secrets encrypted for this environment) for \"flowform apply FILE\".")
    Path out;

    @Option(names = {"--json", "-json"}, description = "Print the plan as its versioned JSON document instead of text.")
    boolean json;

    @Option(names = {"--format", "-format"}, paramLabel = "FORMAT",
            description = "text (default), json (as --json) or markdown (for a pull-request comment; a refused plan "
                    + "shows its refusals, and exits 1).")
    PlanFormat format;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        CliContext ctx = parent.context();
        PlanFormat selected;
        try {
            selected = PlanFormat.of(json, format);
        } catch (IllegalArgumentException e) {
            term.error("Conflicting output options", e.getMessage());
            return 1;
        }
        json = selected != PlanFormat.TEXT; // from here on: stdout holds the one document (JSON or Markdown) alone
        try (Environment env = CommandEnvironment.open(common, ctx, term, new TerminalView(term), null)) {
            Plan plan = new PlanOperation(env, ctx.clock(), planning.dryRun()).plan(planning.toOptions());
            if (out != null) {
                plan = plan.withInputs(env.workspace().inputs(common.vars));
            }
            String document = PlanCodec.toJson(plan, Version.get(), PlanCodec.MASK);
            switch (selected) {
                case JSON -> term.print(document);
                case MARKDOWN -> {
                    term.diagnostics(plan.diagnostics().stream().filter(dev.flowform.diag.Diagnostic::isError).toList());
                    term.print(PlanMarkdown.render(PlanCodec.decode(document)));
                }
                default -> term.diagnostics(plan.diagnostics());
            }
            if (!plan.isApplyable()) {
                return 1;
            }
            if (!json) {
                term.print(PlanRenderer.render(PlanCodec.decode(document), term.style()));
            }
            boolean pending = plan.hasChanges() || plan.hasDrift();
            if (out != null) {
                save(plan, env, term);
            } else if (!json && plan.hasChanges()) {
                term.println("");
                term.println("Note: You didn't use the --out option to save this plan, so flowform can't guarantee to take "
                        + "exactly these actions if you run \"flowform apply\" now.");
            }
            return detailedExitCode && pending ? 2 : 0;
        } catch (CommandFailed e) {
            return e.exitCode();
        } catch (OperationFailed e) {
            return 1;
        }
    }

    /**
     * @return the {@code apply} command for the saved file that works as printed from the same shell: the file as
     *         given, then the configuration folder (which {@code apply FILE} loads for the cluster connection), the
     *         environment and {@code --state-dir} when given ({@code --var} values are recorded in the file; variable
     *         files are not, so they are repeated)
     */
    private String applyCommand(String environment) {
        java.util.List<String> args = new java.util.ArrayList<>();
        args.add(out.toString());
        args.addAll(CommandHint.selectingWithVarFiles(common, environment));
        return CommandHint.command("apply", args);
    }

    private void save(Plan plan, Environment env, Terminal term) {
        String text = PlanCodec.toJson(plan, Version.get(), env.state().cipher()::encrypt);
        try {
            Path target = out.toAbsolutePath();
            if (target.getParent() != null) {
                Files.createDirectories(target.getParent());
            }
            Path tmp = Files.createTempFile(target.getParent(), ".flowform-plan", ".tmp");
            Files.writeString(tmp, text);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            term.error("Cannot save the plan", "Writing " + out + " failed: " + e.getMessage());
            throw new CommandFailed(1);
        }
        if (json) {
            return;
        }
        term.println("");
        term.println("Saved the plan to: " + out);
        term.println("");
        term.println("To perform exactly these actions, run the following command to apply:");
        term.println("    " + applyCommand(env.workspace().environment()));
    }
}
