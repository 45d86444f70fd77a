package dev.flowform.cli;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.LoadResult;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.StateView;
import dev.flowform.render.PlanMarkdown;
import dev.flowform.render.PlanRenderer;
import dev.flowform.render.StateRenderer;
import dev.flowform.run.PlanOperation;
import dev.flowform.run.SavedPlan;
import dev.flowform.run.StateHome;
import dev.flowform.state.StateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code flowform show [FILE]} (Terraform's {@code show}): a saved plan rendered from its document (secrets masked,
 * nothing decrypted, no cluster) as text, JSON or Markdown; without FILE the environment's state.
 */
@Command(name = "show", mixinStandardHelpOptions = true,
        description = "Show a saved plan, or without FILE the current state of the environment.")
public final class ShowCommand extends FlowformSubcommand implements Callable<Integer> {

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "A plan saved with \"flowform plan --out\".")
    Path planFile;

    @Option(names = {"--json", "-json"}, description = "Print the JSON document instead of text.")
    boolean json;

    @Option(names = {"--format", "-format"}, paramLabel = "FORMAT",
            description = "text (default), json (as --json) or markdown (a saved plan as a pull-request comment).")
    PlanFormat format;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        PlanFormat selected;
        try {
            selected = PlanFormat.of(json, format);
        } catch (IllegalArgumentException e) {
            term.error("Conflicting output options", e.getMessage());
            return 1;
        }
        if (planFile == null && selected == PlanFormat.MARKDOWN) {
            term.error("Markdown needs a saved plan", "--format markdown renders a plan file: run \"flowform plan --out "
                    + "FILE\", then \"flowform show FILE --format markdown\".");
            return 1;
        }
        json = selected == PlanFormat.JSON;
        return planFile != null ? showPlan(term, selected) : showState(term);
    }

    private int showPlan(Terminal term, PlanFormat selected) {
        String text = SavedPlan.read(planFile, term::diagnostics);
        Plan plan = text == null ? null : SavedPlan.decode(planFile, text, UnaryOperator.identity(), term::diagnostics);
        if (plan == null) {
            return 1;
        }
        String document = PlanCodec.toJson(plan, Version.get(), PlanCodec.MASK);
        if (selected == PlanFormat.JSON) {
            term.print(document);
            return 0;
        }
        if (selected == PlanFormat.MARKDOWN) {
            term.print(PlanMarkdown.render(PlanCodec.decode(document)));
            return 0;
        }
        term.diagnostics(plan.diagnostics());
        term.print(PlanRenderer.render(PlanCodec.decode(document), term.style()));
        return 0;
    }

    private int showState(Terminal term) {
        String env = common.environment;
        if (env == null) {
            LoadResult loaded = new ConfigLoader().load(common.dir(), null, common.vars);
            term.addSources(loaded.sources());
            if (!loaded.ok()) {
                term.diagnostics(loaded.diagnostics());
                return 1;
            }
            env = loaded.configuration().environment().name();
        }
        StateHome home;
        StateStore opened = null;
        try {
            home = CommandState.home(common.stateDirOption(), common.dir(), term);
            StateStore.validateEnvironmentName(env);
            boolean none = home.isPostgres()
                    ? (opened = CommandState.existingPostgres(home, env, parent.context(), term, false)) == null
                    : !Files.exists(StateStore.databaseFile(home.stateDir(), env));
            if (none) {
                if (json) {
                    term.print(new StateView(env, null, 0, java.util.List.of()).toJson());
                } else {
                    term.println("No state for environment \"" + env + "\" " + home.shown() + ".");
                }
                return 0;
            }
        } catch (CommandFailed e) {
            return e.exitCode();
        } catch (IllegalArgumentException e) {
            term.error("Invalid environment", e.getMessage());
            return 1;
        }
        try (StateStore state = opened != null ? opened
                : CommandState.forReading(home, env, parent.context(), term, CommandHint.selecting(common, env))) {
            var ref = state.stateRef();
            StateView view = new StateView(env, ref.lineage(), ref.serial(), PlanOperation.recorded(state));
            term.print(json ? view.toJson() : StateRenderer.render(view, term.style()));
            return 0;
        } catch (CommandFailed e) {
            return e.exitCode();
        } catch (RuntimeException e) {
            term.error("Cannot open the state of environment \"" + env + "\"", String.valueOf(e.getMessage()));
            return 1;
        }
    }
}
