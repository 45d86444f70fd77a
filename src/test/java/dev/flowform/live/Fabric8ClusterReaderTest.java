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
import dev.flowform.model.KafkaAcl;
import dev.flowform.model.LiveKafkaUser;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
            createKafkaUser(cluster, api);
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
            LiveKafkaUser user = live.kafkaUser(Configs.NS, "mm2-connect").orElseThrow();
            assertThat(user.authorization()).isEqualTo("simple");
            assertThat(user.acls()).containsExactly(new KafkaAcl("allow", "transactionalId", "mm2-connect-", true, "*",
                    List.of("Write", "Describe")));
            // 3 discovery requests (KafkaConnect, StrimziPodSet and KafkaUser versions; v1 is asked first) and one list
            // per kind: KafkaConnect, KafkaConnector, StrimziPodSet, Pod, ConfigMap, KafkaUser.
            assertThat(requests).isLessThanOrEqualTo(6 + 6);

            // The number of requests does not grow with the number of objects.
            long again = cluster.clientRequestCount();
            reader.read(Set.of(Configs.NS));
            assertThat(cluster.clientRequestCount() - again).isEqualTo(requests);
        }
    }

    /** Creates a KafkaUser as Strimzi's User Operator users write one, through the API server's admission. */
    private static void createKafkaUser(EmbeddedCluster cluster, StrimziApi api) {
        GenericKubernetesResource user = new GenericKubernetesResource();
        user.setApiVersion(api.kafkaApiVersion());
        user.setKind(LiveKafkaUser.KIND);
        user.setMetadata(new ObjectMetaBuilder().withName("mm2-connect").withNamespace(Configs.NS).build());
        user.setAdditionalProperty("spec", Map.of("authentication", Map.of("type", "scram-sha-512"),
                "authorization", Map.of("type", "simple", "acls", List.of(Map.of(
                        "resource", Map.of("type", "transactionalId", "name", "mm2-connect-", "patternType", "prefix"),
                        "operations", List.of("Write", "Describe"))))));
        cluster.client().genericKubernetesResources(StrimziResources.kafkaUser(api)).inNamespace(Configs.NS)
                .resource(user).create();
    }
}
