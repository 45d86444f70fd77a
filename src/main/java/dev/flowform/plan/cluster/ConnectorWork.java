package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredConnector;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Action;
import java.util.Map;

/**
 * One connector's pending work.
 *
 * @param action        create, update or delete
 * @param desired       what the configuration wants (null for a delete)
 * @param manifest      the full object for a create
 * @param diff          field edits and display attributes for an update; empty otherwise
 * @param expectedState runtime state to wait for ({@code RUNNING}, {@code PAUSED}, {@code STOPPED}); null for a delete
 * @param requiresEos   true when the connector's configuration after the step has exactly.once.support=required
 * @param liveState     the live {@code spec.state} for an update (null: running, or no live connector)
 * @param resumeMark    the live {@link dev.flowform.plan.rules.StopBeforeChange#RESUME_ANNOTATION}, or null
 * @param targetState   the {@code spec.state} the connector ends in after an update ({@code running} by default)
 * @param liveRequiresEos true when the live configuration of an updated connector has exactly.once.support=required
 * @param seenStopped   true when the live status already shows the connector STOPPED, with no task running, at its
 *                      generation (an apply that did not finish saw it, or would have)
 */
record ConnectorWork(Action action, String address, ObjectRef ref, DesiredConnector desired, Map<String, Object> manifest,
                     SpecDiff diff, String expectedState, boolean requiresEos, String liveState, String resumeMark,
                     String targetState, boolean liveRequiresEos, boolean seenStopped) {

    /** Work without live state (a create or a delete). */
    ConnectorWork(Action action, String address, ObjectRef ref, DesiredConnector desired, Map<String, Object> manifest,
                  SpecDiff diff, String expectedState, boolean requiresEos) {
        this(action, address, ref, desired, manifest, diff, expectedState, requiresEos, null, null, null, false, false);
    }
}
