package dev.flowform.sim;

import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.LinkedHashMap;
import java.util.Map;

/** The worker configuration ConfigMap of a KafkaMirrorMaker2, as Strimzi's {@code KafkaMirrorMaker2AssemblyOperator} writes it. */
final class MirrorMakerConfigMap {
    private MirrorMakerConfigMap() {
    }

    /** Records the worker configuration by hash and writes ConfigMap {@code <name>-mirrormaker2-config} when it differs. */
    static void write(SimContext ctx, GenericKubernetesResource mm2, MirrorMakerModel m) {
        String ns = mm2.getMetadata().getNamespace();
        String cmName = MirrorMaker2Names.configMapName(m.name());
        String text = m.rendered().fileText();
        ctx.memory().workerConfigs.put(m.rendered().configurationHash(), text);
        ConfigMap existing = ctx.client().configMaps().inNamespace(ns).withName(cmName).get();
        if (existing != null && existing.getData() != null && text.equals(existing.getData().get(Strimzi.CONNECT_PROPERTIES_KEY))) {
            return;
        }
        ConfigMap cm = new ConfigMapBuilder().withMetadata(new ObjectMetaBuilder().withName(cmName).withNamespace(ns)
                .withLabels(m.selectorLabels()).build()).withData(Map.of(Strimzi.CONNECT_PROPERTIES_KEY, text)).build();
        if (existing == null) {
            ctx.client().configMaps().inNamespace(ns).resource(cm).create();
        } else {
            existing.setData(new LinkedHashMap<>(Map.of(Strimzi.CONNECT_PROPERTIES_KEY, text)));
            ctx.client().configMaps().inNamespace(ns).resource(existing).update();
        }
    }
}
