package dev.flowform.live;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The core-group kinds flowform reads (worker pods and their ConfigMaps), for fabric8's generic client
 * ({@code client.genericKubernetesResources(CoreResources.PODS)}), which answers them as JSON-like maps.
 *
 * <p>Why not {@code client.pods()}: the first typed Pod list a JVM reads makes Jackson introspect the whole Pod
 * model (Pod, PodSpec, Container, Volume, ... about a hundred bean types) before it can read one; measured with
 * the flowform jar and its class-data archive, the quickstart's 3 pods took 230-270 ms the first time as
 * {@code PodList} and 30-38 ms as a generic list. Every {@code plan} and {@code apply} is such a first time.
 * flowform reads a handful of fields of a pod ({@link LiveMapper#pod}), so maps lose nothing.
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
