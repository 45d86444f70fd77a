package dev.flowform.live;

import dev.flowform.model.LiveKafkaUser;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** Resource definitions of the Strimzi kinds flowform uses, and discovery of the served versions. */
public final class StrimziResources {

    private StrimziResources() {
    }

    /** @return the definition of KafkaConnect ({@code kafkaconnects}) in {@code api} */
    public static ResourceDefinitionContext kafkaConnect(StrimziApi api) {
        return ctx(StrimziApi.KAFKA_GROUP, api.version(), "KafkaConnect", "kafkaconnects");
    }

    /** @return the definition of KafkaConnector ({@code kafkaconnectors}) in {@code api} */
    public static ResourceDefinitionContext kafkaConnector(StrimziApi api) {
        return ctx(StrimziApi.KAFKA_GROUP, api.version(), "KafkaConnector", "kafkaconnectors");
    }

    /** @return the definition of StrimziPodSet ({@code strimzipodsets}) in {@code api} */
    public static ResourceDefinitionContext podSet(StrimziApi api) {
        return ctx(StrimziApi.CORE_GROUP, api.version(), "StrimziPodSet", "strimzipodsets");
    }

    /** @return the definition of KafkaMirrorMaker2 ({@code kafkamirrormaker2s}) in {@code api} */
    public static ResourceDefinitionContext kafkaMirrorMaker2(StrimziApi api) {
        return ctx(StrimziApi.KAFKA_GROUP, api.version(), Strimzi.KAFKA_MIRROR_MAKER_2_KIND, "kafkamirrormaker2s");
    }

    /** @return the definition of KafkaUser ({@code kafkausers}, Strimzi's User Operator) in {@code api} */
    public static ResourceDefinitionContext kafkaUser(StrimziApi api) {
        return ctx(StrimziApi.KAFKA_GROUP, api.version(), LiveKafkaUser.KIND, "kafkausers");
    }

    /** @return the definition for a Strimzi kind by name, e.g. {@code KafkaConnect} */
    public static ResourceDefinitionContext forKind(String kind, StrimziApi api) {
        return switch (kind) {
            case "KafkaConnect" -> kafkaConnect(api);
            case "KafkaConnector" -> kafkaConnector(api);
            case "StrimziPodSet" -> podSet(api);
            case Strimzi.KAFKA_MIRROR_MAKER_2_KIND -> kafkaMirrorMaker2(api);
            default -> throw new IllegalArgumentException("not a Strimzi kind flowform handles: " + kind);
        };
    }

    private static ResourceDefinitionContext ctx(String group, String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
                .withPlural(plural).withNamespaced(true).build();
    }

    /**
     * Finds the Strimzi API version the server serves for {@code kind} in {@code group}, preferring
     * {@code v1} (Strimzi 0.49+) over {@code v1beta2}, through API discovery
     * ({@code GET /apis/<group>/<version>}), as kubectl does.
     *
     * @return the served version, or null when neither is served (Strimzi not installed, or no PodSets)
     * @throws KubernetesClientException on errors other than "not found"
     */
    public static StrimziApi detect(KubernetesClient client, String group, String kind) {
        for (StrimziApi api : new StrimziApi[] {StrimziApi.V1, StrimziApi.V1BETA2}) {
            APIResourceList list;
            try {
                list = client.getApiResources(group + "/" + api.version());
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    continue;
                }
                throw e;
            }
            if (list != null && list.getResources() != null) {
                for (APIResource r : list.getResources()) {
                    if (kind.equals(r.getKind())) {
                        return api;
                    }
                }
            }
        }
        return null;
    }
}
