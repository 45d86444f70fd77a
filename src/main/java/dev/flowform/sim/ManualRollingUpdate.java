package dev.flowform.sim;

import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The simulated operator's side of {@code strimzi.io/manual-rolling-update="true"} on a KafkaMirrorMaker2's
 * StrimziPodSet: at the next reconciliation every pod the PodSet has is rolled, then the annotation is removed
 * (Strimzi 0.48 docs, {@code proc-manual-rolling-update-strimzipodset.adoc}; Strimzi's {@code manualRollingUpdate}
 * in {@code AbstractConnectOperator}, PR 9153). Runs on the operator thread.
 */
final class ManualRollingUpdate {

    private ManualRollingUpdate() {
    }

    /**
     * @param name the KafkaMirrorMaker2
     * @return true when its PodSet carries the annotation with value {@code "true"}
     */
    static boolean requested(SimContext ctx, String ns, String name) {
        GenericKubernetesResource ps = ctx.sps().inNamespace(ns).withName(MirrorMaker2Names.podSetName(name)).get();
        return ps != null && "true".equals(SimContext.annotation(ps, Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION));
    }

    /**
     * @param pods the pods of the PodSet now
     * @return their UIDs: the pods the roll has to replace
     */
    static Set<String> uids(List<Pod> pods) {
        Set<String> uids = new TreeSet<>();
        pods.forEach(p -> uids.add(p.getMetadata().getUid()));
        return uids;
    }

    /**
     * Every pod was replaced: removes the annotation from the PodSet, as the operator does.
     *
     * @param name the KafkaMirrorMaker2
     */
    static void end(SimContext ctx, String ns, String name) {
        GenericKubernetesResource ps = ctx.sps().inNamespace(ns).withName(MirrorMaker2Names.podSetName(name)).get();
        if (ps != null && ps.getMetadata().getAnnotations() != null
                && ps.getMetadata().getAnnotations().remove(Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION) != null) {
            ctx.sps().inNamespace(ns).resource(ps).update();
        }
    }
}
