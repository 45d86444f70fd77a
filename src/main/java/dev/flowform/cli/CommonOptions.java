package dev.flowform.cli;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Options every command that reads configuration shares. GNU spellings first, Terraform's single-dash
 * spellings accepted as aliases ({@code -chdir}, {@code -var}, {@code -no-color}).
 */
public final class CommonOptions {

    @Option(names = {"-e", "--env"}, paramLabel = "NAME",
            description = "Environment to use (required when more than one is declared).")
    String environment;

    @Option(names = {"--dir", "-chdir"}, paramLabel = "DIR", defaultValue = ".",
            description = "Configuration folder holding *.flow.json files (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = {"--state-dir"}, paramLabel = "DIR",
            description = "Where environment state lives, one database per environment (default: the configuration's "
                    + "backend block, else state/ in the configuration folder).")
    Path stateDir;

    @Option(names = {"--var", "-var"}, paramLabel = "NAME=VALUE", mapFallbackValue = "",
            description = "Set a variable; repeatable; the last value wins.")
    Map<String, String> vars = new LinkedHashMap<>();

    @Option(names = {"--var-file", "-var-file"}, paramLabel = "FILE",
            description = "Read variable values from a JSON file; repeatable; later files win, --var wins over them.")
    java.util.List<Path> varFiles = new java.util.ArrayList<>();

    @Option(names = {"--no-color", "-no-color"}, description = "Do not colour the output.")
    boolean noColor;

    /** @return the configuration folder */
    public Path dir() {
        return dir;
    }

    /**
     * @param processEnvironment the process environment, for {@code FLOWFORM_VAR_<name>}
     * @return the variable values these options and the process environment give
     */
    public dev.flowform.config.VariableInputs variableInputs(Map<String, String> processEnvironment) {
        return new dev.flowform.config.VariableInputs(processEnvironment, varFiles, vars);
    }

    /** @return {@code --state-dir} as given, or null when it was not (then the configuration says where state lives) */
    public Path stateDirOption() {
        return stateDir;
    }
}
