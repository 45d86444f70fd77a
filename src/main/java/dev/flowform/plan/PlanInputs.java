package dev.flowform.plan;

import dev.flowform.model.Maps;
import java.util.Map;

/**
 * What a saved plan was made from, as Terraform keeps it in its plan file: the configuration files' texts (sensitive
 * values masked) and the {@code --var} values (through {@link PlanCodec}'s secret encoder).
 *
 * @param configFiles file name to text, sensitive values omitted
 * @param variables   name to value of every {@code --var}
 */
public record PlanInputs(Map<String, String> configFiles, Map<String, Variable> variables) {

    /** No inputs recorded (plans made outside the CLI, and format version 1 documents). */
    public static final PlanInputs NONE = new PlanInputs(Map.of(), Map.of());

    public PlanInputs {
        configFiles = Maps.sorted(configFiles);
        variables = Maps.sorted(variables);
    }

    /** @return true when nothing is recorded */
    public boolean isEmpty() {
        return configFiles.isEmpty() && variables.isEmpty();
    }

    /** One variable value as given (for a sensitive variable: what the encoder stored). */
    public record Variable(String value, boolean sensitive) {
    }
}
