package dev.flowform.config;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of root module variables that come from outside the configuration files, in
 * increasing precedence after the defaults and the environment's {@code variables}:
 * {@code FLOWFORM_VAR_<name>} process environment variables, {@code --var-file} files (in the order
 * given; later files win), then {@code --var name=value} pairs.
 *
 * @param processEnvironment the process environment (only {@code FLOWFORM_VAR_*} entries are read), never null
 * @param varFiles           {@code --var-file} paths as given (relative ones resolve against the working directory)
 * @param vars               {@code --var} values by variable name (the last one given for a name)
 */
public record VariableInputs(Map<String, String> processEnvironment, List<Path> varFiles, Map<String, String> vars) {

    /** No values from outside the files. */
    public static final VariableInputs NONE = new VariableInputs(Map.of(), List.of(), Map.of());

    public VariableInputs {
        processEnvironment = processEnvironment == null ? Map.of() : Map.copyOf(withoutNulls(processEnvironment));
        varFiles = varFiles == null ? List.of() : List.copyOf(varFiles);
        vars = vars == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(vars));
    }

    /**
     * @param vars {@code --var} values by variable name, or null
     * @return inputs with {@code --var} values only
     */
    public static VariableInputs ofVars(Map<String, String> vars) {
        return new VariableInputs(Map.of(), List.of(), vars);
    }

    private static Map<String, String> withoutNulls(Map<String, String> m) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> {
            if (k != null && v != null) {
                out.put(k, v);
            }
        });
        return out;
    }
}
