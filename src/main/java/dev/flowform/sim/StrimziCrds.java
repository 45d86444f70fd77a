package dev.flowform.sim;

import dev.flowform.model.StrimziApi;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;

/**
 * The four Strimzi custom resource definitions the embedded cluster serves, for one API version.
 *
 * <p>Each CRD is single-version with a status subresource and
 * {@code x-kubernetes-preserve-unknown-fields} (the mock validates nothing anyway). Names follow
 * Strimzi's CRDs: {@code kafkaconnects.kafka.strimzi.io} (short name {@code kc}),
 * {@code kafkaconnectors.kafka.strimzi.io} ({@code kctr}), {@code strimzipodsets.core.strimzi.io}
 * ({@code sps}) and {@code kafkamirrormaker2s.kafka.strimzi.io} ({@code kmm2}). The mock serves only one version per CRD, so a cluster is either v1beta2 or v1.
 */
public final class StrimziCrds {
    /** Kind of a Connect cluster. */
    public static final String KAFKA_CONNECT = "KafkaConnect";
    /** Kind of a connector. */
    public static final String KAFKA_CONNECTOR = "KafkaConnector";
    /** Kind of Strimzi's MirrorMaker 2 resource. */
    public static final String KAFKA_MIRROR_MAKER_2 = "KafkaMirrorMaker2";
    /** Kind of the pod set that owns Connect worker pods. */
    public static final String STRIMZI_POD_SET = "StrimziPodSet";

    private StrimziCrds() {
    }

    /**
     * @param api the served version
     * @return the KafkaConnect, KafkaConnector, StrimziPodSet and KafkaMirrorMaker2 CRDs for {@code api}, in that order
     */
    public static List<CustomResourceDefinition> definitions(StrimziApi api) {
        return List.of(
                crd(StrimziApi.KAFKA_GROUP, KAFKA_CONNECT, "kafkaconnects", "kafkaconnect", "kc", api),
                crd(StrimziApi.KAFKA_GROUP, KAFKA_CONNECTOR, "kafkaconnectors", "kafkaconnector", "kctr", api),
                crd(StrimziApi.CORE_GROUP, STRIMZI_POD_SET, "strimzipodsets", "strimzipodset", "sps", api),
                crd(StrimziApi.KAFKA_GROUP, KAFKA_MIRROR_MAKER_2, "kafkamirrormaker2s", "kafkamirrormaker2", "kmm2", api));
    }

    /**
     * @param api the served version
     * @return the context for {@code kafkaconnects} (namespaced), usable without discovery
     */
    public static ResourceDefinitionContext kafkaConnect(StrimziApi api) {
        return context(StrimziApi.KAFKA_GROUP, api, KAFKA_CONNECT, "kafkaconnects");
    }

    /**
     * @param api the served version
     * @return the context for {@code kafkaconnectors}
     */
    public static ResourceDefinitionContext kafkaConnector(StrimziApi api) {
        return context(StrimziApi.KAFKA_GROUP, api, KAFKA_CONNECTOR, "kafkaconnectors");
    }

    /**
     * @param api the served version
     * @return the context for {@code kafkamirrormaker2s}
     */
    public static ResourceDefinitionContext kafkaMirrorMaker2(StrimziApi api) {
        return context(StrimziApi.KAFKA_GROUP, api, KAFKA_MIRROR_MAKER_2, "kafkamirrormaker2s");
    }

    /**
     * @param api the served version
     * @return the context for {@code strimzipodsets} (group {@code core.strimzi.io})
     */
    public static ResourceDefinitionContext podSet(StrimziApi api) {
        return context(StrimziApi.CORE_GROUP, api, STRIMZI_POD_SET, "strimzipodsets");
    }

    private static ResourceDefinitionContext context(String group, StrimziApi api, String kind, String plural) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group).withVersion(api.version()).withKind(kind).withPlural(plural).withNamespaced(true)
                .build();
    }

    private static CustomResourceDefinition crd(String group, String kind, String plural, String singular,
                                                String shortName, StrimziApi api) {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName(plural + "." + group)
                .addToLabels("app", "strimzi").addToLabels("strimzi.io/crd-install", "true").endMetadata()
                .withNewSpec().withGroup(group).withScope("Namespaced")
                .withNewNames().withKind(kind).withListKind(kind + "List").withPlural(plural)
                .withSingular(singular).withShortNames(shortName).withCategories("strimzi").endNames()
                .addNewVersion().withName(api.version()).withServed(true).withStorage(true)
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema().endSchema()
                .endVersion().endSpec().build();
    }
}
