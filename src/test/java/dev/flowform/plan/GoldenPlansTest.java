package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.config.ClusterEndpoint;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.config.ReplicationFlowBlock;
import dev.flowform.diag.Diagnostic;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveKafkaUser;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.render.DiagnosticRenderer;
import dev.flowform.render.PlanRenderer;
import dev.flowform.render.Style;
import dev.flowform.testing.Configs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The one golden-plan harness for both kinds of the Connect family: the human rendering and the JSON document of a
 * plan for each situation the planner handles, compared with {@code src/test/resources/golden-plans/<case>/plan.txt}
 * and {@code plan.json}; KafkaConnect cases here, KafkaMirrorMaker2 cases ({@code mm2-*}, both layouts, also with
 * Strimzi 0.46-0.48's pods that the operator does not roll) in {@link MirrorMakerGoldenCases}. Regenerate them with
 * {@code mvn test -Dtest=GoldenPlansTest -Dgolden.update=true} and review the diff. Deterministic: a fixed clock, a
 * fixed version string, sorted maps.
 *
 * <p>The human text is rendered from the decoded JSON document, as the CLI does, and every case also checks that
 * rendering the plan directly gives the same text (the document holds everything the text shows) and that no secret
 * reaches either file.
 */
class GoldenPlansTest {

    private static final Path DIR = Path.of("src", "test", "resources", "golden-plans");
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    private static final StateRef STATE = new StateRef("6f1c2a9e-0b7d-4e55-9a31-2c8d4b7e1f00", 42);
    /** A secret some cases put in the configuration or the live objects; it must reach neither file. */
    static final String SECRET = "Golden-Secret-8812";
    private static final UnaryOperator<String> HASH = v -> "sha256:" + Integer.toHexString(v.hashCode());

    /** One situation: its configuration, live objects, flags and recorded state. */
    record Situation(DesiredState desired, LiveState live, PlanOptions options, List<RecordedResource> recorded) {
        Situation(DesiredState desired, LiveState live) {
            this(desired, live, PlanOptions.DEFAULT, List.of());
        }

        Situation with(PlanOptions o) {
            return new Situation(desired, live, o, recorded);
        }
    }

    @TestFactory
    Stream<DynamicTest> golden_plans() {
        Map<String, Supplier<Situation>> cases = cases();
        assertThat(cases).hasSizeGreaterThanOrEqualTo(30);
        Map<String, Supplier<Situation>> mm2 = MirrorMakerGoldenCases.cases();
        assertThat(cases.keySet()).doesNotContainAnyElementsOf(mm2.keySet());
        cases.putAll(mm2);
        return cases.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> check(e.getKey(), e.getValue().get())));
    }

    private static void check(String name, Situation s) throws IOException {
        assertThat(name.startsWith("mm2-")).as("KafkaMirrorMaker2 cases, and only they, are named mm2-*")
                .isEqualTo(!s.desired().mirrorMakers().isEmpty());
        Plan plan = Planner.plan(s.desired(), s.live(), new PlanRequest("prod", STATE, NOW, s.options(), s.recorded(), HASH));
        String json = PlanCodec.toJson(plan, "test", PlanCodec.MASK);
        Plan decoded = PlanCodec.decode(json);
        String text = text(decoded);
        assertThat(text(plan)).as("the document holds everything the text shows").isEqualTo(text);
        assertThat(PlanCodec.toJson(decoded, "test", PlanCodec.MASK)).as("decode/encode round trip").isEqualTo(json);
        assertThat(text + json).doesNotContain(SECRET);
        Path folder = DIR.resolve(name);
        if (UPDATE) {
            Files.createDirectories(folder);
            Files.writeString(folder.resolve("plan.txt"), text);
            Files.writeString(folder.resolve("plan.json"), json);
            return;
        }
        assertThat(folder.resolve("plan.txt")).as("golden file missing: run with -Dgolden.update=true").exists();
        assertThat(text).isEqualTo(Files.readString(folder.resolve("plan.txt")));
        assertThat(json).isEqualTo(Files.readString(folder.resolve("plan.json")));
    }

    /** Diagnostics as the terminal prints them, then the plan. */
    private static String text(Plan plan) {
        StringBuilder sb = new StringBuilder();
        for (Diagnostic d : plan.diagnostics()) {
            sb.append(DiagnosticRenderer.render(d, Map.of(), Style.PLAIN));
        }
        if (!plan.diagnostics().isEmpty()) {
            sb.append('\n');
        }
        if (plan.isApplyable()) {
            sb.append(PlanRenderer.render(plan, Style.PLAIN));
        } else {
            sb.append("(not applyable: the plan has errors)\n");
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------------ cases

    private static Map<String, Supplier<Situation>> cases() {
        Map<String, Supplier<Situation>> m = new LinkedHashMap<>();
        m.put("eos-absent-rolled", () -> new Situation(adopt(true), mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED, null).toLive()));
        m.put("eos-disabled-rolled-v1", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1, "disabled", World.Roll.ROLLED, null).toLive()));
        m.put("preparing-rolled", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1BETA2, "preparing", World.Roll.ROLLED, null).toLive()));
        m.put("preparing-roll-in-progress", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1BETA2, "preparing", World.Roll.IN_PROGRESS, EosMode.DISABLED).toLive()));
        m.put("observed-generation-current-workers-behind", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1, "preparing", World.Roll.PODS_BEHIND, EosMode.DISABLED).toLive()));
        m.put("enabled-rolled-connector-only", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null).toLive()));
        m.put("enabled-roll-in-progress", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1BETA2, "enabled", World.Roll.IN_PROGRESS, EosMode.PREPARING).toLive()));
        m.put("enabled-preparing-skipped", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1BETA2, "enabled", World.Roll.IN_PROGRESS, EosMode.DISABLED).toLive()));
        m.put("not-ready-refused", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1BETA2, "preparing", World.Roll.NOT_READY, EosMode.DISABLED).toLive()));
        m.put("not-ready-accepted-with-fix", () -> new Situation(desired(cluster(Map.of("offset.flush.interval.ms", "10000")),
                Configs.adoptedFlow(true)), mm2(StrimziApi.V1BETA2, "preparing", World.Roll.NOT_READY, EosMode.DISABLED).toLive(),
                PlanOptions.DEFAULT.withAcceptFailedReconcile(true), List.of()));
        m.put("not-ready-accepted-nothing-retriggers", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1BETA2, "preparing", World.Roll.NOT_READY, EosMode.DISABLED).toLive())
                .with(PlanOptions.DEFAULT.withAcceptFailedReconcile(true)));
        m.put("reconciliation-paused", () -> new Situation(adopt(true),
                mm2(StrimziApi.V1BETA2, null, World.Roll.PAUSED, null).toLive()));
        m.put("reconciliation-paused-nothing-to-change", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.PAUSED, null);
            Map<String, Object> config = World.map(World.map(w.connectors.get("dc1-to-dc2-source").get("spec")).get("config"));
            config.put("exactly.once.support", "required");
            config.put("source.consumer.isolation.level", "read_committed");
            return new Situation(adopt(true), w.toLive());
        });
        m.put("annotation-missing-refused", () -> {
            World w = mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED, null);
            annotations(w).remove(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION);
            return new Situation(adopt(true), w.toLive());
        });
        m.put("annotation-missing-enabled", () -> {
            World w = mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED, null);
            annotations(w).remove(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION);
            return new Situation(adopt(true), w.toLive()).with(PlanOptions.DEFAULT.withEnableConnectorResources(true));
        });
        m.put("v1-group-id-from-spec", () -> {
            World w = mm2(StrimziApi.V1, null, World.Roll.ROLLED, null);
            World.map(w.kc.get("spec")).put("groupId", "repl-eu");
            return new Situation(adopt(true), w.toLive());
        });
        m.put("v1-ignored-config-keys", () -> {
            World w = mm2(StrimziApi.V1, null, World.Roll.ROLLED, null);
            Map<String, Object> config = World.map(World.map(w.kc.get("spec")).get("config"));
            config.put("group.id", "legacy-group");
            config.put("offset.storage.topic", "legacy-offsets");
            return new Situation(adopt(true), w.toLive());
        });
        m.put("replicas-zero", () -> {
            World w = mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED, null);
            World.map(w.kc.get("spec")).put("replicas", 0);
            return new Situation(adopt(true), w.toLive());
        });
        m.put("connectors-absent-created", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
            w.connectors.clear();
            w.statuses.clear();
            return new Situation(desired(cluster(Map.of()), ownFlow(true, null, null, Map.of())), w.toLive());
        });
        m.put("connector-other-config", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
            ownConnectors(w, true);
            World.map(World.map(w.connectors.get("dc1-to-dc2-source").get("spec")).get("config")).put("topics", "legacy\\..*");
            return new Situation(desired(cluster(Map.of()), ownFlow(true, null, null, Map.of())), w.toLive());
        });
        m.put("connector-failed", () -> {
            World w = mm2(StrimziApi.V1BETA2, "preparing", World.Roll.ROLLED, null);
            Map<String, Object> config = World.map(World.map(w.connectors.get("dc1-to-dc2-source").get("spec")).get("config"));
            config.put("exactly.once.support", "required");
            config.put("source.consumer.isolation.level", "read_committed");
            w.statuses.put("dc1-to-dc2-source", World.Status.FAILED);
            return new Situation(adopt(true), w.toLive());
        });
        m.put("connector-task-failed", () -> new Situation(adopt(true), mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED,
                null).sourceExactlyOnce().failSourceTask().toLive()));
        m.put("connector-paused", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
            World.map(w.connectors.get("dc1-to-dc2-source").get("spec")).put("state", "paused");
            w.statuses.put("dc1-to-dc2-source", World.Status.PAUSED);
            return new Situation(adopt(true), w.toLive());
        });
        m.put("connector-stopped", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
            World.map(w.connectors.get("dc1-to-dc2-source").get("spec")).put("state", "stopped");
            w.statuses.put("dc1-to-dc2-source", World.Status.STOPPED);
            return new Situation(adopt(true), w.toLive());
        });
        m.put("disable-eos-reverse-order", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
            Map<String, Object> config = World.map(World.map(w.connectors.get("dc1-to-dc2-source").get("spec")).get("config"));
            config.put("exactly.once.support", "required");
            config.put("source.consumer.isolation.level", "read_committed");
            return new Situation(adopt(false), w.toLive());
        });
        m.put("disable-eos-refused-for-unmanaged-connector", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
            w.connectors.put("hand-made-source", w.connector("hand-made-source", ConnectorRole.SOURCE.connectorClass(), 1, null,
                    Map.of("exactly.once.support", "required", "source.consumer.isolation.level", "read_committed"), Map.of()));
            w.statuses.put("hand-made-source", World.Status.RUNNING);
            return new Situation(adopt(false), w.toLive());
        });
        m.put("remove-flow-deletes-only-managed", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
            ownConnectors(w, true);
            for (String[] o : new String[][] {{"retired-source", "prod"}, {"staging-source", "staging"}, {"hand-made-source", null}}) {
                Map<String, String> labels = o[1] == null ? Map.of()
                        : Map.of(Strimzi.MANAGED_BY_LABEL, "flowform", Planner.ENVIRONMENT_LABEL, o[1]);
                w.connectors.put(o[0], w.connector(o[0], ConnectorRole.SOURCE.connectorClass(), 1, null,
                        Map.of("source.cluster.alias", "dc9"), labels));
                w.statuses.put(o[0], World.Status.RUNNING);
            }
            return new Situation(desired(cluster(Map.of()), ownFlow(true, null, null, Map.of())), w.toLive());
        });
        m.put("new-cluster", () -> new Situation(desired(new DesiredConnectCluster("connect_cluster.mm2-connect", "mm2-connect",
                null, ManageMode.OWN, null, 3, "dc2-kafka-bootstrap.kafka-dc2.svc:9093", "3.9.0", Map.of("group.id", "repl-eu"),
                Map.of(), Set.of(), null), ownFlow(true, null, null, Map.of())), LiveState.empty(StrimziApi.V1BETA2)));
        m.put("new-cluster-kafka-3-5-one-at-a-time", () -> new Situation(desired(new DesiredConnectCluster(
                "connect_cluster.mm2-connect", "mm2-connect", null, ManageMode.OWN, null, 3,
                "dc2-kafka-bootstrap.kafka-dc2.svc:9093", "3.5.2", Map.of("group.id", "repl-eu"), Map.of(), Set.of(), null),
                ownFlow(true, null, null, Map.of())), LiveState.empty(StrimziApi.V1BETA2)));
        m.put("kafka-3-2-refused", () -> new Situation(adopt(true), version(mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED, null),
                "3.2.3").toLive()));
        m.put("kafka-3-4-mm2-refused", () -> new Situation(adopt(true), version(mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED,
                null), "3.4.1").toLive()));
        m.put("kafka-3-5-fencing-warning", () -> new Situation(adopt(true), version(mm2(StrimziApi.V1BETA2, null,
                World.Roll.ROLLED, null), "3.5.2").toLive()));
        m.put("kafka-cloudera-version", () -> new Situation(adopt(true), version(mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED,
                null), "3.5.2.1.1").toLive()));
        m.put("read-committed-missing", () -> new Situation(desired(cluster(Map.of()),
                ownFlow(true, "read_uncommitted", null, Map.of())), mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED, null).toLive()));
        m.put("required-on-checkpoint", () -> new Situation(desired(cluster(Map.of()), ownFlow(true, null, null,
                Map.of("checkpoint", Map.of("exactly.once.support", "required")))),
                mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED, null).toLive()));
        m.put("transaction-boundary-connector", () -> new Situation(desired(cluster(Map.of()), ownFlow(true, null, "connector",
                Map.of())), mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED, null).toLive()));
        m.put("target-connector-pulls-in-the-rollout", () -> {
            World w = mm2(StrimziApi.V1BETA2, null, World.Roll.ROLLED, null);
            ownConnectors(w, false);
            World.map(World.map(w.connectors.get("dc1-to-dc2-checkpoint").get("spec")).get("config")).put("groups", "legacy.*");
            return new Situation(desired(cluster(Map.of()), ownFlow(true, null, null, Map.of())), w.toLive())
                    .with(PlanOptions.DEFAULT.withTargets(List.of("kafka_connector.dc1-to-dc2-source")));
        });
        m.put("identity-group-id-refused", () -> new Situation(desired(cluster(Map.of("group.id", "repl-eu")),
                Configs.adoptedFlow(true)), mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null).toLive()));
        m.put("identity-group-id-accepted", () -> new Situation(desired(cluster(Map.of("group.id", "repl-eu")),
                Configs.adoptedFlow(true)), mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null).toLive())
                .with(PlanOptions.DEFAULT.withAcceptNewClusterIdentity(true)));
        m.put("identity-v1-storage-topic-refused", () -> new Situation(desired(new DesiredConnectCluster(
                "connect_cluster.mm2-connect", "mm2-connect", null, ManageMode.ADOPT, null, null, null, null, Map.of(),
                Map.of("groupId", "repl-eu", "offsetStorageTopic", "repl-eu-offsets"), Set.of(), null),
                Configs.adoptedFlow(true)), mm2(StrimziApi.V1, "preparing", World.Roll.ROLLED, null).toLive()));
        m.put("identity-disabled-cluster-rolls", () -> new Situation(desired(cluster(Map.of("group.id", "repl-eu")),
                Configs.adoptedFlow(false)), mm2(StrimziApi.V1BETA2, "disabled", World.Roll.ROLLED, null).toLive()));
        m.put("kafka-version-unreadable-refused", () -> new Situation(adopt(true), version(mm2(StrimziApi.V1BETA2, null,
                World.Roll.ROLLED, null), "latest").toLive()));
        m.put("kafka-version-unreadable-accepted", () -> new Situation(adopt(true), version(mm2(StrimziApi.V1BETA2, null,
                World.Roll.ROLLED, null), "latest").toLive()).with(PlanOptions.DEFAULT.withAcceptUnknownKafkaVersion(true)));
        m.put("live-spec-incomplete", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
            World.map(w.kc.get("spec")).remove("replicas");
            World.map(w.kc.get("spec")).remove("bootstrapServers");
            return new Situation(adopt(true), w.toLive());
        });
        m.put("drift", () -> drift(PlanOptions.DEFAULT, false));
        m.put("refresh-only", () -> drift(PlanOptions.DEFAULT.withRefreshOnly(true), true));
        m.put("no-changes", () -> {
            World w = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
            Map<String, Object> config = World.map(World.map(w.connectors.get("dc1-to-dc2-source").get("spec")).get("config"));
            config.put("exactly.once.support", "required");
            config.put("source.consumer.isolation.level", "read_committed");
            return new Situation(adopt(true), w.toLive());
        });
        securedCases(m);
        return m;
    }

    /**
     * Someone changed the source connector's topics, EOS setting, a secret and a label, the checkpoint's
     * tasksMax, and (when {@code deleteHeartbeat}) deleted the heartbeat connector.
     */
    private static Situation drift(PlanOptions options, boolean deleteHeartbeat) {
        World recordedWorld = mm2(StrimziApi.V1BETA2, "enabled", World.Roll.ROLLED, null);
        Map<String, Object> src = World.map(World.map(recordedWorld.connectors.get("dc1-to-dc2-source").get("spec")).get("config"));
        src.put("exactly.once.support", "required");
        src.put("source.consumer.isolation.level", "read_committed");
        List<RecordedResource> recorded = new ArrayList<>();
        LiveState then = recordedWorld.toLive();
        then.clusters().forEach(c -> recorded.add(new RecordedResource("connect_cluster.mm2-connect", "KafkaConnect",
                c.namespace(), c.name(), Drift.secretFree(c.raw(), HASH), 40)));
        then.connectors().forEach(c -> recorded.add(new RecordedResource("kafka_connector." + c.name(), "KafkaConnector",
                c.namespace(), c.name(), Drift.secretFree(c.raw(), HASH), 41)));
        World now = recordedWorld.copy();
        Map<String, Object> source = now.connectors.get("dc1-to-dc2-source");
        Map<String, Object> cfg = World.map(World.map(source.get("spec")).get("config"));
        cfg.put("topics", "orders\\..*|audit\\..*");
        cfg.put("exactly.once.support", "requested");
        cfg.put("source.cluster.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "password=\"" + SECRET + "\";");
        World.map(World.map(source.get("metadata")).get("labels")).put("team", "payments");
        World.map(now.connectors.get("dc1-to-dc2-checkpoint").get("spec")).put("tasksMax", 2);
        if (deleteHeartbeat) {
            now.connectors.remove("dc1-to-dc2-heartbeat");
            now.statuses.remove("dc1-to-dc2-heartbeat");
        }
        return new Situation(adopt(true), now.toLive(), options, recorded);
    }

    // ------------------------------------------------------------------------------------------------ builders

    /**
     * The quickstart KafkaConnect at {@code preparing}, rolled, to be raised to {@code enabled}, authenticating with
     * SCRAM as {@code mm2-connect}, with these KafkaUsers (docs/domain-rules.md, rule 10).
     */
    private static Situation secured(List<LiveKafkaUser> users) {
        World w = mm2(StrimziApi.V1BETA2, "preparing", World.Roll.ROLLED, null);
        World.map(w.kc.get("spec")).put("authentication", SecuredWorlds.scram("mm2-connect"));
        return new Situation(adopt(true), w.toLive().withKafkaUsers(users));
    }

    /** The ACLs for the quickstart's transactional IDs, with the task IDs covered by {@code taskPrefix}. */
    private static List<Map<String, Object>> workerAndTasks(String taskPrefix) {
        return List.of(SecuredWorlds.acl("transactionalId", "connect-cluster-mm2-connect", "literal", "Write", "Describe"),
                SecuredWorlds.acl("transactionalId", taskPrefix, "prefix", "Write"),
                SecuredWorlds.acl("topic", "*", "literal", "Read", "Write"));
    }

    private static void securedCases(Map<String, Supplier<Situation>> m) {
        m.put("acls-all-present", () -> secured(List.of(SecuredWorlds.user("mm2-connect",
                workerAndTasks("mm2-connect-dc1-to-dc2-")))));
        m.put("acls-missing-literal", () -> secured(List.of(SecuredWorlds.user("mm2-connect", List.of(
                SecuredWorlds.acl("transactionalId", "connect-cluster-mm2", "literal", "Write", "Describe"),
                SecuredWorlds.acl("transactionalId", "mm2-connect-", "prefix", "All"),
                SecuredWorlds.acl("topic", "mm2-connect-offsets", "literal", "Read", "Write"))))));
        m.put("acls-missing-prefixed", () -> secured(List.of(SecuredWorlds.user("mm2-connect",
                workerAndTasks("mm2-connect-dc1-to-dc2-source-")))));
        m.put("acls-missing-accepted", () -> secured(List.of(SecuredWorlds.user("mm2-connect",
                workerAndTasks("mm2-connect-dc1-to-dc2-source-")))).with(PlanOptions.DEFAULT.withAcceptMissingAcls(true)));
        m.put("acls-no-kafkauser", () -> secured(List.of(SecuredWorlds.user("someone-else", List.of()))));
        m.put("acls-authorization-off", () -> secured(List.of(SecuredWorlds.user("mm2-connect", null))));
    }

    private static World mm2(StrimziApi api, String eos, World.Roll roll, EosMode previous) {
        return World.quickstart(api, eos, roll, previous);
    }

    /** Replaces the connectors by what {@link #ownFlow} produces (EOS keys per {@code eos}), labelled as flowform's. */
    private static void ownConnectors(World w, boolean eos) {
        w.connectors.clear();
        w.statuses.clear();
        DesiredState d = desired(cluster(Map.of()), ownFlow(eos, null, null, Map.of()));
        d.flows().get(0).connectors().forEach(c -> {
            w.connectors.put(c.name(), w.connector(c.name(), c.className(), c.tasksMax(), null, c.config(),
                    Map.of(Strimzi.MANAGED_BY_LABEL, "flowform", Planner.ENVIRONMENT_LABEL, "prod")));
            w.statuses.put(c.name(), World.Status.RUNNING);
        });
    }

    private static World version(World w, String version) {
        World.map(w.kc.get("spec")).put("version", version);
        return w;
    }

    private static Map<String, Object> annotations(World w) {
        return World.map(World.map(w.kc.get("metadata")).get("annotations"));
    }

    private static DesiredConnectCluster cluster(Map<String, String> config) {
        return new DesiredConnectCluster("connect_cluster.mm2-connect", "mm2-connect", null, ManageMode.ADOPT, null, null, null,
                null, config, Map.of(), Set.of(), null);
    }

    private static DesiredState adopt(boolean eos) {
        return desired(cluster(Map.of()), Configs.adoptedFlow(eos));
    }

    private static ReplicationFlowBlock ownFlow(boolean eos, String isolation, String boundary,
                                                Map<String, Map<String, String>> connectorConfig) {
        return new ReplicationFlowBlock("replication_flow.dc1-to-dc2", "dc1-to-dc2", ManageMode.OWN, "mm2-connect", null,
                new ClusterEndpoint("dc1", "dc1-kafka-bootstrap.kafka-dc1.svc:9093",
                        Map.of("security.protocol", "SASL_SSL", "sasl.jaas.config", "org.apache.kafka.common.security.scram."
                                + "ScramLoginModule required username=\"mm2\" password=\"" + SECRET + "\";"), Set.of()),
                new ClusterEndpoint("dc2", "dc2-kafka-bootstrap.kafka-dc2.svc:9093", Map.of(), Set.of()),
                List.of("orders\\..*"), null, List.of(".*"), eos, isolation, boundary, 2, null, null, Map.of(),
                connectorConfig, null, Set.of(), null);
    }

    private static DesiredState desired(DesiredConnectCluster cluster, ReplicationFlowBlock flow) {
        return Configs.desired(List.of(cluster), List.of(flow));
    }
}
