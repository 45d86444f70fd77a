package dev.flowform.plan;

import dev.flowform.diag.Diagnostic;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A plan: the changes flowform will make to one environment and the ordered steps that make them.
 *
 * <p>The human rendering, {@code plan --json} and saved plan files are all produced from this one
 * structure (see {@link PlanCodec}).
 *
 * @param formatVersion    version of the JSON document format
 * @param environment      the environment it was made for
 * @param createdAt        when it was made
 * @param basedOn          the state it was made against, or null when the state did not exist
 * @param liveFingerprints {@code Kind ns/name} to content fingerprint of every live object it read
 * @param changes          object changes, in address order
 * @param steps            steps in execution order
 * @param diagnostics      warnings (and errors, which make the plan not applyable)
 */
public record Plan(
        int formatVersion,
        String environment,
        Instant createdAt,
        StateRef basedOn,
        Map<String, String> liveFingerprints,
        List<Change> changes,
        List<Step> steps,
        List<Diagnostic> diagnostics) {

    /** The current plan document format. */
    public static final int FORMAT_VERSION = 1;

    public Plan {
        liveFingerprints = dev.flowform.model.Maps.sorted(liveFingerprints);
        changes = List.copyOf(changes);
        steps = List.copyOf(steps);
        diagnostics = List.copyOf(diagnostics);
    }

    /** @return true when there is at least one step to execute */
    public boolean hasChanges() {
        return !steps.isEmpty();
    }

    /** @return true when no diagnostic is an error */
    public boolean isApplyable() {
        return diagnostics.stream().noneMatch(Diagnostic::isError);
    }

    /** @return the counts for the summary line */
    public PlanSummary summary() {
        int add = 0;
        int change = 0;
        int destroy = 0;
        for (Change c : changes) {
            switch (c.action()) {
                case CREATE -> add++;
                case UPDATE -> change++;
                case DELETE -> destroy++;
                default -> { }
            }
        }
        int rolls = (int) steps.stream().filter(s -> s.kind().causesRoll()).count();
        return new PlanSummary(add, change, destroy, rolls);
    }
}
