package dev.flowform.plan;

import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The inputs of {@link Planner#plan} besides desired and live state.
 *
 * @param environment the environment being planned
 * @param basedOn     the state version the plan is made against, or null when there is no state yet
 * @param now         the plan's timestamp (injected: the planner never reads the clock)
 * @param options     the user's flags
 * @param recorded    the state's resource snapshots (for drift); empty when there are none
 * @param hashSecret  the state's secret hasher, applied to live secret values before they are compared with
 *                    the snapshots (which hold only hashes)
 */
public record PlanRequest(String environment, StateRef basedOn, Instant now, PlanOptions options,
                          List<RecordedResource> recorded, UnaryOperator<String> hashSecret) {

    public PlanRequest {
        options = options == null ? PlanOptions.DEFAULT : options;
        recorded = recorded == null ? List.of() : List.copyOf(recorded);
        hashSecret = hashSecret == null ? UnaryOperator.identity() : hashSecret;
    }

    /** A request without flags and without recorded state (no drift); the components are the record's. */
    public PlanRequest(String environment, StateRef basedOn, Instant now) {
        this(environment, basedOn, now, PlanOptions.DEFAULT, List.of(), null);
    }

    /** @return a copy with these options */
    public PlanRequest withOptions(PlanOptions o) {
        return new PlanRequest(environment, basedOn, now, o, recorded, hashSecret);
    }
}
