package dev.flowform.apply;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import java.util.List;
import java.util.Map;

/** Port: changes objects in the cluster. */
public interface ClusterWriter {

    /**
     * Creates an object.
     *
     * @param manifest the object as JSON-like maps (apiVersion, kind, metadata, spec)
     * @return the new object's {@code metadata.generation}
     * @throws ApplyException when the API server refuses (already exists, invalid) or cannot be reached
     */
    long create(Map<String, Object> manifest);

    /**
     * Applies field edits by read-modify-write with the object's resourceVersion; a conflicting
     * concurrent write (HTTP 409) is answered by re-reading and re-applying the edits.
     *
     * @param ref   the object
     * @param edits the fields to set or remove
     * @return the object's {@code metadata.generation} after the write (unchanged when the edits changed nothing)
     * @throws ApplyException when the object is missing, or the server refuses or cannot be reached
     */
    long patch(ObjectRef ref, List<FieldEdit> edits);

    /**
     * Deletes an object; deleting an object that is already gone succeeds.
     *
     * @throws ApplyException when the server refuses or cannot be reached
     */
    void delete(ObjectRef ref);

    /**
     * @return the object's current {@code metadata.generation}
     * @throws ApplyException when it does not exist
     */
    long generation(ObjectRef ref);
}
