package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.run.ClusterConnection;
import dev.flowform.sim.EmbeddedCluster;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code flowform cluster serve} end to end: the quickstart's embedded cluster served by a child process, read by
 * requests shaped as kubectl 1.20 sends them (discovery first, then {@code Accept: ...;as=Table} for get,
 * {@code application/merge-patch+json} for {@code patch --type merge} of a custom resource,
 * {@code application/strategic-merge-patch+json} for the default patch of a Pod, {@code ?fieldManager=...} on
 * writes), while flowform plans through an ordinary kubeconfig context. A drift made by such a PATCH shows in the
 * next plan, and after Ctrl-C the drift is in the cluster's file. No kubectl binary is needed (none is assumed on CI);
 * the same paths were checked by hand with Debian's kubectl 1.20.2. Slow tier: a child JVM.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ClusterServeTest {

    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;"
            + "v=v1beta1;g=meta.k8s.io,application/json";
    private static final String KC = "/apis/kafka.strimzi.io/v1beta2/namespaces/replication/kafkaconnects";

    @TempDir
    Path tmp;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private String server;

    @Test
    void kubectl_shaped_drift_on_a_served_cluster_shows_in_the_next_plan() throws Exception {
        Path demo = CliFiles.quickstart(tmp.resolve("quickstart"));
        Path state = tmp.resolve("state");
        try (ChildFlowform serve = ChildFlowform.start(tmp, Map.of("FLOWFORM_SIM_FAST", "1"), "cluster", "serve", "--dir",
                demo.toString(), "--state-dir", state.toString(), "--no-color")) {
            assertThat(serve.awaitLine(0, l -> l.startsWith("Ctrl-C stops it"), Duration.ofSeconds(120)))
                    .as("serve started:%n%s%n%s", serve.out(), serve.err()).isGreaterThanOrEqualTo(0);
            Path kubeconfig = state.resolve("demo").resolve("kubeconfig.yaml");
            assertThat(serve.out()).contains("export KUBECONFIG=" + kubeconfig.toAbsolutePath(), "kubectl get kafkaconnects");
            server = Files.readAllLines(kubeconfig).stream().filter(l -> l.trim().startsWith("server: "))
                    .map(l -> l.trim().substring("server: ".length())).findFirst().orElseThrow();

            discoveryAsKubectlReadsIt();
            assertThat(send("GET", KC + "?limit=500", TABLE, null, null)).contains("\"name\":\"mm2-connect\"");

            Path conf = kubeconfigEnvironment(demo, kubeconfig);
            CliRunner cli = CliRunner.fast();
            String[] plan = {"plan", "--detailed-exitcode", "--no-color", "--dir", conf.toString(), "--state-dir",
                    tmp.resolve("flowform-state").toString()};
            CliRunner.Result before = cli.run(plan);
            assertThat(before.exitCode()).as("%s", before).isEqualTo(2);
            assertThat(before.out()).containsPattern("\\+ spec\\.config\\.\"exactly\\.once\\.source\\.support\" += \"enabled\"")
                    .contains("2 rolling restarts");

            // kubectl -n replication patch kc mm2-connect --type merge -p '{"spec":{"config":{...: "preparing"}}}'
            send("PATCH", KC + "/mm2-connect?fieldManager=kubectl-patch", "application/json",
                    "application/merge-patch+json",
                    "{\"spec\":{\"config\":{\"exactly.once.source.support\":\"preparing\"}}}");
            CliRunner.Result after = cli.run(plan);
            assertThat(after.exitCode()).as("%s", after).isEqualTo(2);
            assertThat(after.out()).containsPattern("\"exactly\\.once\\.source\\.support\" += \"preparing\" -> \"enabled\"")
                    .contains("1 rolling restart");

            awaitRollDone();
            kubectlPathsOnPodsAndConnectors();

            serve.signal("INT");
            assertThat(serve.waitFor(Duration.ofSeconds(60))).as("%s", serve.err()).isNotEqualTo(-1);
        }
        String saved = Files.readString(state.resolve("demo").resolve("embedded-cluster.json"));
        assertThat(saved).contains("\"exactly.once.source.support\" : \"preparing\"", "\"note\" : \"from-kubectl\"");
    }

    @Test
    void serve_listens_on_the_same_port_at_every_start_so_an_environment_on_its_kubeconfig_keeps_its_identity()
            throws Exception {
        Path demo = CliFiles.quickstart(tmp.resolve("quickstart"));
        Path state = tmp.resolve("state");
        Path kubeconfig = state.resolve("demo").resolve("kubeconfig.yaml");
        int port = ClusterConnection.defaultServePort(state.resolve("demo"));
        Path conf;
        CliRunner cli = CliRunner.fast();
        String[] viaKubeconfig;
        try (ChildFlowform serve = serve(demo, state)) {
            assertThat(serve.out()).contains("serving at http://127.0.0.1:" + port + "/");
            conf = kubeconfigEnvironment(demo, kubeconfig);
            viaKubeconfig = new String[] {"--no-color", "--dir", conf.toString(), "--state-dir",
                    tmp.resolve("flowform-state").toString()};
            CliRunner.Result apply = cli.run(concat("apply", viaKubeconfig, "--auto-approve"));
            assertThat(apply.exitCode()).as("%s", apply).isZero();
            stopServing(serve);
        }
        try (ChildFlowform again = serve(demo, state)) {
            assertThat(again.out()).contains("serving at http://127.0.0.1:" + port + "/");

            CliRunner.Result plan = cli.run(concat("plan", viaKubeconfig, "--detailed-exitcode"));

            assertThat(plan.exitCode()).as("the recorded API server is the one served again: %s", plan).isZero();
            assertThat(plan.out()).contains("No changes.");

            try (ChildFlowform taken = ChildFlowform.start(tmp, Map.of(), "cluster", "serve", "--dir", demo.toString(),
                    "--state-dir", tmp.resolve("other-state").toString(), "--port", Integer.toString(port), "--no-color")) {
                assertThat(taken.waitFor(Duration.ofSeconds(60))).as("%s", taken.out()).isEqualTo(1);
                assertThat(FaultSuiteTest.flat(taken.err())).contains("Cannot serve environment \"demo\" on port " + port,
                        "Give another port with --port N");
            }
            stopServing(again);
        }
        int chosen;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            chosen = free.getLocalPort();
        }
        try (ChildFlowform other = ChildFlowform.start(tmp, Map.of("FLOWFORM_SIM_FAST", "1"), "cluster", "serve", "--dir",
                demo.toString(), "--state-dir", state.toString(), "--port", Integer.toString(chosen), "--no-color")) {
            assertThat(other.awaitLine(0, l -> l.contains("serving at http://127.0.0.1:" + chosen + "/"),
                    Duration.ofSeconds(120))).as("%s%n%s", other.out(), other.err()).isNotNegative();
            stopServing(other);
        }
    }

    private ChildFlowform serve(Path demo, Path state) throws InterruptedException {
        ChildFlowform serve = ChildFlowform.start(tmp, Map.of("FLOWFORM_SIM_FAST", "1"), "cluster", "serve", "--dir",
                demo.toString(), "--state-dir", state.toString(), "--no-color");
        assertThat(serve.awaitLine(0, l -> l.startsWith("Ctrl-C stops it"), Duration.ofSeconds(120)))
                .as("serve started:%n%s%n%s", serve.out(), serve.err()).isGreaterThanOrEqualTo(0);
        return serve;
    }

    private static void stopServing(ChildFlowform serve) throws Exception {
        serve.signal("TERM");
        assertThat(serve.waitFor(Duration.ofSeconds(60))).as("%s", serve.err()).isZero();
    }

    private static String[] concat(String command, String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(List.of(args));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /**
     * Waits until the operator has finished the roll the {@code preparing} patch started: the KafkaConnect's status
     * reports its generation and Ready, and pods 0 and 1 exist and are Ready. The pod paths below act on those pods,
     * which the roll deletes and creates again one at a time (a PATCH in between is a 404).
     */
    private void awaitRollDone() {
        Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
            HttpResponse<String> kc = get(KC + "/mm2-connect");
            if (kc.statusCode() != 200) {
                return false;
            }
            JsonNode n = JSON.readTree(kc.body());
            boolean ready = false;
            for (JsonNode c : n.path("status").path("conditions")) {
                ready |= "Ready".equals(c.path("type").asString()) && "True".equals(c.path("status").asString());
            }
            return ready && n.path("status").path("observedGeneration").asLong(-1) == n.path("metadata").path("generation").asLong()
                    && podReady("mm2-connect-connect-0") && podReady("mm2-connect-connect-1");
        });
    }

    private boolean podReady(String name) throws Exception {
        HttpResponse<String> r = get("/api/v1/namespaces/replication/pods/" + name);
        if (r.statusCode() != 200) {
            return false;
        }
        for (JsonNode c : JSON.readTree(r.body()).path("status").path("conditions")) {
            if ("Ready".equals(c.path("type").asString())) {
                return "True".equals(c.path("status").asString());
            }
        }
        return false;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(request("GET", path, "application/json", null, null), HttpResponse.BodyHandlers.ofString());
    }

    private void discoveryAsKubectlReadsIt() throws Exception {
        assertThat(send("GET", "/version?timeout=32s", "application/json", null, null)).contains("\"major\":\"1\"");
        assertThat(send("GET", "/api?timeout=32s", "application/json", null, null)).contains("\"versions\":[\"v1\"]");
        assertThat(send("GET", "/apis?timeout=32s", "application/json", null, null))
                .contains("\"name\":\"kafka.strimzi.io\"", "\"name\":\"core.strimzi.io\"");
        assertThat(send("GET", "/api/v1?timeout=32s", "application/json", null, null))
                .contains("\"name\":\"pods\"", "\"shortNames\":[\"po\"]");
        assertThat(send("GET", "/apis/kafka.strimzi.io/v1beta2?timeout=32s", "application/json", null, null))
                .contains("\"name\":\"kafkaconnects\"", "\"shortNames\":[\"kc\"]", "\"kind\":\"KafkaConnector\"",
                        "\"verbs\":[\"create\",\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"]");
        assertThat(send("GET", "/apis/core.strimzi.io/v1beta2?timeout=32s", "application/json", null, null))
                .contains("\"name\":\"strimzipodsets\"", "\"shortNames\":[\"sps\"]");
    }

    private void kubectlPathsOnPodsAndConnectors() throws Exception {
        String pods = "/api/v1/namespaces/replication/pods";
        // kubectl patch pod mm2-connect-connect-0 -p '{"metadata":{"labels":{"drift":"yes"}}}' (strategic by default)
        assertThat(send("PATCH", pods + "/mm2-connect-connect-0?fieldManager=kubectl-patch", "application/json",
                "application/strategic-merge-patch+json", "{\"metadata\":{\"labels\":{\"drift\":\"yes\"}}}"))
                .contains("\"drift\":\"yes\"");
        // kubectl annotate kctr dc1-to-dc2-heartbeat note=from-kubectl
        assertThat(send("PATCH", "/apis/kafka.strimzi.io/v1beta2/namespaces/replication/kafkaconnectors/"
                        + "dc1-to-dc2-heartbeat?fieldManager=kubectl-annotate", "application/json",
                "application/merge-patch+json", "{\"metadata\":{\"annotations\":{\"note\":\"from-kubectl\"}}}"))
                .contains("\"note\":\"from-kubectl\"");
        // kubectl get pods -o wide (Table asked, list served), kubectl describe (get + events)
        assertThat(send("GET", pods + "?limit=500", TABLE, null, null)).contains("mm2-connect-connect-1");
        send("GET", "/api/v1/namespaces/replication/events?fieldSelector=involvedObject.name%3Dmm2-connect-connect-1",
                "application/json", null, null);
        // kubectl edit reads the OpenAPI document first
        send("GET", "/openapi/v2?timeout=32s", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf", null, null);
        // kubectl delete pod mm2-connect-connect-1
        send("DELETE", pods + "/mm2-connect-connect-1", "application/json", "application/json", "{\"propagationPolicy\":\"Background\"}");
        // kubectl patch --dry-run=server is answered with the same validation, and never carried out
        assertThat(status("PATCH", KC + "/mm2-connect?dryRun=All", "application/merge-patch+json",
                "{\"spec\":{\"replicas\":\"three\"}}")).isEqualTo(422);
        assertThat(status("PATCH", KC + "/mm2-connect?dryRun=All", "application/merge-patch+json",
                "{\"metadata\":{\"annotations\":{\"dry\":\"run\"}}}")).isEqualTo(200);
        assertThat(get(KC + "/mm2-connect").body()).doesNotContain("\"dry\"");
    }

    /** @return the quickstart with its environment reaching the served cluster through {@code kubeconfig} */
    private Path kubeconfigEnvironment(Path demo, Path kubeconfig) throws IOException {
        Path conf = CliFiles.copy(demo, tmp.resolve("via-kubeconfig"));
        String text = Files.readString(conf.resolve("main.flow.json"));
        String embedded = "\"embedded\": {\n          \"seed\": \"./seed\"\n        }";
        assertThat(text).contains(embedded);
        Files.writeString(conf.resolve("main.flow.json"), text.replace(embedded, "\"kubeconfig\": \""
                + kubeconfig.toAbsolutePath().toString().replace("\\", "\\\\") + "\", \"context\": \""
                + EmbeddedCluster.CONTEXT + "\""));
        return conf;
    }

    private String send(String method, String path, String accept, String contentType, String body) throws Exception {
        HttpResponse<String> r = http.send(request(method, path, accept, contentType, body), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("%s %s: %s", method, path, r.body()).isBetween(200, 299);
        return r.body();
    }

    private int status(String method, String path, String contentType, String body) throws Exception {
        return http.send(request(method, path, "application/json", contentType, body), HttpResponse.BodyHandlers.ofString())
                .statusCode();
    }

    private HttpRequest request(String method, String path, String accept, String contentType, String body) {
        List<String> headers = new ArrayList<>(List.of("Accept", accept, "User-Agent", "kubectl/v1.20.2 (linux/amd64)",
                "Authorization", "Bearer " + EmbeddedCluster.CONTEXT));
        if (contentType != null) {
            headers.addAll(List.of("Content-Type", contentType));
        }
        return HttpRequest.newBuilder(URI.create(server + path)).headers(headers.toArray(String[]::new))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .timeout(Duration.ofSeconds(30)).build();
    }
}
