package dev.flowform.sim;

import dev.flowform.model.StrimziApi;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Strimzi's own CustomResourceDefinitions of the five kinds served, for one API version, generated at build time by
 * Strimzi's CRD generator ({@code src/crds/generate.sh}; provenance and licence in docs/strimzi-crds.md). The mock
 * serves one version per CRD without conversion, so a cluster is {@code v1beta2} or {@code v1}.
 */
public final class StrimziCrds {
    /** Kind of a Connect cluster. */
    public static final String KAFKA_CONNECT = "KafkaConnect";
    /** Kind of a connector. */
    public static final String KAFKA_CONNECTOR = "KafkaConnector";
    /** Kind of Strimzi's MirrorMaker 2 resource. */
    public static final String KAFKA_MIRROR_MAKER_2 = "KafkaMirrorMaker2";
    /** Kind of a user of Strimzi's User Operator, whose ACLs the planner reads. */
    public static final String KAFKA_USER = "KafkaUser";
    /** Kind of the pod set that owns Connect worker pods. */
    public static final String STRIMZI_POD_SET = "StrimziPodSet";

    /** The generated files, in the order {@link #documents(StrimziApi)} returns them (Strimzi's install file names). */
    private static final List<String> FILES = List.of("041-Crd-kafkaconnect.json", "047-Crd-kafkaconnector.json",
            "042-Crd-strimzipodset.json", "048-Crd-kafkamirrormaker2.json", "044-Crd-kafkauser.json");
    private static final Map<StrimziApi, List<Map<String, Object>>> LOADED = new EnumMap<>(StrimziApi.class);
    private static final Map<String, CrdSchema> SCHEMAS = new ConcurrentHashMap<>();

    private StrimziCrds() {
    }

    /**
     * @return the five Strimzi CRDs for {@code api} (KafkaConnect, KafkaConnector, StrimziPodSet, KafkaMirrorMaker2,
     *         KafkaUser, in that order), one served version each, read once per JVM and shared (never change them)
     * @throws IllegalStateException when the class path lacks them (a build that skipped {@code generate-resources})
     */
    static synchronized List<Map<String, Object>> documents(StrimziApi api) {
        List<Map<String, Object>> docs = LOADED.get(api);
        if (docs == null) {
            docs = new ArrayList<>();
            for (String file : FILES) {
                Map<String, Object> crd = read("crds/" + api.version() + "/" + file);
                Map<String, Object> spec = JsonMaps.map(crd.get("spec"));
                spec.put("versions", JsonMaps.list(spec.get("versions")).stream()
                        .filter(v -> api.version().equals(JsonMaps.map(v).get("name"))).toList());
                docs.add(crd);
            }
            docs = List.copyOf(docs);
            LOADED.put(api, docs);
        }
        return docs;
    }

    /**
     * The schema the API server applies to writes of one Strimzi resource, shared by every cluster of this JVM.
     *
     * @param plural e.g. {@code kafkaconnects}
     * @return the served version's schema, or null when {@code plural} is not one of the five Strimzi resources
     */
    static CrdSchema schema(StrimziApi api, String plural) {
        CrdSchema known = SCHEMAS.get(api.version() + "/" + plural);
        if (known != null) {
            return known;
        }
        for (Map<String, Object> crd : documents(api)) {
            if (!plural.equals(JsonMaps.str(crd, "spec", "names", "plural"))) {
                continue;
            }
            for (Object v : JsonMaps.list(JsonMaps.at(crd, "spec", "versions"))) {
                Map<String, Object> version = JsonMaps.map(v);
                if (api.version().equals(version.get("name"))) {
                    CrdSchema schema = new CrdSchema(JsonMaps.str(crd, "spec", "names", "kind"), JsonMaps.str(crd, "spec", "group"),
                            JsonMaps.MAPPER.valueToTree(JsonMaps.at(version, "schema", "openAPIV3Schema")));
                    return Objects.requireNonNullElse(SCHEMAS.putIfAbsent(api.version() + "/" + plural, schema), schema);
                }
            }
        }
        return null;
    }

    /**
     * Builds the schemas of the kinds the cluster holds and runs one validation through each on a daemon thread, so a
     * plan's first dry run does not wait for the validator.
     */
    static void warmUp(StrimziApi api, java.util.Set<String> kinds) {
        Thread t = new Thread(() -> {
            for (String plural : List.of("kafkaconnects", "kafkaconnectors", "kafkamirrormaker2s", "strimzipodsets",
                    "kafkausers")) {
                CrdSchema schema = schema(api, plural);
                if (kinds.contains(schema.kind())) {
                    schema.check(Map.of("apiVersion", schema.group() + "/" + api.version(), "kind", schema.kind(),
                            "metadata", Map.of("name", "warm-up"), "spec", Map.of()));
                }
            }
        }, "flowform-schema-warm-up");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    private static Map<String, Object> read(String resource) {
        try (InputStream in = StrimziCrds.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Strimzi's CRD " + resource + " is not on the class path: the build "
                        + "generates it (src/crds/generate.sh, Maven phase generate-resources); run \"mvn process-resources\"");
            }
            return JsonMaps.map(JsonMaps.MAPPER.readValue(in, Map.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
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
     * @return the context for {@code kafkausers}
     */
    public static ResourceDefinitionContext kafkaUser(StrimziApi api) {
        return context(StrimziApi.KAFKA_GROUP, api, KAFKA_USER, "kafkausers");
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
}
