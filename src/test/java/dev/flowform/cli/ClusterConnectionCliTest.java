package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.flowform.plan.Json;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Sim;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Never act on the wrong cluster: a named kubeconfig or context that is missing is an error naming it (no
 * fallback to the current context), plan and apply say what they connect to, and an API server that cannot
 * be used fails within 10 s with the cause named and no stack trace. Servers here are loopback addresses
 * or names under {@code .invalid}; nothing else is contacted.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ClusterConnectionCliTest {

    private static final Duration LIMIT = Duration.ofSeconds(10);
    private static final String FORBIDDEN = "kafkaconnects.kafka.strimzi.io is forbidden: User \"x\" cannot list resource "
            + "\"kafkaconnects\" in API group \"kafka.strimzi.io\" in the namespace \"replication\"";

    @TempDir
    Path tmp;

    @Test
    void a_context_the_kubeconfig_does_not_define_is_named_with_the_contexts_that_exist() throws IOException {
        Path kubeconfig = kubeconfig("http://127.0.0.1:9");
        Path dir = config(kubeconfig.toString(), "prod-eu");

        CliRunner.Result r = timed(CliRunner.fast(), "plan", dir);

        assertFailed(r, "Kubernetes context \"prod-eu\" not found",
                "which kubeconfig " + kubeconfig + " does not define. It defines \"dev\".",
                "never falls back to another context");
        assertThat(r.err()).doesNotContain("Connecting to");
    }

    @Test
    void a_missing_kubeconfig_file_is_named() {
        Path missing = tmp.resolve("nowhere/kubeconfig.yaml");
        Path dir = config(missing.toString(), "dev");

        CliRunner.Result r = timed(CliRunner.fast(), "plan", dir);

        assertFailed(r, "Kubeconfig file not found", "names kubeconfig \"" + missing + "\"", "does not exist");
    }

    @Test
    void a_KUBECONFIG_that_points_to_a_missing_file_is_named() {
        Path missing = tmp.resolve("gone.yaml");
        Path dir = config(null, null);
        CliContext u = CliRunner.unattended();
        CliRunner cli = new CliRunner(new CliContext(u.clock(), u.prompter(), Map.of("KUBECONFIG", missing.toString()),
                SimSettings.fast(), u.progressInterval()));

        CliRunner.Result r = timed(cli, "plan", dir);

        assertFailed(r, "Kubeconfig file not found", "$KUBECONFIG names \"" + missing + "\", which does not exist");
        assertThat(r.err()).doesNotContain("kubernetes.default.svc");
    }

    @Test
    void a_refused_connection_is_named_within_10_seconds_by_plan_and_apply() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path dir = config(kubeconfig("https://127.0.0.1:" + port).toString(), "dev");

        CliRunner.Result plan = timed(CliRunner.fast(), "plan", dir);
        assertFailed(plan, "Connection refused", "https://127.0.0.1:" + port + " (context \"dev\")");
        assertThat(plan.err()).startsWith("Connecting to https://127.0.0.1:" + port + " (context \"dev\" from kubeconfig ")
                .contains("namespace \"replication\"");

        CliRunner.Result apply = timed(CliRunner.fast(), "apply --auto-approve", dir);
        assertFailed(apply, "Connection refused", "https://127.0.0.1:" + port);
        assertThat(apply.err()).startsWith("Connecting to https://127.0.0.1:" + port);
    }

    @Test
    void an_unknown_host_is_named() throws IOException {
        Path dir = config(kubeconfig("https://flowform-no-such-cluster.invalid:6443").toString(), "dev");

        CliRunner.Result r = timed(CliRunner.fast(), "plan", dir);

        assertFailed(r, "Unknown host", "https://flowform-no-such-cluster.invalid:6443");
    }

    @Test
    void a_server_that_accepts_but_never_answers_times_out() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Path dir = config(kubeconfig("http://127.0.0.1:" + silent.getLocalPort()).toString(), "dev");

            CliRunner.Result r = timed(CliRunner.fast(), "plan", dir);

            assertFailed(r, "Timeout", "http://127.0.0.1:" + silent.getLocalPort());
        }
    }

    @Test
    void a_tls_handshake_that_fails_is_named() throws Exception {
        try (ServerSocket plain = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> answerPlainHttp(plain), "plain-http");
            answering.setDaemon(true);
            answering.start();
            Path dir = config(kubeconfig("https://127.0.0.1:" + plain.getLocalPort()).toString(), "dev");

            CliRunner.Result r = timed(CliRunner.fast(), "plan", dir);

            assertFailed(r, "TLS failure", "https://127.0.0.1:" + plain.getLocalPort());
            assertThat(r.err()).doesNotContain("485454502f"); // the bytes received, as netty dumps them
        }
    }

    /** Answers every connection with a plain-HTTP 400 (what a TLS client sees from an http port) until closed. */
    private static void answerPlainHttp(ServerSocket server) {
        while (!server.isClosed()) {
            try (java.net.Socket s = server.accept()) {
                s.getInputStream().read(new byte[512]);
                s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                return;
            }
        }
    }

    @Test
    void a_401_is_named_as_unauthorized() throws IOException {
        HttpServer server = server(Map.of("/version", status(401, "Unauthorized", "Unauthorized")));
        try {
            Path dir = config(kubeconfig("http://127.0.0.1:" + server.getAddress().getPort()).toString(), "dev");

            CliRunner.Result r = timed(CliRunner.fast(), "plan", dir);

            assertFailed(r, "Unauthorized (401)", "rejected the credentials");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void a_403_names_the_verb_and_resource_rbac_denied() throws IOException {
        HttpServer server = server(Map.of(
                "/version", new Answer(200, "{\"major\":\"1\",\"minor\":\"33\",\"gitVersion\":\"v1.33.0\"}"),
                "/apis/kafka.strimzi.io/v1", new Answer(200, """
                        {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"kafka.strimzi.io/v1","resources":[
                        {"name":"kafkaconnects","namespaced":true,"kind":"KafkaConnect","verbs":["list"]},
                        {"name":"kafkaconnectors","namespaced":true,"kind":"KafkaConnector","verbs":["list"]}]}"""),
                "/kafkaconnects", status(403, "Forbidden", FORBIDDEN),
                "/kafkaconnectors", new Answer(200,
                        "{\"apiVersion\":\"kafka.strimzi.io/v1\",\"kind\":\"KafkaConnectorList\",\"items\":[]}"),
                "/pods", new Answer(200, "{\"apiVersion\":\"v1\",\"kind\":\"PodList\",\"items\":[]}"),
                "/configmaps", new Answer(200, "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMapList\",\"items\":[]}")));
        try {
            Path dir = config(kubeconfig("http://127.0.0.1:" + server.getAddress().getPort()).toString(), "dev");

            CliRunner.Result r = timed(CliRunner.fast(), "plan", dir);

            assertFailed(r, "Forbidden (403): RBAC denies \"list\" on kafkaconnects.kafka.strimzi.io in namespace replication",
                    FORBIDDEN);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void plan_prints_what_it_connects_to_on_stderr_and_keeps_json_pure() throws IOException {
        try (EmbeddedCluster cluster = Sim.start("existing-v1", tmp, SimSettings.fast())) {
            Path dir = CliFiles.kubeconfigConfig(tmp.resolve("conf"), cluster, "");
            Path state = tmp.resolve("state");
            String server = cluster.client().getMasterUrl().toString().replaceAll("/+$", "");

            CliRunner.Result plan = CliRunner.fast().run(CliFiles.args("plan", dir, state));
            assertThat(plan.exitCode()).as("%s", plan).isZero();
            assertThat(plan.err()).isEqualTo("Connecting to " + server + " (context \"" + EmbeddedCluster.CONTEXT
                    + "\" from kubeconfig " + dir.resolve("kubeconfig.yaml") + "), namespace \"replication\"\n");
            assertThat(plan.out()).doesNotContain("Connecting to");

            CliRunner.Result json = CliRunner.fast().run(CliFiles.args("plan", dir, state, "--json"));
            assertThat(json.exitCode()).as("%s", json).isZero();
            assertThat(Json.MAPPER.readTree(json.out()).has("format_version")).isTrue();
            assertThat(json.err()).startsWith("Connecting to " + server);
        }
    }

    @Test
    void the_embedded_cluster_is_named_as_such() throws IOException {
        Path dir = tmp.resolve("conf");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("main.flow.json"), """
                {
                  "environment": { "demo": { "kubernetes": { "embedded": {} }, "namespace": "replication" } },
                  "connect_cluster": { "mm2-connect": { "manage": "adopt" } }
                }
                """);

        CliRunner.Result plan = CliRunner.fast().run(CliFiles.args("plan", dir, tmp.resolve("state")));

        assertThat(plan.err()).as("%s", plan)
                .startsWith("Connecting to the embedded cluster (in-process), namespace \"replication\"\n");
    }

    /** Runs {@code command} on the configuration in {@code dir} and checks it ends within {@link #LIMIT}. */
    private CliRunner.Result timed(CliRunner cli, String command, Path dir) {
        long start = System.nanoTime();
        CliRunner.Result r = cli.run(CliFiles.args(command, dir, tmp.resolve("state")));
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertThat(took).as("%s took %s: %s", command, took, r).isLessThan(LIMIT);
        return r;
    }

    private static void assertFailed(CliRunner.Result r, String... named) {
        assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
        assertThat(FaultSuiteTest.flat(r.err())).as("%s", r).contains(named);
        assertThat(r.out() + r.err()).as("%s", r).doesNotContain("Exception", "\tat ", "This is a bug in flowform",
                "An error has occurred");
    }

    /** Writes a kubeconfig with one context {@code dev} for {@code server}, with a token. */
    private Path kubeconfig(String server) throws IOException {
        Path file = tmp.resolve("kubeconfig.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: dev
                  cluster:
                    server: %s
                users:
                - name: dev
                  user:
                    token: not-a-real-token
                contexts:
                - name: dev
                  context:
                    cluster: dev
                    user: dev
                current-context: dev
                """.formatted(server));
        return file;
    }

    /** Writes an adopting configuration with environment {@code prod} on {@code kubeconfig} and {@code context}. */
    private Path config(String kubeconfig, String context) {
        Path dir = tmp.resolve("conf");
        StringBuilder kubernetes = new StringBuilder();
        if (kubeconfig != null) {
            kubernetes.append("\"kubeconfig\": \"").append(kubeconfig.replace("\\", "\\\\")).append('"');
        }
        if (context != null) {
            kubernetes.append(kubernetes.length() > 0 ? ", " : "").append("\"context\": \"").append(context).append('"');
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("main.flow.json"), """
                    {
                      "environment": {
                        "prod": { "kubernetes": { %s }, "namespace": "replication" }
                      },
                      "connect_cluster": { "mm2-connect": { "manage": "adopt" } },
                      "replication_flow": {
                        "dc1-to-dc2": { "manage": "adopt", "connect_cluster": "mm2-connect" }
                      }
                    }
                    """.formatted(kubernetes));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return dir;
    }

    /** An HTTP answer: status code and JSON body. */
    private record Answer(int code, String body) {
    }

    private static Answer status(int code, String reason, String message) {
        return new Answer(code, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":"
                + Json.render(message) + ",\"reason\":\"" + reason + "\",\"code\":" + code + "}");
    }

    /**
     * A plain-HTTP API server on loopback: a request whose path ends with (or, before the query, equals) a key
     * gets that answer; anything else a 404 Status.
     */
    private static HttpServer server(Map<String, Answer> answers) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            Answer answer = answers.entrySet().stream()
                    .filter(e -> path.equals(e.getKey()) || path.endsWith(e.getKey()))
                    .map(Map.Entry::getValue).findFirst()
                    .orElse(status(404, "NotFound", "the server could not find the requested resource"));
            respond(exchange, answer);
        });
        server.start();
        return server;
    }

    private static void respond(HttpExchange exchange, Answer answer) throws IOException {
        byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(answer.code(), body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
    }
}
