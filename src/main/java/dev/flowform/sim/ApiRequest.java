package dev.flowform.sim;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * One request to the API server as Kubernetes authorization sees it: verb (derived as the API server's
 * {@code RequestInfoFactory} does; Kubernetes docs, "Authorization: Determine the Request Verb"), group, resource and
 * namespace, or for a path outside the resource API the non-resource URL.
 *
 * @param verb        the Kubernetes verb; for a non-resource request the lower-case method
 * @param group       API group, {@code ""} for the core group; null for a non-resource request
 * @param resource    plural resource, {@code /subresource} appended when there is one; null for a non-resource request
 * @param namespace   the namespace in the path, or null (cluster-scoped, all namespaces, or non-resource)
 * @param name        the object's name, or null for a collection
 * @param path        the path without the query string
 * @param userAgent   the client's {@code User-Agent}, or null
 * @param bearer      SHA-256 of the bearer token (first 16 hex digits), or null; the token itself is never kept
 * @param dryRun      true for a write sent with {@code dryRun} (authorized as the write itself; stores nothing)
 */
public record ApiRequest(String verb, String group, String resource, String namespace, String name, String path,
                         String userAgent, String bearer, boolean dryRun) {

    /** @return true for a request to a non-resource URL ({@code /version}, discovery documents) */
    public boolean nonResource() {
        return resource == null;
    }

    /**
     * Classifies one HTTP request.
     *
     * @param method        HTTP method, e.g. {@code GET}
     * @param pathAndQuery  request target, e.g. {@code /apis/kafka.strimzi.io/v1beta2/namespaces/a/kafkaconnects?watch=true}
     * @param userAgent     the {@code User-Agent} header, or null
     * @param authorization the {@code Authorization} header, or null
     * @return the request as authorization sees it
     */
    public static ApiRequest of(String method, String pathAndQuery, String userAgent, String authorization) {
        String target = pathAndQuery == null ? "" : pathAndQuery;
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        String query = q < 0 ? "" : target.substring(q + 1);
        String bearer = fingerprint(authorization);
        String[] parts = path.replaceAll("^/+|/+$", "").split("/");
        int at;
        String group;
        if (parts.length >= 3 && "api".equals(parts[0])) {
            group = "";
            at = 2;
        } else if (parts.length >= 4 && "apis".equals(parts[0])) {
            group = parts[1];
            at = 3;
        } else {
            return new ApiRequest(method.toLowerCase(Locale.ROOT), null, null, null, null, path, userAgent, bearer, false);
        }
        String namespace = null;
        if ("namespaces".equals(parts[at]) && parts.length > at + 1) {
            namespace = parts[at + 1];
            if (parts.length > at + 2) {
                at += 2;
            }
        }
        String resource = parts[at];
        String name = parts.length > at + 1 ? parts[at + 1] : null;
        if ("namespaces".equals(resource) && name != null) {
            namespace = name;
        }
        if (parts.length > at + 2) {
            resource = resource + "/" + parts[at + 2];
        }
        return new ApiRequest(verb(method, name != null, watch(query)), group, resource, namespace, name, path, userAgent,
                bearer, param(query, "dryRun") != null);
    }

    private static String verb(String method, boolean item, boolean watch) {
        return switch (method.toUpperCase(Locale.ROOT)) {
            case "GET", "HEAD" -> watch ? "watch" : item ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> item ? "delete" : "deletecollection";
            default -> method.toLowerCase(Locale.ROOT);
        };
    }

    private static boolean watch(String query) {
        String watch = param(query, "watch");
        return "true".equals(watch) || "1".equals(watch);
    }

    /** @return the value of query parameter {@code name}, "" when it has none, or null when it is absent */
    private static String param(String query, String name) {
        for (String param : query.split("&")) {
            if (param.equals(name)) {
                return "";
            }
            if (param.startsWith(name + "=")) {
                return param.substring(name.length() + 1);
            }
        }
        return null;
    }

    /** @return the first 16 hex digits of the SHA-256 of a bearer token, or null when {@code authorization} has none */
    public static String fingerprint(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        return tokenFingerprint(authorization.substring(7).trim());
    }

    /**
     * @param token a bearer token
     * @return the first 16 hex digits of its SHA-256, as {@link #bearer()} holds it
     */
    public static String tokenFingerprint(String token) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** @return e.g. {@code patch kafka.strimzi.io/kafkaconnects/status in replication}, or {@code get /version} */
    @Override
    public String toString() {
        if (nonResource()) {
            return verb + " " + path;
        }
        return verb + " " + (group.isEmpty() ? "core" : group) + "/" + resource
                + (namespace == null ? " (cluster)" : " in " + namespace) + (dryRun ? " (dry run)" : "");
    }
}
