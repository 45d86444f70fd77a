package dev.flowform.plan;

import dev.flowform.model.ObjectRef;
import java.util.List;

/**
 * One managed object that changed outside flowform since the state recorded it (Terraform's
 * {@code resource_drift}).
 *
 * @param deleted    true when the object no longer exists
 * @param attributes what changed: {@code before} is the recorded value, {@code after} the live one
 * @param reverted   paths of {@code attributes} that this plan sets back to the configured value
 * @param resolution what flowform will do about it, one or two sentences
 */
public record DriftEntry(String address, ObjectRef object, boolean deleted, List<AttributeChange> attributes,
                         List<String> reverted, String resolution) {
    public DriftEntry {
        attributes = List.copyOf(attributes);
        reverted = List.copyOf(reverted);
    }
}
