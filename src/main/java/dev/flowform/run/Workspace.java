package dev.flowform.run;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.Configuration;
import dev.flowform.config.StateBackend;
import dev.flowform.config.DesiredStateFactory;
import dev.flowform.config.KubernetesTarget;
import dev.flowform.config.LoadResult;
import dev.flowform.config.VariableInputs;
import dev.flowform.diag.Diagnostics;
import dev.flowform.model.DesiredState;
import dev.flowform.model.SecretKeys;
import dev.flowform.plan.PlanInputs;
import dev.flowform.state.StateStore;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One environment's configuration as a command sees it (Terraform's local backend workspace): the loaded and
 * checked configuration with its variables, the desired state built from it, the configuration file texts, and
 * where the environment's state lives.
 *
 * @param config   the loaded configuration, for the selected environment
 * @param desired  the desired state
 * @param sources  configuration file name to text
 * @param stateDir the state folder, absolute: {@code --state-dir}, else the configuration's {@code backend} block; for
 *                 a {@code pg} backend the configuration's default folder, which then holds only local helper files
 *                 (an embedded cluster's data, never state)
 * @param backend  where the state is: a {@link StateBackend.Local} of {@code --state-dir} when given, else the
 *                 configuration's backend
 */
public record Workspace(Configuration config, DesiredState desired, Map<String, String> sources, Path stateDir,
                        StateBackend backend) {

    /**
     * Loads and checks the configuration of one environment. The configuration's sensitive values and the desired
     * state's secret values are added to {@code secrets} before anything is reported.
     *
     * @param dir            the configuration folder
     * @param environment    the environment to select, or null for the only one declared
     * @param variables      {@code --var}, {@code --var-file} and {@code FLOWFORM_VAR_*} values
     * @param stateDirOption {@code --state-dir} as given (relative to the working directory), or null
     * @param secrets        the command's redactor
     * @param hooks          where the file texts and diagnostics go (warnings included)
     * @return the workspace
     * @throws OperationFailed after reporting errors in the configuration
     */
    public static Workspace load(Path dir, String environment, VariableInputs variables, Path stateDirOption,
                                 Secrets secrets, RunHooks hooks) {
        LoadResult loaded = new ConfigLoader().loadWith(dir, environment, variables);
        hooks.configurationRead(loaded.sources());
        if (loaded.configuration() != null) {
            secrets.add(loaded.configuration().sensitiveValues());
        }
        Diagnostics diags = new Diagnostics().addAll(loaded.diagnostics());
        if (diags.hasErrors() || loaded.configuration() == null) {
            hooks.diagnostics(diags.sorted());
            throw new OperationFailed();
        }
        Configuration config = loaded.configuration();
        DesiredState desired = DesiredStateFactory.build(config, diags);
        if (desired != null) {
            secrets.addDesired(desired);
        }
        hooks.diagnostics(diags.sorted());
        if (diags.hasErrors()) {
            throw new OperationFailed();
        }
        StateBackend backend = stateDirOption != null
                ? new StateBackend.Local(stateDirOption.toAbsolutePath().normalize(), null) : config.backend();
        return new Workspace(config, desired, loaded.sources(), stateHome(stateDirOption, config.backend(), dir).stateDir(),
                backend);
    }

    /**
     * Where an environment's state lives, the one rule every command follows: {@code --state-dir} when given, else
     * the configuration's {@code backend} block, else {@code state} under the configuration folder, so the same
     * configuration finds the same state from any working directory.
     *
     * @param stateDirOption {@code --state-dir} as given (relative to the working directory), or null
     * @param backend        the configuration's backend block, or null when only {@code --state-dir} is known
     * @param configDir      the configuration folder
     * @return the state's home (for PostgreSQL with the default folder, which then holds only local helper files)
     */
    public static StateHome stateHome(Path stateDirOption, StateBackend backend, Path configDir) {
        if (stateDirOption != null) {
            return new StateHome(stateDirOption.toAbsolutePath().normalize(), null);
        }
        if (backend instanceof StateBackend.Pg pg) {
            return new StateHome(StateBackend.defaultFor(configDir.toAbsolutePath().normalize()).stateDir(), pg);
        }
        return new StateHome(backend.stateDir(), null);
    }

    /**
     * Finds where the state lives without loading the whole configuration (only its {@code backend} blocks are read),
     * for commands that work on state alone, by {@link #stateHome}'s rule.
     *
     * @param stateDirOption {@code --state-dir} as given, or null
     * @param configDir      the configuration folder
     * @return the home, or the blocks' diagnostics when they cannot be read
     */
    public static StateLookup locateState(Path stateDirOption, Path configDir) {
        if (stateDirOption != null) {
            return new StateLookup(stateHome(stateDirOption, null, configDir), null);
        }
        ConfigLoader.BackendLookup lookup = new ConfigLoader().backend(configDir);
        return new StateLookup(lookup.backend() == null ? null : stateHome(null, lookup.backend(), configDir), lookup);
    }

    /**
     * What {@link #locateState} found.
     *
     * @param home   the state's home, or null when the configuration's backend block cannot be read
     * @param blocks what reading the backend blocks gave (files, diagnostics), or null when {@code --state-dir} decided
     */
    public record StateLookup(StateHome home, ConfigLoader.BackendLookup blocks) {
    }

    /** @return where this environment's state lives ({@link #stateHome}) */
    public StateHome home() {
        return new StateHome(stateDir, backend instanceof StateBackend.Pg pg ? pg : null);
    }

    /** @return the environment's name */
    public String environment() {
        return config.environment().name();
    }

    /** @return where the environment's cluster is: a kubeconfig or the embedded cluster */
    public KubernetesTarget target() {
        return config.environment().kubernetes();
    }

    /** @return the namespaces the environment manages: its own and every desired Connect cluster's, sorted */
    public Set<String> managedNamespaces() {
        Set<String> namespaces = new TreeSet<>();
        if (config.environment().namespace() != null) {
            namespaces.add(config.environment().namespace());
        }
        desired.clusters().forEach(c -> namespaces.add(c.namespace()));
        desired.mirrorMakers().forEach(m -> namespaces.add(m.namespace()));
        return namespaces;
    }

    /**
     * Opens the environment's state database (the state backend).
     *
     * @param opener how the command opens it (read-only, or locked for writing)
     * @return the open state
     */
    public StateStore openState(StateOpener opener) {
        return opener.open(stateDir, environment());
    }

    /**
     * What a saved plan records about its inputs (Terraform keeps the configuration and variables in its plan
     * file): the configuration files with every sensitive value replaced by {@code (sensitive value)}, and the
     * {@code --var} values, those of sensitive variables flagged so the plan codec encrypts them.
     *
     * @param cliVars the {@code --var} values given
     * @return the inputs
     */
    public PlanInputs inputs(Map<String, String> cliVars) {
        Map<String, String> files = new TreeMap<>();
        List<String> secrets = config.sensitiveValues().stream().filter(v -> v != null && !v.isEmpty())
                .sorted(Comparator.comparingInt(String::length).reversed()).toList();
        sources.forEach((name, text) -> {
            String t = text;
            for (String v : secrets) {
                if (v.length() < 4 && t.contains(v)) {
                    t = "(omitted: the file holds a sensitive value too short to mask safely)";
                    break;
                }
                t = t.replace(v, SecretKeys.MASK);
            }
            files.put(name, withoutConnStrPassword(t));
        });
        Map<String, PlanInputs.Variable> vars = new TreeMap<>();
        cliVars.forEach((k, v) -> vars.put(k, new PlanInputs.Variable(v, config.sensitiveValues().contains(v))));
        return new PlanInputs(files, vars);
    }

    /**
     * @param text a configuration file's text
     * @return the text with a {@code pg} backend's {@code conn_str} password masked ({@link StateBackend.Pg#masked}),
     *         as written and as JSON escapes it, so a saved plan never holds the database password
     */
    private String withoutConnStrPassword(String text) {
        if (!(config.backend() instanceof StateBackend.Pg pg) || !pg.connStrHasPassword()) {
            return text;
        }
        String masked = StateBackend.Pg.masked(pg.connStr());
        String escaped = pg.connStr().replace("\\", "\\\\").replace("\"", "\\\"");
        return text.replace(pg.connStr(), masked).replace(escaped, StateBackend.Pg.masked(escaped));
    }
}
