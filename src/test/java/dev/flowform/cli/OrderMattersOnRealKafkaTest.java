package dev.flowform.cli;

import dev.flowform.cli.view.ProveView;
import dev.flowform.locking.Sleeper;
import dev.flowform.run.ProveOperation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Why the order matters, on real Kafka: the source connector patched to {@code exactly.once.support: required}
 * while the workers run with {@code preparing} (what a hand rollout that hurries does) is rejected by Kafka
 * itself, and the KafkaConnector goes NotReady with Kafka's message. flowform's plan from that state puts the
 * connector change after the {@code enabled} roll, and its apply brings the flow back.
 */
@Tag("kafka")
class OrderMattersOnRealKafkaTest {
    private static final String WORKER_NOT_ENABLED = "This worker does not have exactly-once source support enabled.";

    @TempDir
    Path work;

    @Test
    void a_connector_patched_before_the_second_roll_is_rejected_by_kafka_and_flowform_never_does_that() {
        try (RealKafkaExample ex = RealKafkaExample.start(work)) {
            // by hand, as with kubectl: the first half of the rollout
            GenericKubernetesResource kc = edit(ex.connect(), r -> {
                config(r).put("exactly.once.source.support", "preparing");
                return r;
            });
            long g = kc.getMetadata().getGeneration();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .until(() -> readyAt(ex.connect().get(), g));

            // ... then the connector, too early
            GenericKubernetesResource c = edit(ex.connector("dc1-to-dc2-source"), r -> {
                config(r).put("exactly.once.support", "required");
                config(r).put("source.consumer.isolation.level", "read_committed");
                return r;
            });
            long cg = c.getMetadata().getGeneration();
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(300))
                    .until(() -> notReadyMessage(ex.connector("dc1-to-dc2-source").get(), cg) != null);
            String message = notReadyMessage(ex.connector("dc1-to-dc2-source").get(), cg);
            System.out.println("KafkaConnector dc1-to-dc2-source NotReady: " + message);
            assertThat(message).isEqualTo("PUT /connectors/dc1-to-dc2-source/config returned 400 (Bad Request): "
                    + "Connector configuration is invalid and contains the following 1 error(s):\n" + WORKER_NOT_ENABLED
                    + "\nYou can also find the above list of errors at the endpoint "
                    + "`/connector-plugins/{connectorType}/config/validate`");

            // flowform's plan from here: enabled, a complete roll, and only then the connector
            CliRunner.Result plan = ex.run(work.resolve("state"), "plan", "--json");
            System.out.println(plan.err());
            JsonNode doc = JsonMapper.builder().build().readTree(plan.out());
            List<String> steps = new ArrayList<>();
            for (JsonNode s : doc.path("steps")) {
                steps.add(s.path("kind").asString() + " " + s.path("payload").path("mode").asString("")
                        + s.path("payload").path("expected_mode").asString("") + " " + s.path("object").path("name").asString());
            }
            System.out.println("plan steps: " + steps);
            int enable = steps.indexOf("SET_WORKER_EOS enabled mm2-connect");
            int roll = steps.indexOf("WAIT_FOR_ROLL enabled mm2-connect");
            int update = steps.indexOf("UPDATE_CONNECTOR  dc1-to-dc2-source");
            assertThat(enable).as("steps %s", steps).isGreaterThanOrEqualTo(0);
            assertThat(roll).as("steps %s", steps).isGreaterThan(enable);
            assertThat(update).as("steps %s", steps).isGreaterThan(roll);

            CliRunner.Result apply = ex.run(work.resolve("state"), "apply", "--auto-approve");
            System.out.println(apply.out());
            assertThat(apply.exitCode()).as("%s", apply).isZero();
            // the other connectors restart with the roll too; on a loaded machine their tasks come back, and the operator
            // reports them, minutes later (the seeded connectors get the same 4 minutes)
            await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(500)).until(() ->
                    ProveOperation.awaitConnectorsRunning(ex.cluster, RealKafkaExample.NS, new ProveView(
                            new java.io.PrintWriter(java.io.Writer.nullWriter())), Sleeper.SYSTEM));
            assertThat(ex.kafka.runtime().status(RealKafkaExample.NS + "/mm2-connect", "dc1-to-dc2-source"))
                    .hasValueSatisfying(s -> assertThat(s.state()).isEqualTo("RUNNING"));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> config(GenericKubernetesResource r) {
        Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
        return (Map<String, Object>) spec.computeIfAbsent("config", k -> new java.util.LinkedHashMap<>());
    }

    private static boolean readyAt(GenericKubernetesResource r, long generation) {
        Map<?, ?> status = (Map<?, ?>) r.getAdditionalProperties().get("status");
        if (status == null || !(status.get("observedGeneration") instanceof Number n) || n.longValue() < generation) {
            return false;
        }
        return status.get("conditions") instanceof List<?> l && l.stream().anyMatch(x -> x instanceof Map<?, ?> m
                && "Ready".equals(m.get("type")) && "True".equals(m.get("status")));
    }

    private static String notReadyMessage(GenericKubernetesResource r, long generation) {
        Map<?, ?> status = (Map<?, ?>) r.getAdditionalProperties().get("status");
        if (status == null || !(status.get("observedGeneration") instanceof Number n) || n.longValue() < generation
                || !(status.get("conditions") instanceof List<?> l)) {
            return null;
        }
        return l.stream().filter(x -> x instanceof Map<?, ?> m && "NotReady".equals(m.get("type")))
                .map(x -> String.valueOf(((Map<?, ?>) x).get("message"))).findFirst().orElse(null);
    }

    /**
     * Edits as {@code kubectl edit} does (read, change, write with the read resourceVersion), again when the write meets
     * 409 Conflict: the operator writes the object's status while it reconciles, which moves the resourceVersion
     * between the read and the write, and a person would simply edit again.
     */
    private static GenericKubernetesResource edit(Resource<GenericKubernetesResource> resource,
                                                  java.util.function.UnaryOperator<GenericKubernetesResource> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                return resource.edit(change);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 5) {
                    throw e;
                }
            }
        }
    }
}
