package dev.flowform.plan;

/**
 * The counts of the plan's last line: {@code Plan: N to add, M to change, K to destroy, R rolling restarts.}
 *
 * @param add     objects created
 * @param change  objects updated in place
 * @param destroy objects deleted
 * @param rolls   rolling restarts of Connect workers the plan causes
 */
public record PlanSummary(int add, int change, int destroy, int rolls) {
}
