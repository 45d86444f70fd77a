package dev.flowform.sim;

import io.fabric8.mockwebserver.http.MockResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes API server's error answer: a {@code Status} object (Kubernetes API conventions, "Response Status
 * Kind") with {@code reason}, {@code message}, {@code code} and, when the error is about one object,
 * {@code details} (name, group, kind and the {@code causes} of a refusal, each naming its {@code field}).
 */
final class ApiStatus {
    private ApiStatus() {
    }

    /** @return the {@code reason} the API server gives an HTTP status code (k8s.io/apimachinery StatusReason) */
    static String reason(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 405 -> "MethodNotAllowed";
            case 409 -> "Conflict";
            case 410 -> "Expired";
            case 415 -> "UnsupportedMediaType";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            case 500 -> "InternalError";
            case 503 -> "ServiceUnavailable";
            case 504 -> "Timeout";
            default -> "Unknown";
        };
    }

    /**
     * @param reason  the {@code reason}, e.g. {@code Invalid}
     * @param details {@code details} (name, group, kind, causes), or null for none
     * @return the answer, {@code Content-Type: application/json}
     */
    static MockResponse of(int code, String reason, String message, Map<String, Object> details) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", "Status");
        body.put("apiVersion", "v1");
        body.put("metadata", Map.of());
        body.put("status", "Failure");
        body.put("message", message);
        body.put("reason", reason);
        if (details != null) {
            body.put("details", details);
        }
        body.put("code", code);
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(JsonMaps.MAPPER.writeValueAsString(body));
    }

    /**
     * @param name   the object's name, or null
     * @param kind   its kind (or resource, as the API server gives it for some errors)
     * @param causes the causes as maps ({@code reason}, {@code message}, {@code field}), or an empty list
     * @return {@code details} of a {@code Status}
     */
    static Map<String, Object> details(String name, String group, String kind, List<Map<String, Object>> causes) {
        Map<String, Object> details = new LinkedHashMap<>();
        if (name != null) {
            details.put("name", name);
        }
        details.put("group", group);
        details.put("kind", kind);
        if (!causes.isEmpty()) {
            details.put("causes", causes);
        }
        return details;
    }
}
