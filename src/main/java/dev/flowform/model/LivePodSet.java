package dev.flowform.model;

import java.util.Map;

/**
 * The StrimziPodSet {@code <name>-connect} that owns a Connect cluster's worker pods (Strimzi 0.37+).
 *
 * @param generation         {@code metadata.generation}
 * @param observedGeneration {@code status.observedGeneration}, or null
 * @param podRevisions       pod name to the {@code strimzi.io/revision} its template carries, in PodSet order
 * @param pods               {@code status.pods}, or null
 * @param readyPods          {@code status.readyPods}, or null
 * @param currentPods        {@code status.currentPods} (pods on the current revision), or null
 * @param annotations        {@code metadata.annotations} (e.g. {@code strimzi.io/manual-rolling-update}), sorted
 */
public record LivePodSet(
        ObjectRef ref,
        long generation,
        Long observedGeneration,
        Map<String, String> podRevisions,
        Integer pods,
        Integer readyPods,
        Integer currentPods,
        Map<String, String> annotations) {
    /** Copies the maps. */
    public LivePodSet {
        podRevisions = Maps.copy(podRevisions);
        annotations = Maps.sorted(annotations == null ? Map.of() : annotations);
    }

    /** A PodSet without annotations; the other components are the record's. */
    public LivePodSet(ObjectRef ref, long generation, Long observedGeneration, Map<String, String> podRevisions,
                      Integer pods, Integer readyPods, Integer currentPods) {
        this(ref, generation, observedGeneration, podRevisions, pods, readyPods, currentPods, Map.of());
    }
}
