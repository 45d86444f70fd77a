package dev.flowform.sim;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.Map;

/**
 * What kubectl needs beyond fabric8's CRUD mock, so that {@code kubectl get}, {@code describe}, {@code patch},
 * {@code edit}, {@code annotate} and {@code delete} work: discovery ({@link KubeDiscovery}), printer-column tables
 * ({@link PrinterColumns}), CRDs with schemas ({@link CrdReads}), {@code /openapi/v3} ({@link OpenApiV3}) and an empty
 * {@code /openapi/v2}, strategic merge patches taken as merge patches, write queries dropped, and dry runs of anything
 * but Strimzi objects refused. No server-side apply, no streaming watches.
 */
final class KubectlCompat {
    private static final String STRATEGIC = "application/strategic-merge-patch+json";
    private static final String MERGE = "application/merge-patch+json";

    private final KubeDiscovery discovery;
    private final dev.flowform.model.StrimziApi api;
    private final PrinterColumns tables;
    private final CrdReads crds;
    private volatile OpenApiV3 openApi;

    /**
     * @param discovery the documents to serve
     * @param api       the Strimzi version served, whose CRD schemas the OpenAPI v3 documents hold
     * @param store     the mock's CRUD handling of a request, for the reads answered here
     */
    KubectlCompat(KubeDiscovery discovery, dev.flowform.model.StrimziApi api,
                  java.util.function.Function<RecordedRequest, MockResponse> store) {
        this.discovery = discovery;
        this.api = api;
        this.tables = new PrinterColumns(api, store);
        this.crds = new CrdReads(api, store);
    }

    /** @return the answer when the request is for discovery or OpenAPI, else null (the CRUD dispatcher answers) */
    MockResponse answer(RecordedRequest request) {
        String path = bare(request.getPath());
        if (request.method() == HttpMethod.GET) {
            Map<String, Object> doc = discovery.document(path);
            if (doc != null) {
                return json(200, doc);
            }
            if (path.equals("/openapi/v2")) {
                return openApiV2(request.getHeader("Accept"));
            }
            if (path.equals("/openapi/v3") || path.startsWith("/openapi/v3/")) {
                Map<String, Object> v3 = openApi().document(path);
                return v3 != null ? json(200, v3) : status(404, "NotFound", "no OpenAPI v3 document at " + path);
            }
            if (path.equals("/openapi") || path.startsWith("/openapi/") || path.startsWith("/swagger")) {
                return status(404, "NotFound", "the embedded cluster serves no OpenAPI document");
            }
            MockResponse table = tables.answer(request);
            if (table != null) {
                return table;
            }
            MockResponse crd = crds.answer(request);
            if (crd != null) {
                return crd;
            }
        }
        return null;
    }

    /**
     * @param request a request {@link StrimziAdmission} did not answer
     * @return a 400 for a dry run of anything but a Strimzi object (the mock would carry it out), else null
     */
    MockResponse refuseDryRun(RecordedRequest request) {
        if (isWrite(request) && request.getPath() != null && request.getPath().contains("dryRun=")) {
            return status(400, "BadRequest", "dryRun is supported for Strimzi objects only by the embedded cluster: "
                    + "the mock would carry this one out");
        }
        return null;
    }

    /**
     * @param request a request the CRUD dispatcher is about to answer
     * @return the request as the mock understands it: a write without its query, a strategic merge patch as a
     *         JSON merge patch; other requests unchanged
     */
    RecordedRequest normalise(RecordedRequest request) {
        if (!isWrite(request)) {
            return request;
        }
        String path = request.getPath() == null ? "" : request.getPath();
        String contentType = request.getHeader("Content-Type");
        boolean strategic = request.method() == HttpMethod.PATCH && contentType != null && contentType.startsWith(STRATEGIC);
        if (!path.contains("?") && !strategic) {
            return request;
        }
        var headers = request.getHeaders().newBuilder();
        if (strategic) {
            headers.set("Content-Type", MERGE);
        }
        Buffer body = request.getBody() == null ? new Buffer() : request.getBody();
        return new RecordedRequest(request.getHttpVersion() == null ? "HTTP/1.1" : request.getHttpVersion(), request.method(),
                bare(path), headers.build(), body);
    }

    /**
     * The empty OpenAPI 2.0 document. Protobuf ({@code gnostic openapi_v2.Document}): field 1 {@code swagger} = "2.0",
     * field 2 {@code info} = {title, version}, field 8 {@code paths} = empty.
     */
    private static MockResponse openApiV2(String accept) {
        if (accept != null && accept.contains("protobuf")) {
            byte[] title = "flowform embedded cluster".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] version = KubeDiscovery.GIT_VERSION.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            java.io.ByteArrayOutputStream info = new java.io.ByteArrayOutputStream();
            info.write(0x0A);
            info.write(title.length);
            info.writeBytes(title);
            info.write(0x12);
            info.write(version.length);
            info.writeBytes(version);
            java.io.ByteArrayOutputStream doc = new java.io.ByteArrayOutputStream();
            doc.writeBytes(new byte[] {0x0A, 0x03, '2', '.', '0', 0x12, (byte) info.size()});
            doc.writeBytes(info.toByteArray());
            doc.writeBytes(new byte[] {0x42, 0x00});
            return new MockResponse().setResponseCode(200)
                    .setHeader("Content-Type", "application/octet-stream")
                    .setBody(doc.toByteArray());
        }
        return json(200, Map.of("swagger", "2.0", "info", Map.of("title", "flowform embedded cluster", "version",
                KubeDiscovery.GIT_VERSION), "paths", Map.of()));
    }

    private OpenApiV3 openApi() {
        OpenApiV3 o = openApi;
        if (o == null) {
            o = new OpenApiV3(api);
            openApi = o;
        }
        return o;
    }

    private static boolean isWrite(RecordedRequest r) {
        HttpMethod m = r.method();
        return m == HttpMethod.POST || m == HttpMethod.PUT || m == HttpMethod.PATCH;
    }

    private static String bare(String path) {
        String p = path == null ? "" : path;
        int q = p.indexOf('?');
        return q < 0 ? p : p.substring(0, q);
    }

    private static MockResponse json(int code, Object body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(JsonMaps.MAPPER.writeValueAsString(body));
    }

    private static MockResponse status(int code, String reason, String message) {
        return ApiStatus.of(code, reason, message, null);
    }
}
