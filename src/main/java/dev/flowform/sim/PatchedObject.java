package dev.flowform.sim;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The object a create, update or patch of a custom resource asks the API server to store, computed as the API server
 * does (JSON patch, RFC 6902; merge patch, RFC 7386, also for a strategic merge patch); a write of the resource keeps
 * the stored {@code status}, a write of {@code /status} changes only that.
 */
final class PatchedObject {
    private static final String MERGE = "merge-patch+json";
    private static final String JSON_PATCH = "json-patch+json";

    private PatchedObject() {
    }

    /**
     * @param object          the resulting object, without {@code status} for a write of the resource, or null on refusal
     * @param current         the stored object the write starts from, or null for a create
     * @param retryOnConflict true when a conflicting concurrent write may be answered by computing the result again
     *                        (a patch that names no {@code resourceVersion} of its own)
     * @param refusal         the API server's answer when the request cannot be decoded or applied, else null
     */
    record Outcome(Map<String, Object> object, Map<String, Object> current, boolean retryOnConflict, MockResponse refusal) {
        static Outcome refused(int code, String message) {
            return new Outcome(null, null, false, ApiStatus.of(code, ApiStatus.reason(code), message, null));
        }
    }

    /**
     * @param request    a POST, PUT or PATCH
     * @param current    the stored object at the request's name, or null (none, or a POST)
     * @param statusPath true for a write of {@code /status}
     * @return the resulting object, or the refusal
     */
    static Outcome of(RecordedRequest request, Map<String, Object> current, boolean statusPath) {
        Object body;
        try {
            byte[] bytes = request.getBody() == null ? new byte[0] : request.getBody().getBytes();
            body = bytes.length == 0 ? null : JsonMaps.MAPPER.readValue(bytes, Object.class);
        } catch (RuntimeException e) {
            return Outcome.refused(400, "the body of the request could not be decoded: " + e.getMessage());
        }
        if (request.method() == HttpMethod.POST) {
            Map<String, Object> created = JsonMaps.map(body);
            if (created == null) {
                return Outcome.refused(400, "the body of a create must be an object");
            }
            Map<String, Object> object = JsonMaps.deepCopy(created);
            object.remove("status");
            return new Outcome(object, null, false, null);
        }
        if (current == null) {
            return Outcome.refused(404, "the object to " + (request.method() == HttpMethod.PUT ? "update" : "patch")
                    + " does not exist");
        }
        Map<String, Object> full;
        boolean retry = false;
        if (request.method() == HttpMethod.PUT) {
            full = JsonMaps.map(body);
            if (full == null) {
                return Outcome.refused(400, "the body of an update must be an object");
            }
        } else {
            String type = Objects.requireNonNullElse(request.getHeader("Content-Type"), "");
            try {
                full = patched(type, current, body);
            } catch (RuntimeException e) {
                return Outcome.refused(422, "the patch could not be applied: " + e.getMessage());
            }
            if (full == null) {
                return Outcome.refused(415, "the body of the request was in an unknown format - accepted media types "
                        + "include: application/json-patch+json, application/merge-patch+json (server-side apply is not "
                        + "supported by the embedded cluster)");
            }
            String asked = JsonMaps.str(full, "metadata", "resourceVersion");
            String stored = JsonMaps.str(current, "metadata", "resourceVersion");
            retry = Objects.equals(asked, stored);
        }
        return new Outcome(resulting(full, current, statusPath), current, retry, null);
    }

    /** @return the patched object, or null when the content type is not a patch the API server takes */
    private static Map<String, Object> patched(String contentType, Map<String, Object> current, Object patch) {
        if (contentType.contains(JSON_PATCH)) {
            JsonNode result = JsonPatch.apply(JsonMaps.MAPPER.valueToTree(patch == null ? List.of() : patch),
                    JsonMaps.MAPPER.valueToTree(current));
            return JsonMaps.map(JsonMaps.MAPPER.treeToValue(result, Map.class));
        }
        if (contentType.contains(MERGE)) {
            return JsonMaps.map(merge(current, patch));
        }
        return null;
    }

    /** RFC 7386: a member whose value is null is removed, an object is merged member by member, anything else replaces. */
    static Object merge(Object target, Object patch) {
        if (!(patch instanceof Map<?, ?> p)) {
            return JsonMaps.deepCopy(patch);
        }
        Map<String, Object> result = target instanceof Map<?, ?> ? JsonMaps.deepCopy(JsonMaps.map(target)) : new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : p.entrySet()) {
            String key = String.valueOf(e.getKey());
            if (e.getValue() == null) {
                result.remove(key);
            } else {
                result.put(key, merge(result.get(key), e.getValue()));
            }
        }
        return result;
    }

    private static Map<String, Object> resulting(Map<String, Object> full, Map<String, Object> current, boolean statusPath) {
        if (statusPath) {
            Map<String, Object> object = JsonMaps.deepCopy(current);
            Object status = full.get("status");
            if (status == null) {
                object.remove("status");
            } else {
                object.put("status", JsonMaps.deepCopy(status));
            }
            String rv = JsonMaps.str(full, "metadata", "resourceVersion");
            if (rv != null) {
                JsonMaps.map(object.get("metadata")).put("resourceVersion", rv);
            }
            return object;
        }
        Map<String, Object> object = JsonMaps.deepCopy(full);
        object.remove("status");
        Map<String, Object> meta = JsonMaps.map(object.get("metadata"));
        if (meta != null && meta.get("resourceVersion") == null) {
            meta.put("resourceVersion", JsonMaps.str(current, "metadata", "resourceVersion"));
        }
        return object;
    }
}
