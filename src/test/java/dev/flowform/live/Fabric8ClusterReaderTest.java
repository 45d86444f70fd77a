package dev.flowform.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveState;
import dev.flowform.model.StrimziApi;
import dev.flowform.plan.rules.RollCheck;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Sim;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class Fabric8ClusterReaderTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0}")
    @CsvSource({"existing-v1beta2, V1BETA2, 3, false", "existing-v1, V1, 2, true"})
    void reads_both_strimzi_api_versions_with_one_list_per_kind(String fixture, StrimziApi api, int workers,
                                                                boolean configMap) {
        try (EmbeddedCluster cluster = Sim.start(fixture, tmp, SimSettings.fast())) {
            Fabric8ClusterReader reader = new Fabric8ClusterReader(cluster.client());
            long before = cluster.clientRequestCount();

            LiveState live = reader.read(Set.of(Configs.NS));

            long requests = cluster.clientRequestCount() - before;
            assertThat(live.api()).isEqualTo(api);
            LiveConnectCluster c = live.cluster(Configs.NS, "mm2-connect").orElseThrow();
            assertThat(c.pods()).hasSize(workers);
            assertThat(c.podSet()).isNotNull();
            assertThat(c.configMap() != null).isEqualTo(configMap);
            assertThat(c.groupId()).isEqualTo("mm2-connect");
            assertThat(c.eosMode()).contains(EosMode.DISABLED);
            assertThat(RollCheck.evaluate(c, c.generation(), EosMode.DISABLED).isComplete()).isTrue();
            assertThat(live.connectorsOf(Configs.NS, "mm2-connect")).hasSize(3);
            assertThat(live.fingerprints()).containsKeys("KafkaConnect replication/mm2-connect",
                    "KafkaConnector replication/dc1-to-dc2-source");
            // 2 discovery requests (KafkaConnect and StrimziPodSet versions; v1 is asked first) and one list per kind:
            // KafkaConnect, KafkaConnector, StrimziPodSet, Pod, ConfigMap.
            assertThat(requests).isLessThanOrEqualTo(4 + 5);

            // The number of requests does not grow with the number of objects.
            long again = cluster.clientRequestCount();
            reader.read(Set.of(Configs.NS));
            assertThat(cluster.clientRequestCount() - again).isEqualTo(requests);
        }
    }
}
