package dev.flowform.sim;

import dev.flowform.model.StrimziApi;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads of the Strimzi CRDs with their schemas: the store keeps them without (the mock would otherwise type every
 * CRD's schema at start-up, for nothing; docs/performance.md), and a GET answers the stored object with Strimzi's
 * versions and schemas.
 */
final class CrdReads {
    private static final String PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

    private final Map<String, Object> versionsByName = new LinkedHashMap<>();
    private final Function<RecordedRequest, MockResponse> store;

    /** @param store the mock's CRUD handling of a request */
    CrdReads(StrimziApi api, Function<RecordedRequest, MockResponse> store) {
        this.store = store;
        for (Map<String, Object> crd : StrimziCrds.documents(api)) {
            versionsByName.put(JsonMaps.str(crd, "metadata", "name"), JsonMaps.at(crd, "spec", "versions"));
        }
    }

    /**
     * @param crd one of {@link StrimziCrds#documents}
     * @return the copy the store keeps: every version without its {@code schema}
     */
    static Map<String, Object> stored(Map<String, Object> crd) {
        Map<String, Object> copy = JsonMaps.deepCopy(crd);
        JsonMaps.list(JsonMaps.at(copy, "spec", "versions")).forEach(v -> JsonMaps.map(v).remove("schema"));
        return copy;
    }

    /**
     * @return the CRD or CRD list with Strimzi's schemas when {@code request} is a GET of one (not a watch), else null
     */
    MockResponse answer(RecordedRequest request) {
        String raw = request.getPath() == null ? "" : request.getPath();
        int q = raw.indexOf('?');
        String path = q < 0 ? raw : raw.substring(0, q);
        if (request.method() != HttpMethod.GET || !(path.equals(PATH) || path.startsWith(PATH + "/")) || raw.contains("watch=")) {
            return null;
        }
        MockResponse stored = store.apply(new RecordedRequest("HTTP/1.1", HttpMethod.GET, path, Headers.builder().build(),
                new Buffer()));
        if (stored.code() != 200 || stored.getBody() == null) {
            return stored;
        }
        Map<String, Object> body = JsonMaps.map(JsonMaps.MAPPER.readValue(stored.getBody().getBytes(), Map.class));
        if (path.equals(PATH)) {
            JsonMaps.list(body.get("items")).forEach(i -> withSchemas(JsonMaps.map(i)));
        } else {
            withSchemas(body);
        }
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                .setBody(JsonMaps.MAPPER.writeValueAsString(body));
    }

    private void withSchemas(Map<String, Object> crd) {
        Object versions = versionsByName.get(JsonMaps.str(crd, "metadata", "name"));
        Map<String, Object> spec = JsonMaps.map(crd.get("spec"));
        if (versions != null && spec != null) {
            spec.put("versions", JsonMaps.deepCopy(versions));
        }
    }
}
