package dev.flowform.cli;

import dev.flowform.run.StateHome;
import dev.flowform.state.OutputRecord;
import dev.flowform.state.StateStore;
import java.io.IOException;
import dev.flowform.config.ConfigLoader;
import dev.flowform.config.LoadResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code flowform output [NAME]}: prints the root module's outputs as the last successful apply recorded them
 * (Terraform's {@code output}), reading only the state and the configuration's backend block. {@code --json} and
 * {@code --raw} as Terraform's; a sensitive value is never shown, as flowform never stores it (docs/configuration.md, "Outputs").
 */
@Command(name = "output", mixinStandardHelpOptions = true,
        description = "Show the outputs recorded by the last successful apply of an environment.")
public final class OutputCommand implements Callable<Integer> {

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Option(names = {"-e", "--env"}, paramLabel = "NAME",
            description = "Environment whose state to read (default: the only one under --state-dir).")
    String environment;

    @Option(names = {"--state-dir"}, paramLabel = "DIR",
            description = "Where environment state lives (default: the configuration's backend block, else state/ in the "
                    + "configuration folder).")
    Path stateDirOption;

    @Option(names = {"--dir", "-chdir"}, paramLabel = "DIR", defaultValue = ".",
            description = "Configuration folder; only its backend block is read, to find the state (default: ${DEFAULT-VALUE}).")
    Path dir;

    private Path stateDir;
    private StateHome home;
    private StateStore opened;

    @Option(names = {"--json", "-json"}, description = "Print JSON.")
    boolean json;

    @Option(names = {"--raw", "-raw"}, description = "Print one string, number or bool output without quotes.")
    boolean raw;

    @Option(names = {"--no-color", "-no-color"}, description = "Do not colour the output.")
    boolean noColor;

    @Parameters(paramLabel = "NAME", arity = "0..1", description = "Print only this output.")
    String name;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, noColor || json);
        if (raw && name == null) {
            term.error("--raw needs an output name", "Give the name of one output: flowform output --raw NAME.");
            return 1;
        }
        String env;
        try {
            home = CommandState.home(stateDirOption, dir, term);
            stateDir = home.stateDir();
            env = home.isPostgres() ? postgresEnvironment(term) : environment(term);
        } catch (CommandFailed e) {
            return e.exitCode();
        }
        List<OutputRecord> outputs = List.of();
        if (env != null) {
            java.util.List<String> select = new java.util.ArrayList<>(List.of("--dir", dir.toString(), "-e", env));
            if (stateDirOption != null) {
                select.addAll(List.of("--state-dir", stateDirOption.toString()));
            }
            try (StateStore state = opened != null ? opened : CommandState.forReading(stateDir, env, parent.context(), term,
                    select)) {
                outputs = state.outputs().all();
            } catch (CommandFailed e) {
                return e.exitCode();
            } catch (RuntimeException e) {
                term.error("Cannot read the state of environment \"" + env + "\"", String.valueOf(e.getMessage()));
                return 1;
            }
        }
        if (name != null) {
            return one(term, env, outputs);
        }
        if (json) {
            term.print(Outputs.json(outputs) + "\n");
            return 0;
        }
        if (outputs.isEmpty()) {
            term.diagnostics(List.of(dev.flowform.diag.Diagnostic.warning("No outputs found", env == null
                    ? (environment == null ? "No environment " + home.shown() + " has state yet: run flowform apply first."
                    : "Environment \"" + environment + "\" has no state " + home.shown() + " yet: run flowform apply -e "
                    + environment + " first.")
                    : "The state of environment \"" + env + "\" has no outputs. Declare output blocks in the configuration's "
                    + "root folder; a successful flowform apply records them.")));
            return 0;
        }
        term.print(Outputs.human(outputs));
        return 0;
    }

    private int one(Terminal term, String env, List<OutputRecord> outputs) {
        Optional<OutputRecord> found = outputs.stream().filter(o -> o.name().equals(name)).findFirst();
        if (found.isEmpty()) {
            List<String> names = outputs.stream().map(OutputRecord::name).toList();
            term.error("Output \"" + name + "\" not found", (env == null ? (environment == null
                    ? "No environment has state yet." : "Environment \"" + environment + "\" has no state yet.")
                    : names.isEmpty() ? "The state of environment \"" + env + "\" has no outputs."
                    : "The outputs of environment \"" + env + "\" are " + String.join(", ", names) + "."));
            return 1;
        }
        OutputRecord o = found.get();
        if (o.sensitive() && (raw || json)) {
            term.error("Output \"" + name + "\" is sensitive", "flowform stores only a salted hash of sensitive outputs, so "
                    + "their values cannot be printed. Read the value where it comes from (the variable's source).");
            return 1;
        }
        if (raw) {
            if (!List.of("string", "number", "bool").contains(o.valueType())) {
                term.error("Unsupported value for --raw", "--raw prints strings, numbers and bools only; output \"" + name
                        + "\" is a " + o.valueType() + ". Use --json instead.");
                return 1;
            }
            String text = o.valueJson();
            if (o.valueType().equals("string")) {
                text = JsonText.string(text);
            }
            term.print(text);
            return 0;
        }
        term.println(json ? o.valueJson() : Outputs.value(o));
        return 0;
    }

    /**
     * The environment to read in PostgreSQL, where one schema holds many: {@code -e}, else the one the configuration
     * selects; its state is opened here.
     *
     * @return the environment, or null when it has no state
     */
    private String postgresEnvironment(Terminal term) {
        String env = environment;
        if (env == null) {
            LoadResult loaded = new ConfigLoader().load(dir, null, Map.of());
            if (loaded.configuration() == null || loaded.diagnostics().hasErrors()) {
                term.error("No environment selected", "The state is in " + home.named()
                        + ", which holds every environment: choose one with -e NAME.");
                throw new CommandFailed(1);
            }
            env = loaded.configuration().environment().name();
        }
        try {
            StateStore.validateEnvironmentName(env);
        } catch (IllegalArgumentException e) {
            term.error("Invalid environment name", e.getMessage());
            throw new CommandFailed(1);
        }
        opened = CommandState.existingPostgres(home, env, parent.context(), term, false);
        return opened == null ? null : env;
    }

    /**
     * Fails with "Unknown environment" when {@code -e} names an environment the configuration does not declare; a
     * configuration that does not load (missing variables, no files) is not checked, since output reads only the state.
     */
    private void requireDeclared(Terminal term) {
        LoadResult loaded;
        try {
            loaded = new ConfigLoader().load(dir, environment, Map.of());
        } catch (RuntimeException e) {
            return;
        }
        Optional<dev.flowform.diag.Diagnostic> unknown = loaded.diagnostics().list().stream()
                .filter(d -> d.summary().equals(ConfigLoader.UNKNOWN_ENVIRONMENT)).findFirst();
        if (unknown.isPresent()) {
            term.diagnostics(List.of(unknown.get()));
            throw new CommandFailed(1);
        }
    }

    /** @return the environment to read, or null when no environment has state; fails when it is ambiguous */
    private String environment(Terminal term) {
        if (environment != null) {
            try {
                StateStore.validateEnvironmentName(environment);
            } catch (IllegalArgumentException e) {
                term.error("Invalid environment name", e.getMessage());
                throw new CommandFailed(1);
            }
            if (Files.exists(StateStore.databaseFile(stateDir, environment))) {
                return environment;
            }
            requireDeclared(term);
            return null;
        }
        List<String> found = new ArrayList<>();
        if (Files.isDirectory(stateDir)) {
            try (Stream<Path> dirs = Files.list(stateDir)) {
                for (Path d : dirs.sorted().toList()) {
                    String n = d.getFileName().toString();
                    if (StateStore.ENVIRONMENT_NAME.matcher(n).matches() && !n.equals(".") && !n.equals("..")
                            && Files.exists(d.resolve(StateStore.DATABASE_NAME + ".mv.db"))) {
                        found.add(n);
                    }
                }
            } catch (IOException e) {
                term.error("Cannot read the state folder", stateDir + ": " + e.getMessage());
                throw new CommandFailed(1);
            }
        }
        if (found.size() > 1) {
            term.error("No environment selected", "Several environments have state under " + stateDir + " ("
                    + String.join(", ", found) + "): choose one with -e NAME.");
            throw new CommandFailed(1);
        }
        return found.isEmpty() ? null : found.get(0);
    }
}
