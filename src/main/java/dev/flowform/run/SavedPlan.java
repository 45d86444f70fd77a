package dev.flowform.run;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.LiveState;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.Staleness;
import dev.flowform.state.StateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Saved plan files ({@code flowform plan --out FILE}): reading and decoding them for {@code apply FILE} and
 * {@code show FILE}, and the checks before one is applied (Terraform refuses a stale saved plan the same way).
 */
public final class SavedPlan {

    private SavedPlan() {
    }

    /**
     * @param file   the plan file
     * @param report where an error goes
     * @return the file's text, or null after reporting why it cannot be read
     */
    public static String read(Path file, Consumer<List<Diagnostic>> report) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            report.accept(List.of(Diagnostic.error("Cannot read the plan file", "Reading " + file + " failed: " + e.getMessage())));
            return null;
        }
    }

    /**
     * @param file   the plan file, for messages
     * @param text   its text
     * @param reveal decrypts sensitive values ({@link java.util.function.UnaryOperator#identity()} keeps them sealed)
     * @param report where an error goes
     * @return the decoded plan, or null after reporting why it is not a usable plan document
     */
    public static Plan decode(Path file, String text, UnaryOperator<String> reveal, Consumer<List<Diagnostic>> report) {
        try {
            return PlanCodec.decode(text, reveal);
        } catch (IllegalArgumentException e) {
            report.accept(List.of(Diagnostic.error("Cannot use the plan file", file + ": " + e.getMessage())));
            return null;
        } catch (RuntimeException e) {
            report.accept(List.of(Diagnostic.error("Cannot use the plan file", file + " is not a flowform plan document: "
                    + e.getMessage())));
            return null;
        }
    }

    /**
     * Reads a saved plan for {@code apply FILE}: refuses it when it was made for another environment or state
     * lineage, when the state's serial moved, or when any live object it read changed since ({@link Staleness}),
     * or when it has errors; then reveals its secrets and reports its diagnostics.
     *
     * @param environment the environment being applied
     * @param state       its state (lineage, serial, the key that decrypts the plan's secrets)
     * @param replan      the plan command a stale plan's error suggests
     * @param hooks       where problems go
     * @return the plan, or null after reporting why it cannot be applied
     */
    static Plan forApply(Path file, String environment, StateStore state, LiveState live, String replan,
                         RunHooks hooks) {
        String text = read(file, hooks::diagnostics);
        if (text == null) {
            return null;
        }
        Plan header = decode(file, text, UnaryOperator.identity(), hooks::diagnostics);
        if (header == null) {
            return null;
        }
        List<Diagnostic> stale = Staleness.check(header, environment, state.stateRef(), live.fingerprints(), replan);
        if (!stale.isEmpty()) {
            hooks.diagnostics(stale);
            return null;
        }
        if (!header.isApplyable()) {
            hooks.diagnostics(List.of(Diagnostic.error("The saved plan cannot be applied", "The plan in " + file
                    + " has errors; plan again.")));
            return null;
        }
        Plan plan = decode(file, text, state.cipher()::decrypt, hooks::diagnostics);
        if (plan == null) {
            return null;
        }
        hooks.diagnostics(plan.diagnostics());
        return plan;
    }
}
