package dev.flowform.sim;

import dev.flowform.model.StrimziApi;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the API server does with a write to a Strimzi object before storing it, in its order: authorization
 * ({@link SimFaults#forbid}), the resulting object ({@link PatchedObject}), pruning and validation ({@link CrdSchema}),
 * validating admission ({@link SimFaults#denyField}), then storing it or, for {@code dryRun=All}, only answering. The
 * mock then gets the write in the API server's terms (pruned body, a PATCH as the PUT of its result). A Strimzi
 * version not served is answered 404 (no conversion).
 */
final class StrimziAdmission {
    private static final Pattern PATH = Pattern.compile(
            "^/apis/(kafka\\.strimzi\\.io|core\\.strimzi\\.io)/([^/?]+)(?:/namespaces/([^/?]+))?(?:/([^/?]+))?(?:/([^/?]+))?(?:/(status))?$");
    private static final int PATCH_ATTEMPTS = 5;

    private final StrimziApi api;
    private final Function<RecordedRequest, MockResponse> store;
    private final SimFaults faults;

    /**
     * @param api    the version the cluster serves
     * @param store  the mock's CRUD handling of a request
     * @param faults the authorization and admission switches
     */
    StrimziAdmission(StrimziApi api, Function<RecordedRequest, MockResponse> store, SimFaults faults) {
        this.api = api;
        this.store = store;
        this.faults = faults;
    }

    /** One request to a Strimzi resource, as its path and query name it. */
    private record Target(String group, String version, String namespace, String plural, String name, boolean status,
                          Map<String, String> query) {
        boolean dryRun() {
            return query.containsKey("dryRun");
        }

        String resource() {
            return plural + "." + group;
        }

        String collectionPath() {
            return "/apis/" + group + "/" + version + "/namespaces/" + namespace + "/" + plural;
        }

        String objectPath() {
            return collectionPath() + "/" + name;
        }
    }

    /**
     * @param request  a request, its query included
     * @param internal true for the simulator's own client, which authorization and admission policies let through
     * @return the answer, or null when the request is not a write to a served Strimzi object (the store answers it)
     */
    MockResponse answer(RecordedRequest request, boolean internal) {
        String raw = request.getPath() == null ? "" : request.getPath();
        int q = raw.indexOf('?');
        Matcher m = PATH.matcher(q < 0 ? raw : raw.substring(0, q));
        if (!m.matches()) {
            return null;
        }
        if (!api.version().equals(m.group(2))) {
            return ApiStatus.of(404, "NotFound", "the server could not find the requested resource (the embedded cluster "
                    + "serves Strimzi " + api.version() + " only, without conversion)", null);
        }
        HttpMethod method = request.method();
        boolean write = method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH
                || method == HttpMethod.DELETE;
        CrdSchema schema = m.group(4) == null ? null : StrimziCrds.schema(api, m.group(4));
        if (!write || schema == null || m.group(3) == null) {
            return null;
        }
        Target t = new Target(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6) != null,
                query(q < 0 ? "" : raw.substring(q + 1)));
        String dry = t.query().get("dryRun");
        if (dry != null && !dry.equals("All")) {
            return ApiStatus.of(400, "BadRequest", "Invalid dry run value: " + dry + " (only All is supported)", null);
        }
        String verb = verb(method);
        if (!internal && faults.isForbidden(verb, t.plural())) {
            return forbidden(verb, t);
        }
        if (method == HttpMethod.DELETE) {
            return t.dryRun() ? dryDelete(t) : null;
        }
        return admit(request, t, schema, internal);
    }

    private MockResponse admit(RecordedRequest request, Target t, CrdSchema schema, boolean internal) {
        for (int attempt = 1; ; attempt++) {
            PatchedObject.Outcome outcome = PatchedObject.of(request, t.name() == null ? null : current(t), t.status());
            if (outcome.refusal() != null) {
                return outcome.refusal();
            }
            Map<String, Object> object = outcome.object();
            MockResponse wrongType = checkType(object, t, schema);
            if (wrongType != null) {
                return wrongType;
            }
            CrdSchema.Result checked = schema.check(object);
            // the simulated operator is held to Strict: a field Strimzi's schema does not know is a simulator bug
            String validation = t.query().getOrDefault("fieldValidation", internal ? "Strict" : "Warn");
            if ("Strict".equals(validation) && !checked.pruned().isEmpty()) {
                return ApiStatus.of(400, "BadRequest", schema.kind() + " in version \"" + t.version() + "\" cannot be handled as a "
                        + schema.kind() + ": strict decoding error: " + String.join(", ", checked.pruned().stream()
                        .map(f -> "unknown field \"" + f + "\"").toList()), null);
            }
            if (!checked.valid()) {
                return invalid(t, schema, JsonMaps.str(object, "metadata", "name"), checked.causes());
            }
            MockResponse denied = internal ? null : denial(schema, checked.object());
            if (denied != null) {
                return denied;
            }
            MockResponse answer = t.dryRun() ? dryRun(request.method(), t, checked.object(), outcome.current())
                    : store(request, t, checked.object());
            if (answer.code() == 409 && !t.dryRun() && outcome.retryOnConflict() && attempt < PATCH_ATTEMPTS) {
                continue;
            }
            if ("Warn".equals(validation) && !checked.pruned().isEmpty()) {
                answer.addHeader("Warning", String.join(", ", checked.pruned().stream()
                        .map(f -> "299 - \"unknown field \\\"" + f + "\\\"\"").toList()));
            }
            return answer;
        }
    }

    private MockResponse dryRun(HttpMethod method, Target t, Map<String, Object> object, Map<String, Object> current) {
        Map<String, Object> stored = current;
        if (method == HttpMethod.POST) {
            String name = JsonMaps.str(object, "metadata", "name");
            stored = name == null ? null : current(new Target(t.group(), t.version(), t.namespace(), t.plural(), name, false,
                    t.query()));
        }
        return DryRunAnswer.of(method, t.status(), object, stored, t.resource());
    }

    /** Hands the admitted object to the mock: POST as it is, a PUT or PATCH as the PUT of the result. */
    private MockResponse store(RecordedRequest request, Target t, Map<String, Object> object) {
        HttpMethod method = request.method() == HttpMethod.POST ? HttpMethod.POST : HttpMethod.PUT;
        String path = method == HttpMethod.POST ? t.collectionPath() : t.objectPath() + (t.status() ? "/status" : "");
        Headers headers = request.getHeaders().newBuilder().set("Content-Type", "application/json").build();
        return store.apply(new RecordedRequest(request.getHttpVersion() == null ? "HTTP/1.1" : request.getHttpVersion(),
                method, path, headers, new Buffer(JsonMaps.MAPPER.writeValueAsBytes(object))));
    }

    /** @return the stored object at the request's name, or null when there is none */
    private Map<String, Object> current(Target t) {
        MockResponse r = store.apply(new RecordedRequest("HTTP/1.1", HttpMethod.GET, t.objectPath(), Headers.builder().build(),
                new Buffer()));
        if (r.code() != 200 || r.getBody() == null) {
            return null;
        }
        return JsonMaps.map(JsonMaps.MAPPER.readValue(r.getBody().getBytes(), Map.class));
    }

    private MockResponse dryDelete(Target t) {
        Map<String, Object> current = current(t);
        if (current == null) {
            return ApiStatus.of(404, "NotFound", t.resource() + " \"" + t.name() + "\" not found",
                    ApiStatus.details(t.name(), t.group(), t.plural(), List.of()));
        }
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                .setBody(JsonMaps.MAPPER.writeValueAsString(current));
    }

    private MockResponse checkType(Map<String, Object> object, Target t, CrdSchema schema) {
        String expected = t.group() + "/" + t.version();
        Object apiVersion = object.get("apiVersion");
        Object kind = object.get("kind");
        if (apiVersion != null && !expected.equals(apiVersion) || kind != null && !schema.kind().equals(kind)) {
            return ApiStatus.of(400, "BadRequest", "the API version in the data (" + apiVersion + ") does not match the "
                    + "expected API version (" + expected + "), or the kind (" + kind + ") the expected kind ("
                    + schema.kind() + ")", null);
        }
        String ns = JsonMaps.str(object, "metadata", "namespace");
        if (ns != null && !ns.equals(t.namespace())) {
            return ApiStatus.of(400, "BadRequest", "the namespace of the provided object does not match the namespace sent "
                    + "on the request", null);
        }
        return null;
    }

    private static MockResponse invalid(Target t, CrdSchema schema, String name, List<CrdSchema.Cause> causes) {
        List<Map<String, Object>> details = causes.stream().map(c -> {
            Map<String, Object> cause = new LinkedHashMap<>();
            cause.put("reason", c.reason());
            cause.put("message", c.message());
            cause.put("field", c.field());
            return cause;
        }).toList();
        List<String> lines = causes.stream().map(c -> c.field() + ": " + c.message()).toList();
        String message = schema.kind() + "." + t.group() + " \"" + name + "\" is invalid: "
                + (lines.size() == 1 ? lines.get(0) : "[" + String.join(", ", lines) + "]");
        return ApiStatus.of(422, "Invalid", message, ApiStatus.details(name, t.group(), schema.kind(), details));
    }

    private MockResponse denial(CrdSchema schema, Map<String, Object> object) {
        for (SimFaults.FieldDenial d : faults.denials()) {
            if (d.kind().equals(schema.kind()) && at(object, d.pointer()) != null) {
                return ApiStatus.of(400, "BadRequest", "admission webhook \"policy.flowform.dev\" denied the request: "
                        + d.message(), null);
            }
        }
        return null;
    }

    private static MockResponse forbidden(String verb, Target t) {
        String who = t.name() == null ? t.resource() : t.resource() + " \"" + t.name() + "\"";
        return ApiStatus.of(403, "Forbidden", who + " is forbidden: User \"" + EmbeddedCluster.CONTEXT + "\" cannot " + verb
                + " resource \"" + t.plural() + (t.status() ? "/status" : "") + "\" in API group \"" + t.group()
                + "\" in the namespace \"" + t.namespace() + "\"", ApiStatus.details(t.name(), t.group(), t.plural(), List.of()));
    }

    /** @return the RBAC verb of a request (Kubernetes docs, "Authorization": request verbs) */
    private static String verb(HttpMethod method) {
        return switch (method) {
            case POST -> "create";
            case PUT -> "update";
            case PATCH -> "patch";
            default -> "delete";
        };
    }

    /** @return the value at a JSON pointer ({@code ~1} for {@code /}, {@code ~0} for {@code ~}), or null */
    static Object at(Map<String, Object> object, String pointer) {
        Object cur = object;
        for (String raw : pointer.substring(pointer.startsWith("/") ? 1 : 0).split("/", -1)) {
            String key = raw.replace("~1", "/").replace("~0", "~");
            if (cur instanceof Map<?, ?> m) {
                cur = m.get(key);
            } else if (cur instanceof List<?> l && key.matches("\\d+") && Integer.parseInt(key) < l.size()) {
                cur = l.get(Integer.parseInt(key));
            } else {
                return null;
            }
        }
        return cur;
    }

    private static Map<String, String> query(String query) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            out.put(key, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }
}
