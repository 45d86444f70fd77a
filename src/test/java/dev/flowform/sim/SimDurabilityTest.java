package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write the API server acknowledged is in the persist file before the acknowledgement arrives (so a
 * process killed right after a write finds it after a restart), and a read-only cluster never writes
 * the file.
 */
class SimDurabilityTest extends SimTestSupport {

    @TempDir
    Path tmp;

    @Test
    void an_acknowledged_write_is_already_in_the_persist_file() throws IOException {
        Path file = tmp.resolve("cluster.json");
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().persistFile(file).seedDir(seed("v1beta2"))
                .settings(SimSettings.fast()).build());
        awaitIdle();
        cluster.simulator().close();

        for (int i = 0; i < 5; i++) {
            GenericKubernetesResource kc = connect(NS);
            editConfig(kc, "flowform.test.marker", "value-" + i);
            cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(cluster.api())).inNamespace(NS)
                    .resource(kc).update();

            assertThat(persistedConfig(file)).as("read at once, without waiting").containsEntry("flowform.test.marker",
                    "value-" + i);
        }
    }

    @Test
    void a_read_only_cluster_without_a_file_creates_it_once_from_the_seed() throws IOException {
        Path file = tmp.resolve("fresh.json");
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().persistFile(file).seedDir(seed("v1beta2"))
                .settings(SimSettings.fast()).persistReadOnly(true).build());

        assertThat(persistedConfig(file)).as("the seeded KafkaConnect").isNotNull();
        byte[] created = Files.readAllBytes(file);
        GenericKubernetesResource kc = connect(NS);
        editConfig(kc, "flowform.test.marker", "not-persisted");
        cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(cluster.api())).inNamespace(NS).resource(kc)
                .update();
        cluster.close();
        assertThat(Files.readAllBytes(file)).isEqualTo(created);
    }

    @Test
    void a_read_only_cluster_loads_the_file_and_never_writes_it() throws IOException {
        Path file = tmp.resolve("cluster.json");
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().persistFile(file).seedDir(seed("v1beta2"))
                .settings(SimSettings.fast()).build());
        awaitIdle();
        cluster.close();
        byte[] before = Files.readAllBytes(file);

        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().persistFile(file).settings(SimSettings.fast())
                .persistReadOnly(true).build());
        GenericKubernetesResource kc = connect(NS);
        assertThat(kc).as("loaded from the file").isNotNull();
        editConfig(kc, "flowform.test.marker", "not-persisted");
        cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(cluster.api())).inNamespace(NS).resource(kc)
                .update();
        cluster.close();

        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void writes_never_fail_while_watches_close() {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed("v1beta2")).settings(SimSettings.fast())
                .build());
        awaitIdle();
        cluster.simulator().close(); // only this test writes: no conflicts with the operator's status writes
        var kcs = cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(cluster.api())).inNamespace(NS);
        for (int i = 0; i < 20; i++) {
            var watch = kcs.withName(CONNECT).watch(new io.fabric8.kubernetes.client.Watcher<GenericKubernetesResource>() {
                @Override
                public void eventReceived(Action action, GenericKubernetesResource resource) {
                }

                @Override
                public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
                }
            });
            GenericKubernetesResource kc = connect(NS);
            editConfig(kc, "flowform.test.marker", "value-" + i);
            watch.close();
            kcs.resource(kc).update();
        }
        assertThat(JsonMaps.str(JsonMaps.toMap(connect(NS)), "spec", "config", "flowform.test.marker")).isEqualTo("value-19");
    }

    @SuppressWarnings("unchecked")
    private static void editConfig(GenericKubernetesResource kc, String key, String value) {
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) kc.getAdditionalProperties().get("spec"));
        Map<String, Object> config = new LinkedHashMap<>((Map<String, Object>) spec.get("config"));
        config.put(key, value);
        spec.put("config", config);
        kc.setAdditionalProperty("spec", spec);
    }

    private static Map<String, Object> persistedConfig(Path file) throws IOException {
        Map<String, Object> state = JsonMaps.map(JsonMaps.MAPPER.readValue(Files.readAllBytes(file), Map.class));
        List<Object> objects = JsonMaps.list(state.get("objects"));
        for (Object o : objects) {
            Map<String, Object> m = JsonMaps.map(o);
            if (StrimziCrds.KAFKA_CONNECT.equals(m.get("kind")) && CONNECT.equals(JsonMaps.str(m, "metadata", "name"))) {
                return JsonMaps.map(JsonMaps.at(m, "spec", "config"));
            }
        }
        throw new AssertionError("no KafkaConnect " + CONNECT + " in " + file);
    }
}
