package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredConnector;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.FieldEdit;
import java.util.List;
import java.util.Map;

/**
 * One connector's pending work.
 *
 * @param action        create, update or delete
 * @param address       the connector's resource address
 * @param ref           the object
 * @param desired       what the configuration wants (null for a delete)
 * @param manifest      the full object for a create
 * @param diff          field edits and display attributes for an update; empty otherwise
 * @param expectedState runtime state to wait for ({@code RUNNING}, {@code PAUSED}, {@code STOPPED}); null for a delete
 * @param requiresEos   true when the connector's configuration after the step has exactly.once.support=required
 */
record ConnectorWork(Action action, String address, ObjectRef ref, DesiredConnector desired, Map<String, Object> manifest,
                     SpecDiff diff, String expectedState, boolean requiresEos) {
}
