package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What kubectl 1.27+ reads of the Strimzi CRDs, requested as kubectl requests it (no kubectl binary is assumed on CI;
 * kubectl 1.32 was run by hand against {@code flowform cluster serve}): the OpenAPI v3 documents behind
 * {@code kubectl explain kafkaconnect.spec} (Strimzi's descriptions) and behind {@code kubectl apply}'s choice to leave
 * field validation to the server, and the {@code Table} of {@code kubectl get} with the CRDs' printer columns.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class KubectlShapesTest extends SimTestSupport {
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;"
            + "v=v1beta1;g=meta.k8s.io,application/json";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private JsonNode get(String path, String accept) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(cluster.url().replaceAll("/$", "") + path))
                .header("Accept", accept).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return JsonMaps.MAPPER.readTree(r.body());
    }

    @Test
    void kubectl_explain_finds_strimzis_schemas_and_descriptions_in_openapi_v3() throws Exception {
        startSeeded("v1beta2");
        JsonNode index = get("/openapi/v3?timeout=32s", "application/json");
        String url = index.path("paths").path("apis/kafka.strimzi.io/v1beta2").path("serverRelativeURL").asString();
        assertThat(url).startsWith("/openapi/v3/apis/kafka.strimzi.io/v1beta2?hash=");
        assertThat(index.path("paths").has("apis/core.strimzi.io/v1beta2")).isTrue();

        JsonNode doc = get(url + "&timeout=32s", "application/json");
        JsonNode kc = doc.path("components").path("schemas").path("io.strimzi.kafka.v1beta2.KafkaConnect");
        assertThat(kc.path("x-kubernetes-group-version-kind").get(0).path("kind").asString()).isEqualTo("KafkaConnect");
        assertThat(kc.path("properties").path("spec").path("description").asString())
                .isEqualTo("The specification of the Kafka Connect cluster.");
        assertThat(kc.path("properties").path("spec").path("properties").path("bootstrapServers").path("description")
                .asString()).startsWith("Bootstrap servers to connect to.");
        assertThat(doc.path("components").path("schemas").has("io.strimzi.kafka.v1beta2.KafkaMirrorMaker2")).isTrue();

        JsonNode patch = doc.path("paths").path("/apis/kafka.strimzi.io/v1beta2/namespaces/{namespace}/kafkaconnects/{name}")
                .path("patch");
        assertThat(patch.path("x-kubernetes-group-version-kind").path("kind").asString()).isEqualTo("KafkaConnect");
        assertThat(patch.path("parameters").findValuesAsString("name")).contains("fieldValidation", "dryRun");
    }

    @Test
    void kubectl_get_shows_the_crds_printer_columns() throws Exception {
        startSeeded("v1beta2");
        JsonNode connects = get("/apis/kafka.strimzi.io/v1beta2/namespaces/" + NS + "/kafkaconnects?limit=500", TABLE);
        assertThat(connects.path("kind").asString()).isEqualTo("Table");
        assertThat(connects.path("columnDefinitions").findValuesAsString("name"))
                .containsExactly("Name", "Desired replicas", "Ready");
        JsonNode row = connects.path("rows").get(0);
        assertThat(row.path("cells").get(0).asString()).isEqualTo(CONNECT);
        assertThat(row.path("cells").get(1).asInt()).isEqualTo(3);
        assertThat(row.path("cells").get(2).asString()).isEqualTo("True");
        assertThat(row.path("object").path("kind").asString()).isEqualTo("PartialObjectMetadata");

        JsonNode connector = get("/apis/kafka.strimzi.io/v1beta2/namespaces/" + NS + "/kafkaconnectors/" + SOURCE, TABLE);
        assertThat(connector.path("columnDefinitions").findValuesAsString("name"))
                .containsExactly("Name", "Cluster", "Connector class", "Max Tasks", "Ready");
        assertThat(connector.path("rows").get(0).path("cells").get(1).asString()).isEqualTo(CONNECT);
        assertThat(get("/apis/kafka.strimzi.io/v1beta2/namespaces/" + NS + "/kafkaconnects", "application/json")
                .path("kind").asString()).as("without as=Table: the list").isNotEqualTo("Table");
    }

    @Test
    void printer_column_json_paths_and_ages_are_read_as_kubectl_reads_them() {
        Map<String, Object> o = Map.of("metadata", Map.of("labels", Map.of("strimzi.io/cluster", "c")),
                "status", Map.of("conditions", List.of(Map.of("type", "NotReady", "status", "False"),
                        Map.of("type", "Ready", "status", "True"))));
        assertThat(PrinterColumns.first(o, ".metadata.labels.strimzi\\.io/cluster")).isEqualTo("c");
        assertThat(PrinterColumns.first(o, ".status.conditions[?(@.type==\"Ready\")].status")).isEqualTo("True");
        assertThat(PrinterColumns.first(o, ".spec.replicas")).isNull();
        assertThat(PrinterColumns.humanDuration(Duration.ofSeconds(75))).isEqualTo("75s");
        assertThat(PrinterColumns.humanDuration(Duration.ofSeconds(185))).isEqualTo("3m5s");
        assertThat(PrinterColumns.humanDuration(Duration.ofMinutes(150))).isEqualTo("150m");
        assertThat(PrinterColumns.humanDuration(Duration.ofHours(5).plusMinutes(7))).isEqualTo("5h7m");
        assertThat(PrinterColumns.humanDuration(Duration.ofHours(30))).isEqualTo("30h");
        assertThat(PrinterColumns.humanDuration(Duration.ofHours(75))).isEqualTo("3d3h");
        assertThat(PrinterColumns.humanDuration(Duration.ofDays(40))).isEqualTo("40d");
    }
}
