package dev.flowform.sim;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The answer to an admitted write sent with {@code dryRun=All} (Kubernetes API concepts, "Dry-run"): the object as it
 * would be stored, nothing stored; 409 for a taken name or a stale {@code resourceVersion}, the generation raised when
 * the spec changes, as a real write would.
 */
final class DryRunAnswer {
    private static final List<String> NOT_SPEC = List.of("apiVersion", "kind", "metadata", "status");

    private DryRunAnswer() {
    }

    /**
     * @param method     POST, PUT or PATCH
     * @param statusPath true for a write of {@code /status}
     * @param object     the admitted object (pruned and valid)
     * @param current    the stored object of that name, or null when there is none
     * @param resource   e.g. {@code kafkaconnects.kafka.strimzi.io}, for messages
     * @return the answer
     */
    static MockResponse of(HttpMethod method, boolean statusPath, Map<String, Object> object, Map<String, Object> current,
                           String resource) {
        String name = JsonMaps.str(object, "metadata", "name");
        Map<String, Object> answer = JsonMaps.deepCopy(object);
        Map<String, Object> meta = JsonMaps.map(answer.get("metadata"));
        if (method == HttpMethod.POST) {
            if (current != null) {
                return ApiStatus.of(409, "AlreadyExists", resource + " \"" + name + "\" already exists",
                        ApiStatus.details(name, resource.substring(resource.indexOf('.') + 1),
                                resource.substring(0, resource.indexOf('.')), List.of()));
            }
            meta.remove("resourceVersion");
            meta.put("uid", UUID.randomUUID().toString());
            meta.put("creationTimestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
            meta.put("generation", 1);
            return json(201, answer);
        }
        Map<String, Object> stored = JsonMaps.map(current.get("metadata"));
        String asked = JsonMaps.str(object, "metadata", "resourceVersion");
        if (asked != null && !asked.equals(stored.get("resourceVersion"))) {
            return ApiStatus.of(409, "Conflict", "Operation cannot be fulfilled on " + resource + " \"" + name
                    + "\": the object has been modified; please apply your changes to the latest version and try again", null);
        }
        for (String k : List.of("uid", "creationTimestamp", "resourceVersion", "generation")) {
            if (stored.get(k) != null) {
                meta.put(k, stored.get(k));
            }
        }
        if (!statusPath) {
            if (current.get("status") != null) {
                answer.put("status", JsonMaps.deepCopy(current.get("status")));
            }
            if (specChanged(current, answer)) {
                meta.put("generation", Objects.requireNonNullElse(JsonMaps.lng(current, "metadata", "generation"), 0L) + 1);
            }
        }
        return json(200, answer);
    }

    private static boolean specChanged(Map<String, Object> before, Map<String, Object> after) {
        Map<String, Object> a = JsonMaps.deepCopy(before);
        Map<String, Object> b = JsonMaps.deepCopy(after);
        NOT_SPEC.forEach(k -> {
            a.remove(k);
            b.remove(k);
        });
        return !JsonMaps.canonicalJson(a).equals(JsonMaps.canonicalJson(b));
    }

    private static MockResponse json(int code, Map<String, Object> body) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(JsonMaps.MAPPER.writeValueAsString(body));
    }
}
