package dev.flowform.live;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The core-group kinds flowform reads (worker pods and their ConfigMaps) for fabric8's generic client, which answers
 * them as maps: a typed Pod list costs a JVM's first read the introspection of the whole Pod model, and flowform reads
 * a handful of fields (docs/architecture.md, "Start-up").
 */
public final class CoreResources {
    /** {@code v1} Pods ({@code /api/v1/namespaces/NS/pods}). */
    public static final ResourceDefinitionContext PODS = core("Pod", "pods");
    /** {@code v1} ConfigMaps ({@code /api/v1/namespaces/NS/configmaps}). */
    public static final ResourceDefinitionContext CONFIG_MAPS = core("ConfigMap", "configmaps");

    private CoreResources() {
    }

    private static ResourceDefinitionContext core(String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup("").withVersion("v1").withKind(kind).withPlural(plural)
                .withNamespaced(true).build();
    }
}
