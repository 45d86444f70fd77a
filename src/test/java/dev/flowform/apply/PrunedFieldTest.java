package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.rules.StopBeforeChange;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * A write whose field the API server did not keep fails the step with the field named: an API server prunes what a
 * structural CRD does not define, so {@code spec.state} written to a KafkaConnector of a Strimzi before 0.38 is
 * dropped silently, and the connector would never stop (an API server before Kubernetes 1.25 ignores the strict field
 * validation flowform asks for). Played with fabric8's mock server answering the update with the object as such a
 * server stores it.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PrunedFieldTest {

    private static final String PATH = "/apis/kafka.strimzi.io/v1beta2/namespaces/replication/kafkaconnectors/flow-source";
    private static final ObjectRef REF = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnector", "replication",
            "flow-source");

    private KubernetesMockServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    private static GenericKubernetesResource connector(long generation, Map<String, Object> spec, Map<String, String> annotations) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion("kafka.strimzi.io/v1beta2");
        r.setKind("KafkaConnector");
        r.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("flow-source")
                .withNamespace("replication").withResourceVersion(String.valueOf(generation)).withGeneration(generation)
                .withAnnotations(annotations).build());
        r.setAdditionalProperty("spec", spec);
        return r;
    }

    private static Map<String, Object> spec() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("class", "org.apache.kafka.connect.mirror.MirrorSourceConnector");
        spec.put("config", Map.of("topics", "orders"));
        return spec;
    }

    private static List<FieldEdit> stopEdits() {
        return List.of(FieldEdit.set(List.of("spec", "state"), StopBeforeChange.STOPPED, false),
                FieldEdit.set(List.of("metadata", "annotations", StopBeforeChange.RESUME_ANNOTATION), "running", false));
    }

    @Test
    void a_stop_the_server_pruned_fails_naming_the_field_and_the_strimzi_version_it_needs() {
        server.expect().get().withPath(PATH).andReturn(200, connector(3, spec(), Map.of())).always();
        // the stored object keeps the annotation (metadata is never pruned) but not spec.state
        server.expect().put().withPath(PATH + "?fieldValidation=Strict").andReturn(200, connector(3, spec(),
                Map.of(StopBeforeChange.RESUME_ANNOTATION, "running"))).once();

        assertThatThrownBy(() -> new Fabric8ClusterWriter(client, d -> { }).patch(REF, stopEdits()))
                .isInstanceOf(ApplyException.class)
                .hasMessageContaining("the API server did not keep spec.state = stopped in KafkaConnector replication/flow-source")
                .hasMessageContaining("needs Strimzi 0.38 or newer");
    }

    @Test
    void a_stop_the_server_kept_returns_the_new_generation() {
        Map<String, Object> stopped = spec();
        stopped.put("state", "stopped");
        server.expect().get().withPath(PATH).andReturn(200, connector(3, spec(), Map.of())).always();
        server.expect().put().withPath(PATH + "?fieldValidation=Strict").andReturn(200, connector(4, stopped,
                Map.of(StopBeforeChange.RESUME_ANNOTATION, "running"))).once();

        assertThat(new Fabric8ClusterWriter(client, d -> { }).patch(REF, stopEdits())).isEqualTo(4);
    }
}
