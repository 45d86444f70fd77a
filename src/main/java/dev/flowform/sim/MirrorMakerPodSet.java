package dev.flowform.sim;

import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * The StrimziPodSet of a KafkaMirrorMaker2 as Strimzi writes it, and a Strimzi 0.46-0.48 operator's start-up
 * replacement of pods that carry {@code strimzi.io/configuration-hash} (its templates have none, so they are on
 * another revision; Strimzi PR 11926), done before the cluster serves anyone (docs/domain-rules.md, 7a). Runs on the
 * operator thread.
 */
final class MirrorMakerPodSet {
    private MirrorMakerPodSet() {
    }

    /** Creates the PodSet of {@code mm2}, or updates its templates; {@code noHash} for Strimzi 0.46-0.48. */
    static void write(SimContext ctx, GenericKubernetesResource mm2, MirrorMakerModel m, boolean noHash) {
        List<Object> templates = new ArrayList<>();
        for (int i = 0; i < m.replicas(); i++) {
            templates.add(m.podTemplate(i, image(ctx, mm2), noHash));
        }
        PodSetController.writePodSet(ctx, mm2.getMetadata().getNamespace(), MirrorMaker2Names.podSetName(m.name()),
                m.selectorLabels(), templates);
    }

    /** @return the image the operator gives the pods of {@code mm2}: Strimzi's Kafka image of its release and version */
    static String image(SimContext ctx, GenericKubernetesResource mm2) {
        Object v = SimContext.spec(mm2).get("version");
        return "quay.io/strimzi/kafka:" + ctx.settings().strimziVersion() + "-kafka-" + (v == null ? "3.9.0" : v);
    }

    /**
     * A Strimzi 0.46-0.48 operator's start-up: each pod carrying a configuration hash is replaced by that operator's
     * pod (same name and status) and the templates rewritten to match.
     *
     * @return the pods afterwards
     */
    static List<Pod> replaceHashedPods(SimContext ctx, GenericKubernetesResource mm2, List<Pod> pods) {
        if (pods.stream().noneMatch(p -> SimContext.annotation(p, Strimzi.CONFIG_HASH_ANNOTATION) != null)) {
            return pods;
        }
        String ns = mm2.getMetadata().getNamespace();
        MirrorMakerModel m = MirrorMakerModel.of(mm2, false);
        write(ctx, mm2, m, true);
        String prefix = MirrorMaker2Names.podSetName(m.name()) + "-";
        List<Pod> out = new ArrayList<>();
        for (Pod p : pods) {
            String name = p.getMetadata().getName();
            if (SimContext.annotation(p, Strimzi.CONFIG_HASH_ANNOTATION) == null || !name.startsWith(prefix)
                    || !name.substring(prefix.length()).matches("\\d+")) {
                out.add(p);
                continue;
            }
            Pod replaced = JsonMaps.convert(m.podTemplate(Integer.parseInt(name.substring(prefix.length())),
                    image(ctx, mm2), true), Pod.class);
            replaced.getMetadata().setNamespace(ns);
            replaced.setStatus(p.getStatus());
            ctx.client().pods().inNamespace(ns).withName(name).delete();
            out.add(ctx.client().pods().inNamespace(ns).resource(replaced).create());
        }
        writeStatus(ctx, ns, m.name(), out, p -> true);
        return out;
    }

    /** Writes the PodSet's {@code status} when it changed; {@code current} tells a pod on the current template. */
    static void writeStatus(SimContext ctx, String ns, String name, List<Pod> pods, java.util.function.Predicate<Pod> current) {
        GenericKubernetesResource ps = ctx.sps().inNamespace(ns).withName(MirrorMaker2Names.podSetName(name)).get();
        if (ps != null) {
            PodSetController.writeStatus(ctx, ps, pods.size(), (int) pods.stream().filter(SimContext::ready).count(),
                    (int) pods.stream().filter(current).count());
        }
    }
}
