package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.testing.Configs;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Kafka versions, staleness rules, the plan codec's versions and secrets, and targeting under reverse order. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class SavedPlanPiecesTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void kafka_versions_parse_apache_and_cloudera_strings() {
        assertThat(KafkaVersion.parse("3.9.0.1.4")).hasValueSatisfying(v -> {
            assertThat(v.kafka()).isEqualTo("3.9.0");
            assertThat(v.isBefore(3, 6)).isFalse();
        });
        assertThat(KafkaVersion.parse("3.5")).hasValueSatisfying(v -> assertThat(v.isBefore(3, 6)).isTrue());
        assertThat(KafkaVersion.parse("3.2.3")).hasValueSatisfying(v -> assertThat(v.isBefore(3, 3)).isTrue());
        assertThat(KafkaVersion.parse("4.1.1")).hasValueSatisfying(v -> assertThat(v.isBefore(3, 3)).isFalse());
        assertThat(KafkaVersion.parse("latest")).isEmpty();
        assertThat(KafkaVersion.parse(null)).isEmpty();
    }

    private static Plan saved(String env, StateRef ref, Map<String, String> live) {
        return new Plan(Plan.FORMAT_VERSION, env, NOW, ref, live, List.of(), List.of(), List.of());
    }

    private static final String REPLAN = "flowform plan --dir conf -e prod --out FILE";

    @Test
    void staleness_checks_environment_lineage_serial_and_every_live_fingerprint() {
        StateRef ref = new StateRef("L1", 4);
        Map<String, String> live = Map.of("KafkaConnect ns/a", "f1", "KafkaConnector ns/b", "f2");

        assertThat(Staleness.check(saved("prod", ref, live), "prod", ref, live, REPLAN)).isEmpty();
        assertThat(Staleness.check(saved("prod", ref, live), "staging", ref, live, REPLAN)).extracting(Diagnostic::summary)
                .containsExactly("Saved plan is for another environment");
        assertThat(Staleness.check(saved("prod", ref, live), "prod", new StateRef("L2", 4), live, REPLAN))
                .singleElement().satisfies(d -> assertThat(d.summary()).isEqualTo("Saved plan does not match the given state"))
                .satisfies(d -> assertThat(d.detail()).doesNotContain("holds nothing yet"));
        assertThat(Staleness.check(saved("prod", ref, live), "prod", new StateRef("L3", 0), live, REPLAN)).singleElement()
                .satisfies(d -> assertThat(d.detail()).contains("holds nothing yet (serial 0)", "a pg backend block"));
        assertThat(Staleness.check(saved("prod", ref, live), "prod", new StateRef("L1", 5), live, REPLAN))
                .extracting(Diagnostic::summary).containsExactly("Saved plan is stale");
        List<Diagnostic> changed = Staleness.check(saved("prod", ref, live), "prod", ref,
                Map.of("KafkaConnect ns/a", "f1-new", "KafkaConnector ns/c", "f3"), REPLAN);
        assertThat(changed).singleElement().satisfies(d -> assertThat(d.detail()).contains(
                "KafkaConnect ns/a (changed since)", "KafkaConnector ns/b (deleted since)", "KafkaConnector ns/c (created since)",
                "Create a new plan with: " + REPLAN));
    }

    @Test
    void the_codec_encrypts_step_secrets_through_the_callers_encoder_and_reveals_them_on_decode() {
        FieldEdit secret = FieldEdit.set(List.of("spec", "config", "sasl.jaas.config"), "pw=hunter2", true);
        Step step = new Step(1, StepKind.UPDATE_CONNECTOR, "kafka_connector.x",
                new dev.flowform.model.ObjectRef("kafka.strimzi.io/v1", "KafkaConnector", "ns", "x"), List.of(),
                new StepPayload.PatchObject(List.of(secret)), "sasl.jaas.config=(sensitive value)");
        Plan plan = new Plan(Plan.FORMAT_VERSION, "prod", NOW, new StateRef("L", 1), Map.of(), List.of(), List.of(step), List.of())
                .withInputs(new PlanInputs(Map.of("main.flow.json", "{}"), Map.of("pw", new PlanInputs.Variable("hunter2", true),
                        "ns", new PlanInputs.Variable("replication", false))));

        String json = PlanCodec.toJson(plan, "test", v -> "enc(" + new StringBuilder(v).reverse() + ")");

        assertThat(json).doesNotContain("hunter2").contains("enc(").contains("\"replication\"");
        Plan back = PlanCodec.decode(json, v -> new StringBuilder(v.substring(4, v.length() - 1)).reverse().toString());
        assertThat(((StepPayload.PatchObject) back.steps().get(0).payload()).edits().get(0).value()).isEqualTo("pw=hunter2");
        assertThat(back.inputs().variables().get("pw").value()).isEqualTo("hunter2");
        assertThatThrownBy(() -> PlanCodec.decode(json, v -> {
            throw new IllegalArgumentException("not encrypted for this environment");
        })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not encrypted");
    }

    @Test
    void format_1_documents_still_decode_and_newer_ones_are_refused() {
        Plan plan = new Plan(Plan.FORMAT_VERSION, "prod", NOW, new StateRef("L", 1), Map.of("KafkaConnect ns/a", "f"),
                List.of(), List.of(), List.of());
        ObjectNode doc = PlanCodec.encode(plan, "test", PlanCodec.MASK);
        for (String field : List.of("mode", "targets", "resource_drift", "transactional_ids", "configuration", "has_drift")) {
            doc.remove(field);
        }
        doc.put("format_version", 1);
        Plan v1 = PlanCodec.decode(doc.toString());
        assertThat(v1.mode()).isEqualTo(PlanMode.NORMAL);
        assertThat(v1.liveFingerprints()).containsEntry("KafkaConnect ns/a", "f");

        doc.put("format_version", Plan.FORMAT_VERSION + 1);
        assertThatThrownBy(() -> PlanCodec.decode(doc.toString())).hasMessageContaining("newer than this flowform supports");
    }

    @Test
    void targeting_the_cluster_while_disabling_keeps_the_connector_steps_it_depends_on() {
        World w = new World(StrimziApi.V1BETA2);
        w.kc = w.connect("enabled", 3, "3.9.0", true, false);
        w.roll = World.Roll.ROLLED;
        Map<String, String> eosOn = Map.of("source.cluster.alias", "dc1", "target.cluster.alias", "dc2",
                "exactly.once.support", "required", "source.consumer.isolation.level", "read_committed");
        for (String n : List.of("dc1-to-dc2-source", "dc1-to-dc2-checkpoint", "dc1-to-dc2-heartbeat")) {
            String cls = n.endsWith("source") ? dev.flowform.model.ConnectorRole.SOURCE.connectorClass()
                    : n.endsWith("checkpoint") ? dev.flowform.model.ConnectorRole.CHECKPOINT.connectorClass()
                    : dev.flowform.model.ConnectorRole.HEARTBEAT.connectorClass();
            w.connectors.put(n, w.connector(n, cls, 1, null, n.endsWith("source") ? eosOn
                    : Map.of("source.cluster.alias", "dc1", "target.cluster.alias", "dc2"), Map.of()));
            w.statuses.put(n, World.Status.RUNNING);
        }
        var desired = Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)), List.of(Configs.adoptedFlow(false)));

        Plan plan = Planner.plan(desired, w.toLive(), new PlanRequest("test", new StateRef("L", 1), NOW)
                .withOptions(PlanOptions.DEFAULT.withTargets(List.of("connect_cluster.mm2-connect"))));

        assertThat(plan.steps()).extracting(Step::kind).containsExactly(StepKind.STOP_CONNECTOR,
                StepKind.WAIT_FOR_CONNECTOR_READY, StepKind.UPDATE_CONNECTOR, StepKind.WAIT_FOR_CONNECTOR_READY,
                StepKind.SET_WORKER_EOS, StepKind.WAIT_FOR_ROLL);
        assertThat(((StepPayload.SetWorkerEos) plan.steps().get(4).payload()).mode()).isEqualTo(EosMode.DISABLED);
        assertThat(plan.diagnostics()).extracting(Diagnostic::summary).contains("Resource targeting is in effect");
    }
}
