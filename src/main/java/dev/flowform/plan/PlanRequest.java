package dev.flowform.plan;

import java.time.Instant;

/**
 * The inputs of {@link Planner#plan} besides desired and live state.
 *
 * @param environment the environment being planned
 * @param basedOn     the state version the plan is made against, or null when there is no state yet
 * @param now         the plan's timestamp (injected: the planner never reads the clock)
 */
public record PlanRequest(String environment, StateRef basedOn, Instant now) {
}
