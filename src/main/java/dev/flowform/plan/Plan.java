package dev.flowform.plan;

import dev.flowform.diag.Diagnostic;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A plan: the changes flowform will make to one environment and the ordered steps that make them; the human rendering,
 * {@code --json}, {@code show} and saved plans all come from its JSON document ({@link PlanCodec}).
 *
 * @param formatVersion    version of the JSON document format
 * @param environment      the environment it was made for
 * @param createdAt        when it was made
 * @param basedOn          the state it was made against, or null when the state did not exist
 * @param liveFingerprints {@code Kind ns/name} to content fingerprint of every live object it read
 * @param changes          object changes, in address order
 * @param steps            steps in execution order
 * @param diagnostics      warnings (and errors, which make the plan not applyable)
 * @param mode             normal, or refresh-only (drift only, no steps)
 * @param targets          the {@code --target} addresses it was limited to; empty when not limited
 * @param drift            managed objects changed outside flowform since the state recorded them
 * @param transactionalIds the transactional IDs that need ACLs once the plan is applied
 * @param inputs           the configuration snapshot and variables it was made from (saved plans)
 */
public record Plan(
        int formatVersion,
        String environment,
        Instant createdAt,
        StateRef basedOn,
        Map<String, String> liveFingerprints,
        List<Change> changes,
        List<Step> steps,
        List<Diagnostic> diagnostics,
        PlanMode mode,
        List<String> targets,
        List<DriftEntry> drift,
        List<TransactionalId> transactionalIds,
        PlanInputs inputs) {

    /** The current plan document format (2: drift, targets, transactional IDs, mode and inputs). */
    public static final int FORMAT_VERSION = 2;

    public Plan {
        liveFingerprints = dev.flowform.model.Maps.sorted(liveFingerprints);
        changes = List.copyOf(changes);
        steps = List.copyOf(steps);
        diagnostics = List.copyOf(diagnostics);
        mode = mode == null ? PlanMode.NORMAL : mode;
        targets = targets == null ? List.of() : List.copyOf(targets);
        drift = drift == null ? List.of() : List.copyOf(drift);
        transactionalIds = transactionalIds == null ? List.of() : List.copyOf(transactionalIds);
        inputs = inputs == null ? PlanInputs.NONE : inputs;
    }

    /** A normal plan without targets, drift, transactional IDs or inputs; the components are the record's. */
    public Plan(int formatVersion, String environment, Instant createdAt, StateRef basedOn,
                Map<String, String> liveFingerprints, List<Change> changes, List<Step> steps, List<Diagnostic> diagnostics) {
        this(formatVersion, environment, createdAt, basedOn, liveFingerprints, changes, steps, diagnostics,
                PlanMode.NORMAL, List.of(), List.of(), List.of(), PlanInputs.NONE);
    }

    /** @return a copy recording what the plan was made from */
    public Plan withInputs(PlanInputs newInputs) {
        return new Plan(formatVersion, environment, createdAt, basedOn, liveFingerprints, changes, steps, diagnostics,
                mode, targets, drift, transactionalIds, newInputs);
    }

    /** @return a copy with these steps (ids and dependencies as given) */
    public Plan withSteps(List<Step> newSteps) {
        return new Plan(formatVersion, environment, createdAt, basedOn, liveFingerprints, changes, newSteps, diagnostics,
                mode, targets, drift, transactionalIds, inputs);
    }

    /** @return a copy carrying {@code newDiagnostics} instead of its own (e.g. a resume notice first) */
    public Plan withDiagnostics(List<Diagnostic> newDiagnostics) {
        return new Plan(formatVersion, environment, createdAt, basedOn, liveFingerprints, changes, steps, newDiagnostics,
                mode, targets, drift, transactionalIds, inputs);
    }

    /** @return true when there is at least one step to execute */
    public boolean hasChanges() {
        return !steps.isEmpty();
    }

    /** @return true when managed objects changed outside flowform */
    public boolean hasDrift() {
        return !drift.isEmpty();
    }

    /** @return true when the state it was made against records nothing yet (none, or serial 0: no apply recorded) */
    public boolean stateRecordsNothing() {
        return basedOn == null || basedOn.serial() == 0;
    }

    /** @return true for a refresh-only plan */
    public boolean isRefreshOnly() {
        return mode == PlanMode.REFRESH_ONLY;
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
        int rolls = (int) steps.stream().filter(s -> s.kind().causesRoll() || s.kind() == StepKind.FORCE_ROLL
                && !afterRollingStep(s)).count();
        return new PlanSummary(add, change, destroy, rolls);
    }

    /**
     * @return true when the mutation before {@code forced} in its chain is a step that rolls the workers: the forced
     *         roll is then that step's roll (Strimzi 0.46-0.48 KafkaMirrorMaker2), not one more
     */
    private boolean afterRollingStep(Step forced) {
        Step cur = forced;
        while (!cur.dependsOn().isEmpty()) {
            int id = cur.dependsOn().get(0);
            cur = steps.stream().filter(s -> s.id() == id).findFirst().orElse(null);
            if (cur == null) {
                return false;
            }
            if (cur.kind().isMutation()) {
                return cur.kind().causesRoll();
            }
        }
        return false;
    }
}
