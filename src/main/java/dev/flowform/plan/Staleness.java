package dev.flowform.plan;

import dev.flowform.diag.Diagnostic;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Decides whether a saved plan may still be applied (Terraform's {@code localRunForPlanFile} checks, plus the live
 * objects): refused for another environment or lineage, another serial, or a live object whose content fingerprint
 * changed (fingerprints, not {@code resourceVersion}, which an embedded cluster's reload renews; docs/workflows.md).
 */
public final class Staleness {

    /**
     * Why a plan meets a state of another lineage that holds nothing yet: the apply did not reach the state the plan
     * was made against and opened a new one, typically a CI job on another machine than the plan's with the state in a
     * local folder. A plan is bound to its state (lineage, serial, and the key its secrets are encrypted with), so the
     * cure is a state both reach, not adopting the plan's lineage.
     */
    static final String EMPTY_STATE_HINT = "\n\nThe state of this environment holds nothing yet (serial 0): this run "
            + "most likely created a new, empty state instead of reaching the one the plan was made against. A plan made "
            + "on another machine (a CI job on another runner) can only be applied where its state is: keep the state in "
            + "a backend both jobs reach, such as a pg backend block, not in a local folder.";

    private Staleness() {
    }

    /**
     * @param liveNow fingerprints of the live objects now ({@code Kind ns/name} to fingerprint)
     * @param replan  the plan command a stale plan's error suggests, selecting the same configuration, environment and
     *                state as the user would paste it
     * @return errors about applying the decoded {@code saved} plan to {@code environment} at state version
     *         {@code current}; empty when it may be applied
     */
    public static List<Diagnostic> check(Plan saved, String environment, StateRef current, Map<String, String> liveNow,
                                         String replan) {
        List<Diagnostic> out = new ArrayList<>();
        if (!saved.environment().equals(environment)) {
            out.add(Diagnostic.error("Saved plan is for another environment",
                    "The plan was made for environment \"" + saved.environment() + "\" and cannot be applied to \""
                            + environment + "\". Create a new plan for \"" + environment + "\"."));
            return out;
        }
        if (saved.basedOn() == null || !saved.basedOn().lineage().equals(current.lineage())) {
            out.add(Diagnostic.error("Saved plan does not match the given state",
                    "The given plan file can not be applied because it was created from a different state lineage "
                            + "(plan: " + (saved.basedOn() == null ? "none" : saved.basedOn().lineage()) + ", state of \""
                            + environment + "\": " + current.lineage() + "). Create a new plan against this state."
                            + (current.serial() == 0 ? EMPTY_STATE_HINT : "")));
            return out;
        }
        if (saved.basedOn().serial() != current.serial()) {
            out.add(Diagnostic.error("Saved plan is stale",
                    "The given plan file can no longer be applied because the state was changed by another operation "
                            + "after the plan was created (serial " + saved.basedOn().serial() + " then, " + current.serial()
                            + " now). Create a new plan with: " + replan));
            return out;
        }
        List<String> changed = new ArrayList<>();
        TreeSet<String> keys = new TreeSet<>(saved.liveFingerprints().keySet());
        keys.addAll(liveNow.keySet());
        for (String k : keys) {
            String then = saved.liveFingerprints().get(k);
            String now = liveNow.get(k);
            if (then == null) {
                changed.add(k + " (created since)");
            } else if (now == null) {
                changed.add(k + " (deleted since)");
            } else if (!then.equals(now)) {
                changed.add(k + " (changed since)");
            }
        }
        if (!changed.isEmpty()) {
            out.add(Diagnostic.error("Saved plan is stale",
                    "The given plan file can no longer be applied because live objects it was made from changed: "
                            + String.join(", ", changed) + ". Create a new plan with: " + replan));
        }
        return out;
    }
}
