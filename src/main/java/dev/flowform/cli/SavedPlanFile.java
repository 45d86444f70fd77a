package dev.flowform.cli;

import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Reading saved plan files ({@code flowform plan --out FILE}) for {@code apply FILE} and {@code show FILE},
 * with the errors printed the way the other commands print theirs.
 */
final class SavedPlanFile {

    private SavedPlanFile() {
    }

    /**
     * Checks the arguments of {@code apply FILE} before anything is opened: planning flags are refused (the
     * plan is already made, as in Terraform); without {@code -e} the plan's own environment is selected; without
     * {@code --var} the plan's recorded non-sensitive variable values are used to load the configuration (which
     * {@code apply FILE} needs only for the environment's cluster connection: the steps come from the file).
     *
     * @return false after printing an error
     */
    static boolean checkArguments(Path file, CommonOptions common, PlanningOptions planning, Terminal term) {
        if (!planning.given().isEmpty()) {
            term.error("Can't set planning options when applying a saved plan",
                    "The plan file " + file + " was already made, so " + String.join(", ", planning.given())
                            + " cannot change it. Plan again with these options and --out, then apply that file.");
            return false;
        }
        String text = read(file, term);
        if (text == null) {
            return false;
        }
        Plan plan = decode(file, text, UnaryOperator.identity(), term);
        if (plan == null) {
            return false;
        }
        if (common.environment == null) {
            common.environment = plan.environment();
        }
        if (common.vars.isEmpty()) {
            plan.inputs().variables().forEach((k, v) -> {
                if (!v.sensitive()) {
                    common.vars.put(k, v.value());
                }
            });
        }
        return true;
    }

    /** @return the file's text, or null after printing an error */
    static String read(Path file, Terminal term) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            term.error("Cannot read the plan file", "Reading " + file + " failed: " + e.getMessage());
            return null;
        }
    }

    /** @return the decoded plan, or null after printing an error */
    static Plan decode(Path file, String text, UnaryOperator<String> reveal, Terminal term) {
        try {
            return PlanCodec.decode(text, reveal);
        } catch (IllegalArgumentException e) {
            term.error("Cannot use the plan file", file + ": " + e.getMessage());
            return null;
        } catch (RuntimeException e) {
            term.error("Cannot use the plan file", file + " is not a flowform plan document: " + e.getMessage());
            return null;
        }
    }
}
