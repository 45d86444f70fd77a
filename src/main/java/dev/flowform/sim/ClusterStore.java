package dev.flowform.sim;

import dev.flowform.model.StrimziApi;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import tools.jackson.core.JsonParser;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.ObjectReader;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Moves objects between files and the embedded API server: reads seed manifests, creates objects straight in the
 * server's store (no client, no socket: the cluster loads before anyone connects) with their stored generation
 * (restored by {@code generation - 1} spec updates, as the mock resets it) and status, and dumps the persisted kinds.
 */
final class ClusterStore {
    /** Kinds the cluster persists, in the order they are created. */
    static final List<String> KINDS = List.of("Namespace", "ConfigMap", "Secret", StrimziCrds.KAFKA_CONNECT,
            StrimziCrds.STRIMZI_POD_SET, "Pod", StrimziCrds.KAFKA_CONNECTOR, StrimziCrds.KAFKA_MIRROR_MAKER_2,
            StrimziCrds.KAFKA_USER);
    private static final String SEED_MARKER = "flowformSimSeedStep";
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private final KubernetesClient client;
    private final StrimziApi api;

    ClusterStore(KubernetesClient client, StrimziApi api) {
        this.client = client;
        this.api = api;
    }

    /**
     * Reads every {@code *.yaml} / {@code *.yml} file of {@code dir} in name order, several documents each ({@code kind:
     * List} flattened, empty ones skipped); an unreadable file or a document that is no object throws.
     */
    static List<Map<String, Object>> readSeedDir(Path dir) {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> {
                String n = p.getFileName().toString();
                return Files.isRegularFile(p) && (n.endsWith(".yaml") || n.endsWith(".yml"));
            }).sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list seed folder " + dir, e);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        ObjectReader reader = YAML.readerFor(Map.class);
        for (Path f : files) {
            try (InputStream in = Files.newInputStream(f); JsonParser parser = YAML.createParser(in);
                 MappingIterator<Object> it = reader.readValues(parser)) {
                int doc = 0;
                while (it.hasNextValue()) {
                    doc++;
                    Object value = it.nextValue();
                    Map<String, Object> m = JsonMaps.map(value);
                    if (m == null || m.isEmpty()) {
                        continue;
                    }
                    if ("List".equals(m.get("kind")) || String.valueOf(m.get("kind")).endsWith("List")) {
                        JsonMaps.list(m.get("items")).forEach(i -> out.add(checkObject(JsonMaps.map(i), f, -1)));
                    } else {
                        out.add(checkObject(m, f, doc));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read seed file " + f, e);
            } catch (RuntimeException e) {
                if (e instanceof IllegalArgumentException) {
                    throw e;
                }
                throw new IllegalArgumentException("seed file " + f + " is not valid YAML: " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static Map<String, Object> checkObject(Map<String, Object> m, Path file, int doc) {
        String where = file + (doc > 0 ? " document " + doc : "");
        if (m == null || m.get("kind") == null || m.get("apiVersion") == null || JsonMaps.str(m, "metadata", "name") == null) {
            throw new IllegalArgumentException(where + ": not a Kubernetes object (apiVersion, kind and metadata.name are required)");
        }
        if (!KINDS.contains(m.get("kind").toString())) {
            throw new IllegalArgumentException(where + ": kind " + m.get("kind") + " is not supported by the embedded cluster "
                    + "(supported: " + String.join(", ", KINDS) + ")");
        }
        return m;
    }

    /**
     * @param objects seed or persisted objects
     * @return the Strimzi API version their Strimzi objects use, or null when there are none
     * @throws IllegalArgumentException when they mix versions
     */
    static StrimziApi detectApi(List<Map<String, Object>> objects) {
        Set<StrimziApi> found = new LinkedHashSet<>();
        for (Map<String, Object> o : objects) {
            String av = String.valueOf(o.get("apiVersion"));
            if (av.startsWith(StrimziApi.KAFKA_GROUP + "/") || av.startsWith(StrimziApi.CORE_GROUP + "/")) {
                StrimziApi a = StrimziApi.fromApiVersion(av);
                if (a == null) {
                    throw new IllegalArgumentException("unsupported Strimzi apiVersion " + av + " (use v1beta2 or v1)");
                }
                found.add(a);
            }
        }
        if (found.size() > 1) {
            throw new IllegalArgumentException("objects mix Strimzi API versions " + found
                    + "; the embedded cluster serves exactly one version");
        }
        return found.isEmpty() ? null : found.iterator().next();
    }

    /**
     * Holds seed objects to Strimzi's schemas strictly (an unknown field is an error, not pruned: a seed says what
     * Strimzi's objects look like); throws naming each object and field that does not match.
     */
    static void checkSchemas(List<Map<String, Object>> objects, StrimziApi api) {
        List<String> problems = new ArrayList<>();
        for (Map<String, Object> o : objects) {
            CrdSchema schema = switch (String.valueOf(o.get("kind"))) {
                case StrimziCrds.KAFKA_CONNECT -> StrimziCrds.schema(api, "kafkaconnects");
                case StrimziCrds.KAFKA_CONNECTOR -> StrimziCrds.schema(api, "kafkaconnectors");
                case StrimziCrds.KAFKA_MIRROR_MAKER_2 -> StrimziCrds.schema(api, "kafkamirrormaker2s");
                case StrimziCrds.STRIMZI_POD_SET -> StrimziCrds.schema(api, "strimzipodsets");
                case StrimziCrds.KAFKA_USER -> StrimziCrds.schema(api, "kafkausers");
                default -> null;
            };
            if (schema == null) {
                continue;
            }
            CrdSchema.Result r = schema.check(o);
            List<String> why = new ArrayList<>();
            r.pruned().forEach(f -> why.add(f + ": unknown field"));
            r.causes().forEach(c -> why.add(c.field() + ": " + c.message()));
            if (!why.isEmpty()) {
                problems.add(o.get("kind") + " " + namespaceOf(o) + "/" + JsonMaps.str(o, "metadata", "name")
                        + " does not match Strimzi's " + api.version() + " schema: " + String.join("; ", why));
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
    }

    /** One write to the API server's store: method, path and body in, the stored object out. */
    @FunctionalInterface
    interface Writer {
        /**
         * @param method POST or PUT
         * @param path   the request path
         * @param body   the object
         * @return the object as stored
         * @throws IllegalStateException when the store refuses the write
         */
        Map<String, Object> write(HttpMethod method, String path, Map<String, Object> body);
    }

    /**
     * Creates {@code objects} through {@code writer} (no client, no HTTP): namespaces first, then the kinds in
     * {@link #KINDS} order, restoring generations and statuses; throws naming an object of another API version or one
     * the store refuses.
     */
    static void load(List<Map<String, Object>> objects, StrimziApi api, Writer writer) {
        for (Map<String, Object> o : objects) {
            String kind = String.valueOf(o.get("kind"));
            if (kind.equals(StrimziCrds.KAFKA_CONNECT) || kind.equals(StrimziCrds.KAFKA_CONNECTOR)
                    || kind.equals(StrimziCrds.STRIMZI_POD_SET) || kind.equals(StrimziCrds.KAFKA_MIRROR_MAKER_2)
                    || kind.equals(StrimziCrds.KAFKA_USER)) {
                StrimziApi a = StrimziApi.fromApiVersion(String.valueOf(o.get("apiVersion")));
                if (a != api) {
                    throw new IllegalArgumentException(kind + " " + JsonMaps.str(o, "metadata", "name") + " uses apiVersion "
                            + o.get("apiVersion") + " but the embedded cluster serves " + api.version());
                }
            }
        }
        Set<String> namespaces = new LinkedHashSet<>();
        Map<String, Map<String, Object>> explicit = new LinkedHashMap<>();
        for (Map<String, Object> o : objects) {
            if ("Namespace".equals(o.get("kind"))) {
                explicit.put(JsonMaps.str(o, "metadata", "name"), o);
                namespaces.add(JsonMaps.str(o, "metadata", "name"));
            } else {
                namespaces.add(namespaceOf(o));
            }
        }
        for (String ns : namespaces) {
            Map<String, Object> body = explicit.get(ns);
            Map<String, Object> n = body == null ? new LinkedHashMap<>(Map.of("metadata", new LinkedHashMap<>(Map.of("name", ns))))
                    : strip(body);
            n.put("apiVersion", "v1");
            n.put("kind", "Namespace");
            writer.write(HttpMethod.POST, "/api/v1/namespaces", n);
        }
        for (String kind : KINDS.subList(1, KINDS.size())) {
            for (Map<String, Object> o : objects) {
                if (kind.equals(o.get("kind"))) {
                    try {
                        create(o, api, writer);
                    } catch (IllegalStateException e) {
                        throw new IllegalArgumentException(kind + " " + namespaceOf(o) + "/" + JsonMaps.str(o, "metadata", "name")
                                + ": " + e.getMessage(), e);
                    }
                }
            }
        }
    }

    private static void create(Map<String, Object> original, StrimziApi api, Writer writer) {
        String kind = String.valueOf(original.get("kind"));
        String ns = namespaceOf(original);
        Map<String, Object> body = strip(original);
        JsonMaps.map(body.get("metadata")).put("namespace", ns);
        String core = "/api/v1/namespaces/" + ns + "/";
        switch (kind) {
            case "ConfigMap" -> writer.write(HttpMethod.POST, core + "configmaps", body);
            case "Secret" -> writer.write(HttpMethod.POST, core + "secrets", body);
            case "Pod" -> {
                // the mock keeps a Pod's status on create (Pods have no status subresource there)
                if (original.get("status") != null) {
                    body.put("status", JsonMaps.deepCopy(original.get("status")));
                }
                writer.write(HttpMethod.POST, core + "pods", body);
            }
            default -> createCustom(kind, ns, original, body, api, writer);
        }
    }

    private static void createCustom(String kind, String ns, Map<String, Object> original, Map<String, Object> body,
                                     StrimziApi api, Writer writer) {
        ResourceDefinitionContext ctx = switch (kind) {
            case StrimziCrds.KAFKA_CONNECT -> StrimziCrds.kafkaConnect(api);
            case StrimziCrds.KAFKA_CONNECTOR -> StrimziCrds.kafkaConnector(api);
            case StrimziCrds.KAFKA_MIRROR_MAKER_2 -> StrimziCrds.kafkaMirrorMaker2(api);
            case StrimziCrds.KAFKA_USER -> StrimziCrds.kafkaUser(api);
            default -> StrimziCrds.podSet(api);
        };
        String list = "/apis/" + ctx.getGroup() + "/" + ctx.getVersion() + "/namespaces/" + ns + "/" + ctx.getPlural();
        String one = list + "/" + JsonMaps.str(body, "metadata", "name");
        Long storedGeneration = JsonMaps.lng(original, "metadata", "generation");
        long generation = storedGeneration == null ? 1 : Math.max(1, storedGeneration);
        Object status = original.get("status");
        Map<String, Object> spec = JsonMaps.map(body.get("spec"));
        boolean restore = generation > 1 && spec != null;
        if (restore) {
            Map<String, Object> marked = new LinkedHashMap<>(spec);
            marked.put(SEED_MARKER, 0);
            body.put("spec", marked);
        }
        Map<String, Object> current = writer.write(HttpMethod.POST, list, body);
        if (restore) {
            for (long step = 1; step < generation - 1; step++) {
                Map<String, Object> marked = new LinkedHashMap<>(spec);
                marked.put(SEED_MARKER, step);
                current.put("spec", marked);
                current = writer.write(HttpMethod.PUT, one, current);
            }
            current.put("spec", spec);
            current = writer.write(HttpMethod.PUT, one, current);
        }
        if (status != null) {
            current.put("status", status);
            writer.write(HttpMethod.PUT, one + "/status", current);
        }
    }

    /** @return every persisted object without server-assigned fields, sorted by kind, namespace and name */
    List<Map<String, Object>> dump() {
        List<HasMetadata> all = new ArrayList<>();
        all.addAll(client.namespaces().list().getItems());
        all.addAll(client.configMaps().inAnyNamespace().list().getItems());
        all.addAll(client.secrets().inAnyNamespace().list().getItems());
        all.addAll(client.genericKubernetesResources(StrimziCrds.kafkaConnect(api)).inAnyNamespace().list().getItems());
        all.addAll(client.genericKubernetesResources(StrimziCrds.podSet(api)).inAnyNamespace().list().getItems());
        all.addAll(client.pods().inAnyNamespace().list().getItems());
        all.addAll(client.genericKubernetesResources(StrimziCrds.kafkaConnector(api)).inAnyNamespace().list().getItems());
        all.addAll(client.genericKubernetesResources(StrimziCrds.kafkaMirrorMaker2(api)).inAnyNamespace().list().getItems());
        all.addAll(client.genericKubernetesResources(StrimziCrds.kafkaUser(api)).inAnyNamespace().list().getItems());
        List<Map<String, Object>> out = new ArrayList<>();
        for (HasMetadata o : all) {
            out.add(JsonMaps.toMap(o));
        }
        return clean(out);
    }

    /**
     * Lists every persisted kind through {@code lister} (path of a cluster-wide list to its items) instead of a
     * client, so the API server can persist from inside its own request handling.
     *
     * @param api    the served Strimzi version
     * @param lister path of a list to its items as JSON-like maps
     * @return the same as {@link #dump()}
     */
    static List<Map<String, Object>> dump(StrimziApi api, Function<String, List<Map<String, Object>>> lister) {
        String kafka = "/apis/" + StrimziApi.KAFKA_GROUP + "/" + api.version() + "/";
        String core = "/apis/" + StrimziApi.CORE_GROUP + "/" + api.version() + "/";
        List<Map<String, Object>> out = new ArrayList<>();
        out.addAll(withKind(lister.apply("/api/v1/namespaces"), "v1", "Namespace"));
        out.addAll(withKind(lister.apply("/api/v1/configmaps"), "v1", "ConfigMap"));
        out.addAll(withKind(lister.apply("/api/v1/secrets"), "v1", "Secret"));
        out.addAll(withKind(lister.apply(kafka + "kafkaconnects"), api.kafkaApiVersion(), StrimziCrds.KAFKA_CONNECT));
        out.addAll(withKind(lister.apply(core + "strimzipodsets"), api.coreApiVersion(), StrimziCrds.STRIMZI_POD_SET));
        out.addAll(withKind(lister.apply("/api/v1/pods"), "v1", "Pod"));
        out.addAll(withKind(lister.apply(kafka + "kafkaconnectors"), api.kafkaApiVersion(), StrimziCrds.KAFKA_CONNECTOR));
        out.addAll(withKind(lister.apply(kafka + "kafkamirrormaker2s"), api.kafkaApiVersion(), StrimziCrds.KAFKA_MIRROR_MAKER_2));
        out.addAll(withKind(lister.apply(kafka + "kafkausers"), api.kafkaApiVersion(), StrimziCrds.KAFKA_USER));
        return clean(out);
    }

    private static List<Map<String, Object>> withKind(List<Map<String, Object>> items, String apiVersion, String kind) {
        for (Map<String, Object> m : items) {
            m.putIfAbsent("apiVersion", apiVersion);
            m.putIfAbsent("kind", kind);
        }
        return items;
    }

    private static List<Map<String, Object>> clean(List<Map<String, Object>> objects) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> m : objects) {
            Map<String, Object> meta = JsonMaps.map(m.get("metadata"));
            if (meta != null) {
                for (String k : List.of("resourceVersion", "uid", "creationTimestamp", "managedFields", "selfLink")) {
                    meta.remove(k);
                }
            }
            out.add(m);
        }
        out.sort(Comparator.comparing((Map<String, Object> m) -> KINDS.indexOf(String.valueOf(m.get("kind"))))
                .thenComparing(m -> String.valueOf(JsonMaps.str(m, "metadata", "namespace")))
                .thenComparing(m -> String.valueOf(JsonMaps.str(m, "metadata", "name"))));
        return out;
    }

    private static Map<String, Object> strip(Map<String, Object> original) {
        Map<String, Object> body = JsonMaps.deepCopy(original);
        body.remove("status");
        Map<String, Object> meta = JsonMaps.map(body.get("metadata"));
        for (String k : List.of("resourceVersion", "uid", "creationTimestamp", "managedFields", "selfLink", "generation",
                "deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences")) {
            meta.remove(k);
        }
        return body;
    }

    private static String namespaceOf(Map<String, Object> o) {
        String ns = JsonMaps.str(o, "metadata", "namespace");
        return ns == null ? "default" : ns;
    }
}
