package dev.flowform.sim;

import dev.flowform.model.StrimziApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The unaggregated discovery documents kubectl reads first (Kubernetes docs, "Discovering cluster APIs"):
 * {@code /version}, {@code /api}, {@code /api/v1}, {@code /apis} and each group version's {@code APIResourceList}; the
 * mock serves none in a form kubectl accepts. Immutable and thread-safe.
 */
final class KubeDiscovery {
    /** The Kubernetes version the embedded cluster claims: the API it imitates. */
    static final String GIT_VERSION = "v1.33.0-flowform-embedded";
    private static final List<String> ALL_VERBS = List.of("create", "delete", "deletecollection", "get", "list", "patch",
            "update", "watch");

    private final Map<String, Map<String, Object>> documents = new LinkedHashMap<>();

    /** @param api the Strimzi version the cluster serves */
    KubeDiscovery(StrimziApi api) {
        documents.put("/version", Map.of("major", "1", "minor", "33", "gitVersion", GIT_VERSION, "platform", "linux/amd64"));
        documents.put("/api", Map.of("kind", "APIVersions", "versions", List.of("v1"), "serverAddressByClientCIDRs",
                List.of(Map.of("clientCIDR", "0.0.0.0/0", "serverAddress", "127.0.0.1"))));
        documents.put("/api/v1", resourceList("v1", List.of(
                resource("pods", "Pod", true, List.of("po"), List.of("all")),
                resource("configmaps", "ConfigMap", true, List.of("cm"), List.of()),
                resource("secrets", "Secret", true, List.of(), List.of()),
                resource("events", "Event", true, List.of("ev"), List.of()),
                resource("namespaces", "Namespace", false, List.of("ns"), List.of()))));
        documents.put("/apis/coordination.k8s.io/v1", resourceList("coordination.k8s.io/v1",
                List.of(resource("leases", "Lease", true, List.of(), List.of()))));
        documents.put("/apis/apiextensions.k8s.io/v1", resourceList("apiextensions.k8s.io/v1", List.of(
                resource("customresourcedefinitions", "CustomResourceDefinition", false, List.of("crd", "crds"),
                        List.of("api-extensions")))));
        Map<String, List<Map<String, Object>>> byGroup = new LinkedHashMap<>();
        for (Map<String, Object> crd : StrimziCrds.documents(api)) {
            Map<String, Object> n = JsonMaps.map(JsonMaps.at(crd, "spec", "names"));
            List<Map<String, Object>> list = byGroup.computeIfAbsent(JsonMaps.str(crd, "spec", "group"), g -> new ArrayList<>());
            list.add(resource(String.valueOf(n.get("plural")), String.valueOf(n.get("kind")), true, strings(n.get("shortNames")),
                    strings(n.get("categories"))));
        }
        List<Map<String, Object>> groups = new ArrayList<>();
        groups.add(group("coordination.k8s.io", "v1"));
        groups.add(group("apiextensions.k8s.io", "v1"));
        byGroup.forEach((g, resources) -> {
            documents.put("/apis/" + g + "/" + api.version(), resourceList(g + "/" + api.version(), resources));
            groups.add(group(g, api.version()));
        });
        for (Map<String, Object> g : groups) {
            documents.put("/apis/" + g.get("name"), g);
        }
        documents.put("/apis", Map.of("kind", "APIGroupList", "apiVersion", "v1", "groups", groups));
    }

    /**
     * @param path a request path without its query
     * @return the discovery document at {@code path}, or null when it is not one
     */
    Map<String, Object> document(String path) {
        String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        return documents.get(p);
    }

    private static List<String> strings(Object list) {
        return JsonMaps.list(list).stream().map(String::valueOf).toList();
    }

    private static Map<String, Object> group(String name, String version) {
        Map<String, Object> gv = Map.of("groupVersion", name + "/" + version, "version", version);
        return Map.of("kind", "APIGroup", "apiVersion", "v1", "name", name, "versions", List.of(gv),
                "preferredVersion", gv);
    }

    private static Map<String, Object> resourceList(String groupVersion, List<Map<String, Object>> resources) {
        return Map.of("kind", "APIResourceList", "apiVersion", "v1", "groupVersion", groupVersion, "resources", resources);
    }

    private static Map<String, Object> resource(String name, String kind, boolean namespaced, List<String> shortNames,
                                                List<String> categories) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", name);
        r.put("singularName", kind.toLowerCase(java.util.Locale.ROOT));
        r.put("namespaced", namespaced);
        r.put("kind", kind);
        r.put("verbs", ALL_VERBS);
        if (shortNames != null && !shortNames.isEmpty()) {
            r.put("shortNames", shortNames);
        }
        if (categories != null && !categories.isEmpty()) {
            r.put("categories", categories);
        }
        return r;
    }
}
