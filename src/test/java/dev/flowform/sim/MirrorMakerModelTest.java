package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the simulated operator hands Kafka Connect for a KafkaMirrorMaker2, in both layouts: the worker properties with
 * Strimzi's {@code KafkaMirrorMaker2Configuration} defaults under what the resource sets, and connector configurations
 * as {@code KafkaMirrorMaker2Connectors.prepareMirrorMaker2ConnectorConfig} builds them. A real Connect worker needs
 * these: it does not start without converters.
 */
class MirrorMakerModelTest {

    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";

    @Test
    void v1beta2_worker_gets_strimzi_defaults_under_the_connect_cluster_entry() {
        Map<String, Object> spec = Map.of("connectCluster", "dc2", "clusters", List.of(
                Map.of("alias", "dc1", "bootstrapServers", "dc1:9092"),
                Map.of("alias", "dc2", "bootstrapServers", "dc2:9092", "config", Map.of("group.id", "mine",
                        "value.converter", "org.apache.kafka.connect.json.JsonConverter"))),
                "mirrors", List.of(Map.of("sourceCluster", "dc1", "targetCluster", "dc2", "topicsPattern", "orders",
                        "sourceConnector", Map.of("config", Map.of("exactly.once.support", "required")))));
        MirrorMakerModel m = MirrorMakerModel.of(mm2("kafka.strimzi.io/v1beta2", spec));

        Map<String, String> worker = WorkerConfig.parse(m.rendered().fileText());
        assertThat(worker).containsEntry("bootstrap.servers", "dc2:9092").containsEntry("group.id", "mine")
                .containsEntry("offset.storage.topic", "mirrormaker2-cluster-offsets")
                .containsEntry("key.converter", BYTES).containsEntry("header.converter", BYTES)
                .containsEntry("value.converter", "org.apache.kafka.connect.json.JsonConverter");

        Map<String, String> source = m.connectors().get("dc1->dc2.MirrorSourceConnector");
        assertThat(source).containsEntry("connector.class", "org.apache.kafka.connect.mirror.MirrorSourceConnector")
                .containsEntry("source.cluster.bootstrap.servers", "dc1:9092")
                .containsEntry("target.cluster.bootstrap.servers", "dc2:9092")
                .containsEntry("source.cluster.security.protocol", "PLAINTEXT")
                .containsEntry("target.cluster.security.protocol", "PLAINTEXT")
                .containsEntry("exactly.once.support", "required").containsEntry("topics", "orders");
        assertThat(m.connectors()).containsKey("dc1->dc2.MirrorCheckpointConnector");
    }

    @Test
    void v1_worker_takes_group_and_topics_from_the_target_and_tls_sasl_set_the_protocol() {
        Map<String, Object> spec = Map.of("target", Map.of("alias", "dc2", "bootstrapServers", "dc2:9093",
                        "groupId", "g", "configStorageTopic", "c", "offsetStorageTopic", "o", "statusStorageTopic", "s",
                        "tls", Map.of(), "config", Map.of("exactly.once.source.support", "enabled")),
                "mirrors", List.of(Map.of("source", Map.of("alias", "dc1", "bootstrapServers", "dc1:9092",
                        "authentication", Map.of("type", "scram-sha-512")), "sourceConnector", Map.of())));
        MirrorMakerModel m = MirrorMakerModel.of(mm2("kafka.strimzi.io/v1", spec));

        Map<String, String> worker = WorkerConfig.parse(m.rendered().fileText());
        assertThat(worker).containsEntry("group.id", "g").containsEntry("offset.storage.topic", "o")
                .containsEntry("key.converter", BYTES).containsEntry("exactly.once.source.support", "enabled");
        assertThat(m.connectors().get("dc1->dc2.MirrorSourceConnector"))
                .containsEntry("target.cluster.security.protocol", "SSL")
                .containsEntry("source.cluster.security.protocol", "SASL_PLAINTEXT");
        assertThat(m.connectors()).doesNotContainKey("dc1->dc2.MirrorCheckpointConnector");
    }

    private static GenericKubernetesResource mm2(String apiVersion, Map<String, Object> spec) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion(apiVersion);
        r.setKind("KafkaMirrorMaker2");
        r.setMetadata(new ObjectMetaBuilder().withName("mm2").withNamespace("mirror").build());
        r.setAdditionalProperty("spec", spec);
        return r;
    }
}
