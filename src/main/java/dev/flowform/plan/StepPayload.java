package dev.flowform.plan;

import dev.flowform.model.EosMode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The data a step needs to execute, one record per kind of work, so executors switch exhaustively. */
public sealed interface StepPayload {

    /** Create an object from a full manifest; values of {@code sensitiveConfigKeys} in {@code spec.config} are masked. */
    record CreateObject(Map<String, Object> manifest, Set<String> sensitiveConfigKeys) implements StepPayload {
        public CreateObject {
            manifest = dev.flowform.model.Maps.copy(manifest);
            sensitiveConfigKeys = dev.flowform.model.Maps.sortedSet(sensitiveConfigKeys);
        }
    }

    /** Edit fields of an existing object (connector updates, annotations, Connect spec changes). */
    record PatchObject(List<FieldEdit> edits) implements StepPayload {
        public PatchObject {
            edits = List.copyOf(edits);
        }
    }

    /** Set the worker EOS mode with the other pending KafkaConnect edits (one roll for both; the EOS key in edits). */
    record SetWorkerEos(EosMode mode, List<FieldEdit> edits) implements StepPayload {
        public SetWorkerEos {
            edits = List.copyOf(edits);
        }
    }

    /**
     * Wait for a completed roll (rule 7).
     *
     * @param expectedMode the EOS mode every worker must run with afterwards
     * @param generation   the KafkaConnect generation to wait for, or null for "the generation the
     *                     previous step of this chain produced"
     */
    record WaitForRoll(EosMode expectedMode, Long generation) implements StepPayload {
    }

    /**
     * Wait for a connector to settle (rule 8) in {@code RUNNING}, {@code PAUSED} or {@code STOPPED} at
     * {@code generation}, null for "the one the previous step produced".
     */
    record WaitForConnector(String expectedState, Long generation) implements StepPayload {
    }

    /** Delete the step's object. */
    record DeleteObject() implements StepPayload {
    }
}
