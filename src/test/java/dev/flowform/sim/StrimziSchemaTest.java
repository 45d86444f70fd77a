package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The embedded API server applies Strimzi's own CRD schemas to every write of a Strimzi object as the Kubernetes API
 * server does: refusals as a 422 {@code Status} naming each field, pruning of unknown fields (a {@code Warning} by
 * default, 400 with {@code fieldValidation=Strict}), patches validated on their result, status writes validated,
 * dry runs answered without a change, and the authorization and admission switches of {@link SimFaults}. Requests
 * are sent as raw HTTP, as kubectl sends them.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class StrimziSchemaTest extends SimTestSupport {
    private static final String KC = "/apis/kafka.strimzi.io/v1beta2/namespaces/" + NS + "/kafkaconnects";
    private static final String KC_V1 = "/apis/kafka.strimzi.io/v1/namespaces/" + NS_V1 + "/kafkaconnects";
    private static final String MERGE = "application/merge-patch+json";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static String connect(String apiVersion, String ns, String name, String replicas) {
        return "{\"apiVersion\":\"kafka.strimzi.io/" + apiVersion + "\",\"kind\":\"KafkaConnect\",\"metadata\":{\"name\":\""
                + name + "\",\"namespace\":\"" + ns + "\"},\"spec\":{\"replicas\":" + replicas
                + ",\"bootstrapServers\":\"kafka:9092\"" + ("v1".equals(apiVersion) ? ",\"groupId\":\"g\",\"configStorageTopic\":\"c\""
                + ",\"offsetStorageTopic\":\"o\",\"statusStorageTopic\":\"s\"" : "") + "}}";
    }

    @Test
    void a_KafkaConnect_with_replicas_three_is_refused_with_422_naming_the_field_in_both_layouts() throws Exception {
        startSeeded("v1beta2");
        HttpResponse<String> r = send("POST", KC, "application/json", connect("v1beta2", NS, "bad", "\"three\""));
        assertThat(r.statusCode()).isEqualTo(422);
        JsonNode status = json(r);
        assertThat(status.path("kind").asString()).isEqualTo("Status");
        assertThat(status.path("reason").asString()).isEqualTo("Invalid");
        assertThat(status.path("message").asString()).isEqualTo("KafkaConnect.kafka.strimzi.io \"bad\" is invalid: "
                + "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"");
        assertThat(status.path("details").path("kind").asString()).isEqualTo("KafkaConnect");
        assertThat(status.path("details").path("causes").get(0).path("field").asString()).isEqualTo("spec.replicas");
        assertThat(status.path("details").path("causes").get(0).path("reason").asString()).isEqualTo("FieldValueTypeInvalid");
        assertThat(get(KC + "/bad").statusCode()).isEqualTo(404);
        cluster.close();

        startSeeded("v1");
        String missing = "{\"apiVersion\":\"kafka.strimzi.io/v1\",\"kind\":\"KafkaConnect\",\"metadata\":{\"name\":\"bad\"},"
                + "\"spec\":{\"replicas\":\"three\",\"groupId\":\"g\"}}";
        JsonNode v1 = json(send("POST", KC_V1, "application/json", missing));
        assertThat(v1.path("code").asInt()).isEqualTo(422);
        assertThat(v1.path("details").path("causes").findValuesAsString("field"))
                .contains("spec.replicas", "spec.bootstrapServers", "spec.configStorageTopic");
    }

    @Test
    void unknown_fields_are_pruned_with_a_warning_and_refused_when_strict() throws Exception {
        startSeeded("v1beta2");
        String body = connect("v1beta2", NS, "extra", "1").replace("\"spec\":{", "\"spec\":{\"replica\":3,");
        HttpResponse<String> strict = send("POST", KC + "?fieldValidation=Strict", "application/json", body);
        assertThat(strict.statusCode()).isEqualTo(400);
        assertThat(json(strict).path("message").asString()).endsWith("strict decoding error: unknown field \"spec.replica\"");

        HttpResponse<String> warned = send("POST", KC, "application/json", body);
        assertThat(warned.statusCode()).isEqualTo(201);
        assertThat(warned.headers().firstValue("Warning")).hasValue("299 - \"unknown field \\\"spec.replica\\\"\"");
        assertThat(json(get(KC + "/extra")).path("spec").has("replica")).isFalse();
        assertThat(json(get(KC + "/extra")).path("spec").path("replicas").asInt()).isEqualTo(1);
    }

    @Test
    void a_patch_is_validated_on_its_result_and_a_null_removes_the_field() throws Exception {
        startSeeded("v1beta2");
        long generation = json(get(KC + "/" + CONNECT)).path("metadata").path("generation").asLong();
        HttpResponse<String> bad = send("PATCH", KC + "/" + CONNECT, MERGE, "{\"spec\":{\"replicas\":\"three\"}}");
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(json(bad).path("details").path("causes").get(0).path("field").asString()).isEqualTo("spec.replicas");

        HttpResponse<String> removed = send("PATCH", KC + "/" + CONNECT + "?fieldManager=kubectl-patch", MERGE,
                "{\"spec\":{\"version\":null}}");
        assertThat(removed.statusCode()).isEqualTo(200);
        JsonNode stored = json(get(KC + "/" + CONNECT));
        assertThat(stored.path("spec").has("version")).isFalse();
        assertThat(stored.path("metadata").path("generation").asLong()).isEqualTo(generation + 1);
        assertThat(stored.path("status").path("conditions").isArray()).as("status kept").isTrue();

        HttpResponse<String> jsonPatch = send("PATCH", KC + "/" + CONNECT, "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":true}]");
        assertThat(jsonPatch.statusCode()).isEqualTo(422);
        HttpResponse<String> failedTest = send("PATCH", KC + "/" + CONNECT, "application/json-patch+json",
                "[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":99}]");
        assertThat(failedTest.statusCode()).as("answered at once, not after the mock's 10 s hang").isEqualTo(422);
    }

    @Test
    void a_status_write_is_validated_against_the_status_schema() throws Exception {
        startSeeded("v1beta2");
        HttpResponse<String> bad = send("PATCH", KC + "/" + CONNECT + "/status", MERGE,
                "{\"status\":{\"observedGeneration\":\"latest\"}}");
        assertThat(bad.statusCode()).isEqualTo(422);
        assertThat(json(bad).path("details").path("causes").get(0).path("field").asString())
                .isEqualTo("status.observedGeneration");
    }

    @Test
    void a_dry_run_answers_what_would_be_stored_and_changes_nothing() throws Exception {
        startSeeded("v1beta2");
        HttpResponse<String> create = send("POST", KC + "?dryRun=All", "application/json", connect("v1beta2", NS, "dry", "2"));
        assertThat(create.statusCode()).isEqualTo(201);
        assertThat(json(create).path("metadata").path("generation").asLong()).isEqualTo(1);
        assertThat(get(KC + "/dry").statusCode()).isEqualTo(404);

        JsonNode before = json(get(KC + "/" + CONNECT));
        HttpResponse<String> patch = send("PATCH", KC + "/" + CONNECT + "?dryRun=All", MERGE, "{\"spec\":{\"replicas\":5}}");
        assertThat(patch.statusCode()).isEqualTo(200);
        assertThat(json(patch).path("metadata").path("generation").asLong())
                .isEqualTo(before.path("metadata").path("generation").asLong() + 1);
        assertThat(json(patch).path("spec").path("replicas").asInt()).isEqualTo(5);
        JsonNode after = json(get(KC + "/" + CONNECT));
        assertThat(after.path("metadata").path("resourceVersion").asString())
                .isEqualTo(before.path("metadata").path("resourceVersion").asString());
        assertThat(after.path("spec")).isEqualTo(before.path("spec"));

        assertThat(send("PATCH", KC + "/" + CONNECT + "?dryRun=All", MERGE, "{\"spec\":{\"replicas\":\"x\"}}").statusCode())
                .isEqualTo(422);
        assertThat(send("POST", KC + "?dryRun=All", "application/json", connect("v1beta2", NS, CONNECT, "1")).statusCode())
                .as("the name is taken").isEqualTo(409);
        assertThat(send("DELETE", KC + "/" + CONNECT + "?dryRun=All", "application/json", null).statusCode()).isEqualTo(200);
        assertThat(get(KC + "/" + CONNECT).statusCode()).isEqualTo(200);
    }

    @Test
    void an_admission_policy_refuses_a_field_and_rbac_refuses_a_verb_dry_runs_included() throws Exception {
        startSeeded("v1beta2");
        cluster.faults().denyField("KafkaConnect", "/spec/config/offset.flush.timeout.ms", "flush timeouts are fixed here");
        String patch = "{\"spec\":{\"config\":{\"offset.flush.timeout.ms\":1000}}}";
        for (String query : List.of("", "?dryRun=All")) {
            HttpResponse<String> denied = send("PATCH", KC + "/" + CONNECT + query, MERGE, patch);
            assertThat(denied.statusCode()).isEqualTo(400);
            assertThat(json(denied).path("message").asString()).isEqualTo("admission webhook \"policy.flowform.dev\" denied "
                    + "the request: flush timeouts are fixed here");
        }
        assertThat(send("PATCH", KC + "/" + CONNECT, MERGE, "{\"spec\":{\"config\":{\"task.shutdown.graceful.timeout.ms\":1}}}")
                .statusCode()).isEqualTo(200);

        cluster.faults().forbid("patch", "kafkaconnects");
        HttpResponse<String> forbidden = send("PATCH", KC + "/" + CONNECT + "?dryRun=All", MERGE, "{}");
        assertThat(forbidden.statusCode()).isEqualTo(403);
        assertThat(json(forbidden).path("message").asString()).contains("is forbidden: User \"flowform-embedded\" cannot "
                + "patch resource \"kafkaconnects\" in API group \"kafka.strimzi.io\" in the namespace \"mirror\"");
        cluster.faults().clear();
        assertThat(send("PATCH", KC + "/" + CONNECT, MERGE, patch).statusCode()).isEqualTo(200);
    }

    @Test
    void a_version_the_cluster_does_not_serve_is_not_found() throws Exception {
        startSeeded("v1beta2");
        assertThat(get("/apis/kafka.strimzi.io/v1/namespaces/" + NS + "/kafkaconnects/" + CONNECT).statusCode()).isEqualTo(404);
        assertThat(send("POST", "/apis/kafka.strimzi.io/v1/namespaces/" + NS + "/kafkaconnects", "application/json",
                connect("v1", NS, "other", "1")).statusCode()).isEqualTo(404);
        JsonNode crd = json(get("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/kafkaconnects.kafka.strimzi.io"));
        assertThat(crd.path("spec").path("versions").size()).isEqualTo(1);
        assertThat(crd.path("spec").path("versions").get(0).path("name").asString()).isEqualTo("v1beta2");
        assertThat(crd.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema").path("properties")
                .path("spec").path("properties").path("replicas").path("description").asString())
                .startsWith("The number of pods in the Kafka Connect group.");
    }

    @Test
    void the_simulator_is_held_to_the_same_schemas() {
        startSeeded("v1beta2");
        setWorkerEos(NS, "preparing");
        awaitIdle();
        editConnectorConfig(NS, SOURCE, c -> c.put("exactly.once.support", "required"));
        awaitIdle();
        assertThat(cluster.refusedSimulatorWrites()).as("the simulator's writes all pass, strictly").isZero();
        assertThat(live(NS).observedGeneration()).isEqualTo(connect(NS).getMetadata().getGeneration());
        Map<String, Object> status = JsonMaps.map(connect(NS).getAdditionalProperties().get("status"));
        CrdSchema.Result checked = StrimziCrds.schema(cluster.api(), "kafkaconnects")
                .check(JsonMaps.toMap(connect(NS)));
        assertThat(checked.causes()).isEmpty();
        assertThat(checked.pruned()).isEmpty();
        assertThat(status).containsKeys("conditions", "observedGeneration", "replicas", "labelSelector");
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send("GET", path, null, null);
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(cluster.url().replaceAll("/$", "") + path))
                .header("Accept", "application/json").header("Authorization", "Bearer " + EmbeddedCluster.CONTEXT)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> r) {
        return JsonMaps.MAPPER.readTree(r.body());
    }
}
