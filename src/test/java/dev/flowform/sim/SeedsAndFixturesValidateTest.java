package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.model.StrimziApi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Strimzi object the project ships as an example or a test fixture matches Strimzi's own schema of its version,
 * strictly (no field the schema does not know, status included): the seeds of {@code examples/} and of the test
 * resources, the cluster fixtures, and every object the golden plans create. A seed that does not match is refused
 * by the embedded cluster with the object and the field named.
 */
class SeedsAndFixturesValidateTest {

    @TempDir
    Path tmp;

    /** @return every folder of seed manifests and the fixtures folder */
    private static List<Path> seedFolders() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path root : List.of(Path.of("examples"), Path.of("src", "test", "resources"))) {
            try (Stream<Path> s = Files.walk(root)) {
                s.filter(Files::isDirectory).filter(d -> {
                    try (Stream<Path> files = Files.list(d)) {
                        return files.anyMatch(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"));
                    } catch (IOException e) {
                        return false;
                    }
                }).filter(d -> !d.toString().contains("golden") && !d.equals(Path.of("examples", "ci"))).forEach(out::add);
            }
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> every_seed_and_fixture_matches_strimzis_schema() throws IOException {
        List<Path> folders = seedFolders();
        assertThat(folders).as("the examples' seeds and the fixtures are found")
                .contains(Path.of("examples", "quickstart", "seed"), Path.of("examples", "mirrormaker2", "seed"),
                        Path.of("src", "test", "resources", "fixtures"), Path.of("src", "test", "resources", "sim", "v1"))
                .hasSizeGreaterThanOrEqualTo(12);
        return folders.stream().map(folder -> DynamicTest.dynamicTest(folder.toString(), () -> {
            List<Map<String, Object>> objects = ClusterStore.readSeedDir(folder);
            assertThat(objects).as("objects in %s", folder).isNotEmpty();
            for (StrimziApi api : StrimziApi.values()) {
                List<Map<String, Object>> ofApi = objects.stream()
                        .filter(o -> api == StrimziApi.fromApiVersion(String.valueOf(o.get("apiVersion"))))
                        .filter(o -> String.valueOf(o.get("apiVersion")).contains("strimzi.io")).toList();
                ClusterStore.checkSchemas(ofApi, api);
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> every_object_a_golden_plan_creates_matches_strimzis_schema() throws IOException {
        List<Path> plans;
        try (Stream<Path> s = Files.walk(Path.of("src", "test", "resources", "golden-plans"))) {
            plans = s.filter(p -> p.getFileName().toString().equals("plan.json")).sorted().toList();
        }
        assertThat(plans).hasSizeGreaterThanOrEqualTo(30);
        return plans.stream().map(plan -> DynamicTest.dynamicTest(plan.getParent().getFileName().toString(), () -> {
            Map<String, Object> doc = JsonMaps.map(JsonMaps.MAPPER.readValue(Files.readAllBytes(plan), Map.class));
            for (Object s : JsonMaps.list(doc.get("steps"))) {
                Map<String, Object> manifest = JsonMaps.map(JsonMaps.at(JsonMaps.map(s), "payload", "manifest"));
                if (manifest != null) {
                    StrimziApi api = StrimziApi.fromApiVersion(String.valueOf(manifest.get("apiVersion")));
                    ClusterStore.checkSchemas(List.of(manifest), api);
                }
            }
        }));
    }

    @Test
    void a_seed_that_does_not_match_is_refused_naming_the_object_and_the_field() throws IOException {
        Files.writeString(tmp.resolve("bad.yaml"), """
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaConnect
                metadata:
                  name: bad
                  namespace: ns
                spec:
                  replicas: three
                  bootstrapServer: kafka:9092
                """);
        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(tmp).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("KafkaConnect ns/bad does not match Strimzi's v1beta2 schema")
                .hasMessageContaining("spec.bootstrapServer: unknown field")
                .hasMessageContaining("spec.replicas: Invalid value: \"string\"")
                .hasMessageContaining("spec.bootstrapServers: Required value");
    }
}
