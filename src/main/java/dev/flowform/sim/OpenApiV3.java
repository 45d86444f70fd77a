package dev.flowform.sim;

import dev.flowform.model.StrimziApi;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OpenAPI v3 documents of the Strimzi resources served (Kubernetes docs, "OpenAPI v3"): the list at
 * {@code /openapi/v3} and each group version's schemas and paths, which {@code kubectl explain} reads and from which
 * {@code kubectl apply} learns to leave field validation to the server. Immutable; built on first use.
 */
final class OpenApiV3 {
    private static final String ROOT = "/openapi/v3";

    private final Map<String, Map<String, Object>> documents = new LinkedHashMap<>();
    private final Map<String, Object> index;

    /** @param api the version the cluster serves */
    OpenApiV3(StrimziApi api) {
        Map<String, Map<String, Object>> byGroup = new LinkedHashMap<>();
        for (Map<String, Object> crd : StrimziCrds.documents(api)) {
            String group = JsonMaps.str(crd, "spec", "group");
            Map<String, Object> doc = byGroup.computeIfAbsent(group, g -> document());
            add(doc, crd, group, api.version());
        }
        Map<String, Object> paths = new LinkedHashMap<>();
        byGroup.forEach((group, doc) -> {
            String key = "apis/" + group + "/" + api.version();
            documents.put(ROOT + "/" + key, doc);
            paths.put(key, Map.of("serverRelativeURL", ROOT + "/" + key + "?hash=" + hash(doc)));
        });
        index = Map.of("paths", paths);
    }

    /**
     * @param path a request path without its query
     * @return the document at {@code path}: the index at {@code /openapi/v3}, a group version's document below it; null
     *         for any other path
     */
    Map<String, Object> document(String path) {
        return ROOT.equals(path) ? index : documents.get(path);
    }

    private static Map<String, Object> document() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("openapi", "3.0.0");
        doc.put("info", Map.of("title", "Kubernetes", "version", KubeDiscovery.GIT_VERSION));
        doc.put("paths", new LinkedHashMap<String, Object>());
        doc.put("components", new LinkedHashMap<>(Map.of("schemas", new LinkedHashMap<String, Object>())));
        return doc;
    }

    /** Adds one kind's schema and paths to its group version's document. */
    private static void add(Map<String, Object> doc, Map<String, Object> crd, String group, String version) {
        String kind = JsonMaps.str(crd, "spec", "names", "kind");
        String plural = JsonMaps.str(crd, "spec", "names", "plural");
        Map<String, Object> served = JsonMaps.map(JsonMaps.list(JsonMaps.at(crd, "spec", "versions")).get(0));
        String[] domain = group.split("\\.");
        StringBuilder reversed = new StringBuilder();
        for (int i = domain.length - 1; i >= 0; i--) {
            reversed.append(domain[i]).append('.');
        }
        String name = reversed + version + "." + kind;
        Map<String, Object> gvk = Map.of("group", group, "version", version, "kind", kind);
        Map<String, Object> schema = new LinkedHashMap<>(JsonMaps.map(JsonMaps.at(served, "schema", "openAPIV3Schema")));
        schema.put("x-kubernetes-group-version-kind", List.of(gvk));
        JsonMaps.map(JsonMaps.map(doc.get("components")).get("schemas")).put(name, schema);

        Map<String, Object> ref = Map.of("200", Map.of("description", "OK", "content", Map.of("application/json",
                Map.of("schema", Map.of("$ref", "#/components/schemas/" + name)))));
        String collection = "/apis/" + group + "/" + version + "/namespaces/{namespace}/" + plural;
        Map<String, Object> paths = JsonMaps.map(doc.get("paths"));
        List<Map<String, Object>> writes = List.of(query("dryRun"), query("fieldManager"), query("fieldValidation"));
        paths.put(collection, Map.of("post", operation("create", gvk, ref, writes)));
        paths.put(collection + "/{name}", Map.of("get", operation("get", gvk, ref, List.of()),
                "put", operation("update", gvk, ref, writes), "patch", operation("patch", gvk, ref, writes),
                "delete", operation("delete", gvk, ref, List.of(query("dryRun")))));
    }

    private static Map<String, Object> operation(String action, Map<String, Object> gvk, Map<String, Object> responses,
                                                 List<Map<String, Object>> parameters) {
        Map<String, Object> op = new LinkedHashMap<>();
        op.put("x-kubernetes-action", action);
        op.put("x-kubernetes-group-version-kind", gvk);
        op.put("parameters", parameters);
        op.put("responses", responses);
        return op;
    }

    private static Map<String, Object> query(String name) {
        return Map.of("name", name, "in", "query", "schema", Map.of("type", "string", "uniqueItems", true));
    }

    private static String hash(Map<String, Object> doc) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-512").digest(JsonMaps.canonicalJson(doc).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 32).toUpperCase(java.util.Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-512 is missing from this JVM", e);
        }
    }
}
