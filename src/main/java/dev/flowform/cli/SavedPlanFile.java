package dev.flowform.cli;

import dev.flowform.plan.Plan;
import dev.flowform.run.SavedPlan;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * The arguments of {@code apply FILE} with a saved plan file ({@code flowform plan --out FILE}); reading and
 * decoding the file is {@link SavedPlan}'s.
 */
final class SavedPlanFile {

    private SavedPlanFile() {
    }

    /**
     * Checks the arguments of {@code apply FILE} before anything opens: planning flags are refused (as in Terraform);
     * without {@code -e} or {@code --var} the plan's own environment and recorded variables are used.
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
        String text = SavedPlan.read(file, term::diagnostics);
        if (text == null) {
            return false;
        }
        Plan plan = SavedPlan.decode(file, text, UnaryOperator.identity(), term::diagnostics);
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
}
