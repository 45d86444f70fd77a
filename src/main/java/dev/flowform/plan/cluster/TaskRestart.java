package dev.flowform.plan.cluster;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.util.List;

/**
 * A FAILED task that nothing else in the plan restarts, handed to the operator through the annotation Strimzi
 * honours and then removes: {@code strimzi.io/restart-task: "<id>"} on a KafkaConnector,
 * {@code strimzi.io/restart-connector-task: "<connector>:<id>"} on a KafkaMirrorMaker2 (docs/domain-rules.md, rule 8).
 * Pure. {@code ref} is the object annotated, {@code task} how the change names the task ({@code <connector>:<id>}).
 */
record TaskRestart(String address, ObjectRef ref, String annotation, String value, String task) {

    /** @return the change of the object: the annotation */
    Change change() {
        return new Change(address, ref, Action.UPDATE, List.of(new AttributeChange("metadata.annotations.\"" + annotation
                + "\"", null, Json.render(value), false)), ChangeReason.TASK_RESTART.of(task, annotation));
    }

    /**
     * @param lane the lane of the step, or null for the spine
     * @return the step that writes the annotation
     */
    Draft step(String lane) {
        return new Draft(StepKind.ANNOTATE, address, ref, new StepPayload.PatchObject(List.of(
                FieldEdit.set(List.of("metadata", "annotations", annotation), value, false))),
                annotation + " = \"" + value + "\"", lane);
    }
}
