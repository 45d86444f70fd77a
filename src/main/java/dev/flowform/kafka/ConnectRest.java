package dev.flowform.kafka;

import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of one Kafka Connect worker's REST API on 127.0.0.1: the calls Strimzi's {@code KafkaConnectApiImpl}
 * makes, with Kafka Connect's answers passed through (status code, {@code message} verbatim).
 */
final class ConnectRest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    /** Validation of a connector configuration can take seconds while the worker talks to the brokers. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final int port;

    /** @param port the worker's REST port on 127.0.0.1 */
    ConnectRest(int port) {
        this.port = port;
    }

    /**
     * {@code GET /health}.
     *
     * @return true when the worker answers 200
     */
    boolean healthy() {
        try {
            HttpResponse<String> r = HTTP.send(request("/health").timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** {@code PUT /connectors/{name}/config}; the status and, for errors, Kafka's message. */
    RestResult putConfig(String name, Map<String, String> config) {
        return call("PUT", connectorPath(name) + "/config", JSON.writeValueAsString(config));
    }

    /** {@code PUT /connectors/{name}/pause|resume|stop} ({@code verb}); the status and, for errors, Kafka's message. */
    RestResult put(String name, String verb) {
        return call("PUT", connectorPath(name) + "/" + verb, null);
    }

    /** {@code DELETE /connectors/{name}}; the status and, for errors, Kafka's message. */
    RestResult delete(String name) {
        return call("DELETE", connectorPath(name), null);
    }

    /** {@code POST /connectors/{name}/tasks/{task}/restart}; the status and, for errors, Kafka's message. */
    RestResult restartTask(String name, int task) {
        return call("POST", connectorPath(name) + "/tasks/" + task + "/restart", null);
    }

    /**
     * @return {@code GET /connectors/{name}/config}, the stored configuration; empty when the connector does not
     *         exist, on an error, or when the worker does not answer
     */
    Optional<Map<String, String>> config(String name) {
        Response r = send("GET", connectorPath(name) + "/config", null);
        if (r == null || r.status != 200) {
            return Optional.empty();
        }
        Map<String, String> config = new TreeMap<>();
        JSON.readTree(r.body).properties().forEach(e -> config.put(e.getKey(), e.getValue().asString()));
        return Optional.of(config);
    }

    /** @return {@code GET /connectors/{name}/tasks} by task id; empty on an error or when the worker does not answer */
    Optional<List<Map<String, String>>> taskConfigs(String name) {
        Response r = send("GET", connectorPath(name) + "/tasks", null);
        if (r == null || r.status != 200) {
            return Optional.empty();
        }
        List<Map<String, String>> out = new ArrayList<>();
        for (JsonNode t : JSON.readTree(r.body)) {
            Map<String, String> config = new TreeMap<>();
            t.path("config").properties().forEach(e -> config.put(e.getKey(), e.getValue().asString()));
            out.add(config);
        }
        return Optional.of(out);
    }

    /** @return {@code GET /connectors/{name}/status}; empty on 404 or when the worker does not answer */
    Optional<ConnectorStatus> status(String name) {
        Response r = send("GET", connectorPath(name) + "/status", null);
        if (r == null || r.status != 200) {
            return Optional.empty();
        }
        JsonNode n = JSON.readTree(r.body);
        JsonNode c = n.path("connector");
        List<ConnectorStatus.TaskStatus> tasks = new ArrayList<>();
        for (JsonNode t : n.path("tasks")) {
            tasks.add(new ConnectorStatus.TaskStatus(t.path("id").asInt(), t.path("state").asString(),
                    t.path("worker_id").asString(), t.hasNonNull("trace") ? t.get("trace").asString() : null));
        }
        return Optional.of(new ConnectorStatus(n.path("name").asString(), c.path("state").asString(),
                c.path("worker_id").asString(), c.hasNonNull("trace") ? c.get("trace").asString() : null, tasks,
                n.path("type").asString()));
    }

    /**
     * {@code GET /connectors}.
     *
     * @return connector names; empty when the worker does not answer
     */
    Optional<Set<String>> connectors() {
        Response r = send("GET", "/connectors", null);
        if (r == null || r.status != 200) {
            return Optional.empty();
        }
        Set<String> out = new LinkedHashSet<>();
        JSON.readTree(r.body).forEach(n -> out.add(n.asString()));
        return Optional.of(out);
    }

    private RestResult call(String method, String path, String body) {
        Response r = send(method, path, body);
        if (r == null) {
            return new RestResult(0, "Connection refused: 127.0.0.1:" + port);
        }
        if (r.status >= 200 && r.status < 300) {
            return RestResult.success(r.status);
        }
        String message = r.body;
        try {
            JsonNode n = JSON.readTree(r.body);
            if (n.hasNonNull("message")) {
                message = n.get("message").asString();
            }
        } catch (RuntimeException notJson) {
            // keep the body as it is
        }
        return new RestResult(r.status, message);
    }

    private Response send(String method, String path, String body) {
        HttpRequest.BodyPublisher pub = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body);
        HttpRequest req = request(path).timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json")
                .method(method, pub).build();
        try {
            HttpResponse<String> r = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * {@code /connectors/<name>} with the name percent-encoded as one path segment: MirrorMaker 2's connector names
     * ({@code dc1->dc2.MirrorSourceConnector}) hold {@code >}, which a URI must not carry as it is (RFC 3986 section 2).
     */
    static String connectorPath(String name) {
        return "/connectors/" + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    }

    private record Response(int status, String body) {
    }
}
