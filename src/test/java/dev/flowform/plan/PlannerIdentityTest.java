package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Severity;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.testing.Configs;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rules eos-cluster-identity (a new group id or storage topic on a cluster whose workers run exactly-once),
 * kafka-version-unknown and live-connect-spec (what a live KafkaConnect does not let the planner check).
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PlannerIdentityTest {

    private static final PlanRequest REQUEST = new PlanRequest("test", new StateRef("lineage-1", 0),
            Instant.parse("2026-11-30T12:00:00Z"));
    private static final PlanOptions ACCEPT_IDENTITY = PlanOptions.DEFAULT.withAcceptNewClusterIdentity(true);
    private static final PlanOptions ACCEPT_VERSION = PlanOptions.DEFAULT.withAcceptUnknownKafkaVersion(true);

    // ------------------------------------------------------------------------------------ identity, v1beta2

    @ParameterizedTest
    @ValueSource(strings = {"enabled", "preparing"})
    void a_new_group_id_on_an_exactly_once_cluster_is_refused(String eos) {
        Plan plan = plan(adopt(Map.of("group.id", "repl-eu"), Map.of()), world(StrimziApi.V1BETA2, eos), PlanOptions.DEFAULT);

        assertThat(plan.isApplyable()).isFalse();
        assertThat(plan.steps()).isEmpty();
        Diagnostic d = only(plan, Rule.CLUSTER_IDENTITY);
        assertThat(d.severity()).isEqualTo(Severity.ERROR);
        assertThat(d.summary()).isEqualTo("Changing the identity of an exactly-once Connect cluster");
        assertThat(d.detail()).contains("runs exactly.once.source.support=" + eos,
                "spec.config.\"group.id\" \"mm2-connect\" -> \"repl-eu\"",
                "connect-cluster-mm2-connect to connect-cluster-repl-eu",
                "mm2-connect-<connector>-<task> to repl-eu-<connector>-<task>",
                "cannot fence producers of the old one",
                "The source offsets stay in \"mm2-connect-offsets\"",
                "--accept-new-cluster-identity", "(rule eos-cluster-identity; source: KIP-618");
    }

    @Test
    void the_acknowledged_new_group_id_is_planned_with_a_warning_and_the_new_transactional_ids() {
        Plan plan = plan(adopt(Map.of("group.id", "repl-eu"), Map.of()), world(StrimziApi.V1BETA2, "enabled"),
                ACCEPT_IDENTITY);

        assertThat(plan.isApplyable()).isTrue();
        Diagnostic d = only(plan, Rule.CLUSTER_IDENTITY);
        assertThat(d.severity()).isEqualTo(Severity.WARNING);
        assertThat(d.summary()).isEqualTo("The Connect cluster gets a new exactly-once identity");
        assertThat(d.detail()).contains("(--accept-new-cluster-identity)", "connect-cluster-repl-eu",
                "cannot fence producers of the old one", "Grant the principals Write and Describe");
        Step update = plan.steps().stream().filter(s -> s.kind() == StepKind.UPDATE_CONNECT_CLUSTER).findFirst().orElseThrow();
        assertThat(((StepPayload.PatchObject) update.payload()).edits())
                .contains(FieldEdit.set(List.of("spec", "config", "group.id"), "repl-eu", false));
        assertThat(plan.steps().get(plan.steps().indexOf(update) + 1).kind()).isEqualTo(StepKind.WAIT_FOR_ROLL);
        Change kc = clusterChange(plan);
        assertThat(kc.reason()).contains("new exactly-once identity (KIP-618): group id \"mm2-connect\" -> \"repl-eu\": "
                + "new transactional IDs, the old ones not fenced");
        assertThat(plan.transactionalIds()).extracting(TransactionalId::transactionalId)
                .contains("connect-cluster-repl-eu", "repl-eu-dc1-to-dc2-source-0")
                .noneMatch(id -> id.startsWith("mm2-connect-") || id.equals("connect-cluster-mm2-connect"));
    }

    @Test
    void a_new_offsets_topic_says_the_source_offsets_are_not_carried_over() {
        Plan refused = plan(adopt(Map.of("offset.storage.topic", "repl-eu-offsets"), Map.of()),
                world(StrimziApi.V1BETA2, "enabled"), PlanOptions.DEFAULT);
        assertThat(only(refused, Rule.CLUSTER_IDENTITY).detail()).contains(
                "spec.config.\"offset.storage.topic\" \"mm2-connect-offsets\" -> \"repl-eu-offsets\"",
                "source offsets are in \"mm2-connect-offsets\"", "starts again from the source topics' earliest offsets",
                "duplicates in the target topics").doesNotContain("connect-cluster-mm2-connect");

        Plan accepted = plan(adopt(Map.of("offset.storage.topic", "repl-eu-offsets"), Map.of()),
                world(StrimziApi.V1BETA2, "enabled"), ACCEPT_IDENTITY);
        assertThat(accepted.isApplyable()).isTrue();
        assertThat(clusterChange(accepted).reason()).contains("offsets topic \"mm2-connect-offsets\" -> \"repl-eu-offsets\": "
                + "source offsets not carried over, replication starts again from the earliest offsets");
    }

    @Test
    void manage_own_removing_group_id_falls_back_to_connect_cluster_which_is_a_new_identity() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("offset.storage.topic", "mm2-connect-offsets");
        config.put("config.storage.topic", "mm2-connect-configs");
        config.put("status.storage.topic", "mm2-connect-status");
        Plan plan = plan(own(config, Map.of()), world(StrimziApi.V1BETA2, "enabled"), PlanOptions.DEFAULT);

        Diagnostic d = only(plan, Rule.CLUSTER_IDENTITY);
        assertThat(d.isError()).isTrue();
        assertThat(d.detail()).contains("spec.config.\"group.id\" \"mm2-connect\" -> \"connect-cluster\"",
                "connect-cluster-connect-cluster", "manage = \"own\" removes what it does not declare");

        Plan accepted = plan(own(config, Map.of()), world(StrimziApi.V1BETA2, "enabled"), ACCEPT_IDENTITY);
        assertThat(accepted.transactionalIds()).extracting(TransactionalId::transactionalId)
                .contains("connect-cluster-connect-cluster", "connect-cluster-dc1-to-dc2-source-0");
    }

    @Test
    void manage_own_without_group_id_on_a_cluster_already_on_the_default_is_no_change_of_identity() {
        World w = world(StrimziApi.V1BETA2, "enabled");
        World.map(World.map(w.kc.get("spec")).get("config")).remove("group.id");
        Map<String, String> config = Map.of("offset.storage.topic", "mm2-connect-offsets",
                "config.storage.topic", "mm2-connect-configs", "status.storage.topic", "mm2-connect-status");

        Plan plan = plan(own(config, Map.of()), w, PlanOptions.DEFAULT);

        assertThat(plan.diagnostics()).noneMatch(d -> d.detail().contains("(rule " + Rule.CLUSTER_IDENTITY.id() + ";"));
        assertThat(plan.isApplyable()).isTrue();
    }

    @Test
    void a_cluster_with_exactly_once_disabled_gets_an_ordinary_roll() {
        for (String eos : new String[] {"disabled", null}) {
            Plan plan = plan(desired(adoptBlock(Map.of("group.id", "repl-eu"), Map.of()), false),
                    world(StrimziApi.V1BETA2, eos), PlanOptions.DEFAULT);

            assertThat(plan.diagnostics()).as("eos %s", eos).isEmpty();
            assertThat(plan.steps()).extracting(Step::kind).containsExactly(StepKind.UPDATE_CONNECT_CLUSTER,
                    StepKind.WAIT_FOR_ROLL);
            assertThat(clusterChange(plan).reason()).isEqualTo("spec changed; one rolling restart");
        }
    }

    @Test
    void a_disabled_cluster_going_exactly_once_takes_the_new_group_id_with_the_preparing_roll() {
        Plan plan = plan(adopt(Map.of("group.id", "repl-eu"), Map.of()), world(StrimziApi.V1BETA2, "disabled"),
                PlanOptions.DEFAULT);

        assertThat(plan.diagnostics()).isEmpty();
        assertThat(plan.steps().get(0).kind()).isEqualTo(StepKind.SET_WORKER_EOS);
        assertThat(plan.transactionalIds()).extracting(TransactionalId::transactionalId).contains("connect-cluster-repl-eu");
    }

    @Test
    void spec_disabled_while_workers_still_run_enabled_counts_as_exactly_once() {
        World w = world(StrimziApi.V1BETA2, "disabled");
        w.roll = World.Roll.IN_PROGRESS;
        w.previous = EosMode.ENABLED;

        Plan plan = plan(desired(adoptBlock(Map.of("group.id", "repl-eu"), Map.of()), false), w, PlanOptions.DEFAULT);

        assertThat(only(plan, Rule.CLUSTER_IDENTITY).detail()).contains("runs exactly.once.source.support=enabled");
        assertThat(plan.isApplyable()).isFalse();
    }

    @Test
    void setting_the_default_group_id_explicitly_changes_nothing() {
        World w = world(StrimziApi.V1BETA2, "enabled");
        World.map(World.map(w.kc.get("spec")).get("config")).remove("group.id");

        Plan plan = plan(adopt(Map.of("group.id", "connect-cluster"), Map.of()), w, PlanOptions.DEFAULT);

        assertThat(plan.isApplyable()).isTrue();
        assertThat(plan.diagnostics()).noneMatch(d -> d.detail().contains("(rule " + Rule.CLUSTER_IDENTITY.id() + ";"));
    }

    // ------------------------------------------------------------------------------------ identity, v1

    @ParameterizedTest
    @EnumSource(value = EosMode.class, names = {"ENABLED", "PREPARING"})
    void a_new_spec_group_id_on_a_v1_exactly_once_cluster_is_refused(EosMode eos) {
        Plan plan = plan(adopt(Map.of(), Map.of("groupId", "repl-eu")), world(StrimziApi.V1, eos.value()),
                PlanOptions.DEFAULT);

        Diagnostic d = only(plan, Rule.CLUSTER_IDENTITY);
        assertThat(d.isError()).isTrue();
        assertThat(d.detail()).contains("spec.groupId \"mm2-connect\" -> \"repl-eu\"", "connect-cluster-repl-eu");
        assertThat(plan.steps()).isEmpty();
    }

    @Test
    void a_v1_storage_topic_change_is_refused_and_can_be_acknowledged() {
        Map<String, Object> spec = Map.of("offsetStorageTopic", "repl-eu-offsets", "statusStorageTopic", "repl-eu-status");
        Plan refused = plan(adopt(Map.of(), spec), world(StrimziApi.V1, "enabled"), PlanOptions.DEFAULT);
        assertThat(only(refused, Rule.CLUSTER_IDENTITY).detail()).contains(
                "spec.offsetStorageTopic \"mm2-connect-offsets\" -> \"repl-eu-offsets\", "
                        + "spec.statusStorageTopic \"mm2-connect-status\" -> \"repl-eu-status\"",
                "source offsets are in \"mm2-connect-offsets\"", "statuses start empty");

        Plan accepted = plan(adopt(Map.of(), spec), world(StrimziApi.V1, "enabled"), ACCEPT_IDENTITY);
        assertThat(accepted.isApplyable()).isTrue();
        assertThat(only(accepted, Rule.CLUSTER_IDENTITY).severity()).isEqualTo(Severity.WARNING);
    }

    @Test
    void group_id_in_v1_spec_config_is_ignored_by_strimzi_and_is_no_change_of_identity() {
        Plan plan = plan(adopt(Map.of("group.id", "repl-eu"), Map.of()), world(StrimziApi.V1, "enabled"),
                PlanOptions.DEFAULT);

        assertThat(plan.diagnostics()).noneMatch(d -> d.detail().contains("(rule " + Rule.CLUSTER_IDENTITY.id() + ";"));
        assertThat(plan.diagnostics()).anyMatch(d -> d.detail().contains("(rule " + Rule.V1_IGNORED_CONFIG.id() + ";"));
    }

    @Test
    void a_v1_disabled_cluster_changes_its_group_id_with_an_ordinary_roll() {
        Plan plan = plan(desired(adoptBlock(Map.of(), Map.of("groupId", "repl-eu")), false),
                world(StrimziApi.V1, "disabled"), PlanOptions.DEFAULT);

        assertThat(plan.diagnostics()).isEmpty();
        assertThat(plan.steps()).extracting(Step::kind).containsExactly(StepKind.UPDATE_CONNECT_CLUSTER,
                StepKind.WAIT_FOR_ROLL);
    }

    // ------------------------------------------------------------------------------------ Kafka version

    @ParameterizedTest
    @EnumSource(StrimziApi.class)
    void an_unreadable_version_refuses_exactly_once(StrimziApi api) {
        World w = unreadableVersion(api);

        Plan plan = plan(adopt(Map.of(), Map.of()), w, PlanOptions.DEFAULT);

        assertThat(plan.isApplyable()).isFalse();
        Diagnostic d = only(plan, Rule.KAFKA_VERSION_UNKNOWN);
        assertThat(d.summary()).isEqualTo("Exactly-once on an unknown Kafka version");
        assertThat(d.detail()).contains("has spec.version \"latest\", which is not a Kafka version flowform can read",
                "Below Kafka 3.3.0", "below 3.5.0", "KAFKA-15059", "--accept-unknown-kafka-version");
    }

    @Test
    void an_unreadable_version_is_planned_with_a_warning_when_acknowledged() {
        World w = unreadableVersion(StrimziApi.V1BETA2);

        Plan plan = plan(adopt(Map.of(), Map.of()), w, ACCEPT_VERSION);

        assertThat(plan.isApplyable()).isTrue();
        Diagnostic d = only(plan, Rule.KAFKA_VERSION_UNKNOWN);
        assertThat(d.severity()).isEqualTo(Severity.WARNING);
        assertThat(d.detail()).contains("--accept-unknown-kafka-version was given");
        assertThat(plan.steps()).extracting(Step::kind).contains(StepKind.SET_WORKER_EOS);
    }

    @Test
    void an_unreadable_version_without_exactly_once_is_a_warning() {
        World w = unreadableVersion(StrimziApi.V1BETA2);

        Plan plan = plan(desired(adoptBlock(Map.of(), Map.of()), false), w, PlanOptions.DEFAULT);

        assertThat(plan.isApplyable()).isTrue();
        assertThat(only(plan, Rule.KAFKA_VERSION_UNKNOWN).detail()).contains("does not turn exactly-once on");
    }

    @Test
    void an_unreadable_declared_version_of_a_new_cluster_refuses_exactly_once() {
        DesiredConnectCluster block = new DesiredConnectCluster("connect_cluster.mm2-connect", "mm2-connect", null,
                ManageMode.OWN, null, 3, "dc2-kafka-bootstrap.kafka-dc2.svc:9093", "three-nine", Map.of(), Map.of(),
                Set.of(), null);

        Plan plan = Planner.plan(Configs.desired(List.of(block), List.of(Configs.ownedFlow("dc1-to-dc2", true,
                List.of("orders\\..*")))), LiveState.empty(StrimziApi.V1BETA2), REQUEST);

        assertThat(plan.isApplyable()).isFalse();
        assertThat(only(plan, Rule.KAFKA_VERSION_UNKNOWN).detail()).contains(
                "connect_cluster \"mm2-connect\" declares version \"three-nine\"");
    }

    @Test
    void an_absent_version_is_the_operators_default_and_not_refused() {
        Plan plan = plan(adopt(Map.of(), Map.of()), world(StrimziApi.V1BETA2, null), PlanOptions.DEFAULT);

        assertThat(plan.diagnostics()).isEmpty();
        assertThat(plan.isApplyable()).isTrue();
    }

    @Test
    void an_absent_version_is_checked_against_the_version_the_workers_report() {
        LiveState old = withStatusPlugins(world(StrimziApi.V1BETA2, null).toLive(), "3.4.1");

        Plan plan = Planner.plan(adopt(Map.of(), Map.of()), old, REQUEST);

        assertThat(plan.isApplyable()).isFalse();
        Diagnostic d = only(plan, Rule.KAFKA_VERSION_MM2);
        assertThat(d.detail()).contains("runs Kafka 3.4.1 (spec.version is not set: the operator's default Kafka version, "
                + "as status.connectorPlugins reports it)");

        Plan recent = Planner.plan(adopt(Map.of(), Map.of()), withStatusPlugins(world(StrimziApi.V1BETA2, null).toLive(),
                "3.9.0"), REQUEST);
        assertThat(recent.diagnostics()).isEmpty();
    }

    @Test
    void spec_version_wins_over_the_reported_version() {
        World w = world(StrimziApi.V1BETA2, null);
        World.map(w.kc.get("spec")).put("version", "3.9.0");

        Plan plan = Planner.plan(adopt(Map.of(), Map.of()), withStatusPlugins(w.toLive(), "3.4.1"), REQUEST);

        assertThat(plan.diagnostics()).isEmpty();
    }

    // ------------------------------------------------------------------------------------ incomplete live spec

    @Test
    void a_kafka_connect_without_spec_says_what_could_not_be_checked() {
        World w = world(StrimziApi.V1BETA2, null);
        w.kc.put("spec", new LinkedHashMap<String, Object>());

        Plan plan = plan(adopt(Map.of(), Map.of()), w, PlanOptions.DEFAULT);

        Diagnostic spec = only(plan, Rule.LIVE_SPEC);
        assertThat(spec.severity()).isEqualTo(Severity.WARNING);
        assertThat(spec.summary()).isEqualTo("KafkaConnect has no spec");
        assertThat(spec.detail()).contains("exactly.once.source.support (read as Kafka's default, disabled)",
                "read as Strimzi's default, connect-cluster", "read as Strimzi's default, 3", "their Kafka version");
        Diagnostic version = only(plan, Rule.KAFKA_VERSION_UNKNOWN);
        assertThat(version.isError()).isTrue();
        assertThat(version.detail()).contains("has no spec, so the Kafka version its workers run is unknown");

        Plan accepted = plan(adopt(Map.of(), Map.of()), w, ACCEPT_VERSION);
        assertThat(accepted.isApplyable()).isTrue();
    }

    @Test
    void missing_replicas_and_bootstrap_servers_are_reported() {
        World w = withoutReplicasAndBootstrapServers(StrimziApi.V1);

        Plan plan = plan(adopt(Map.of(), Map.of()), w, PlanOptions.DEFAULT);

        Diagnostic d = only(plan, Rule.LIVE_SPEC);
        assertThat(d.summary()).isEqualTo("KafkaConnect spec is incomplete");
        assertThat(d.detail()).contains("spec.replicas is not set: flowform counts Strimzi's default of 3 workers",
                "spec.bootstrapServers is not set: flowform could not check which Kafka cluster the workers use");
        assertThat(plan.isApplyable()).isTrue();
    }

    @Test
    void fields_the_configuration_sets_are_not_reported_missing() {
        World w = withoutReplicasAndBootstrapServers(StrimziApi.V1BETA2);
        DesiredConnectCluster block = new DesiredConnectCluster("connect_cluster.mm2-connect", "mm2-connect", null,
                ManageMode.ADOPT, null, 3, "dc2-kafka-bootstrap.kafka-dc2.svc:9093", null, Map.of(), Map.of(), Set.of(),
                null);

        Plan plan = plan(desired(block, true), w, PlanOptions.DEFAULT);

        assertThat(plan.diagnostics()).noneMatch(d -> d.detail().contains("(rule " + Rule.LIVE_SPEC.id() + ";"));
    }

    // ------------------------------------------------------------------------------------ helpers

    /** The golden plans' cluster: mm2-connect, 3 workers, Kafka version absent, rolled, with the given EOS value. */
    private static World world(StrimziApi api, String eos) {
        World w = new World(api);
        w.kc = w.connect(eos, 3, null, true, false);
        w.roll = World.Roll.ROLLED;
        Map<String, String> aliases = Map.of("source.cluster.alias", "dc1", "target.cluster.alias", "dc2");
        for (ConnectorRole role : ConnectorRole.values()) {
            String name = "dc1-to-dc2-" + role.name().toLowerCase(java.util.Locale.ROOT);
            w.connectors.put(name, w.connector(name, role.connectorClass(), 1, null, aliases, Map.of()));
            w.statuses.put(name, World.Status.RUNNING);
        }
        return w;
    }

    private static World unreadableVersion(StrimziApi api) {
        World w = world(api, null);
        World.map(w.kc.get("spec")).put("version", "latest");
        return w;
    }

    private static World withoutReplicasAndBootstrapServers(StrimziApi api) {
        World w = world(api, "enabled");
        World.map(w.kc.get("spec")).remove("replicas");
        World.map(w.kc.get("spec")).remove("bootstrapServers");
        return w;
    }

    private static Plan plan(DesiredState desired, World w, PlanOptions options) {
        return plan(desired, w.toLive(), options);
    }

    private static Plan plan(DesiredState desired, LiveState live, PlanOptions options) {
        return Planner.plan(desired, live, REQUEST.withOptions(options));
    }

    private static DesiredConnectCluster adoptBlock(Map<String, String> config, Map<String, Object> spec) {
        return new DesiredConnectCluster("connect_cluster.mm2-connect", "mm2-connect", null, ManageMode.ADOPT, null, null,
                null, null, config, spec, Set.of(), null);
    }

    private static DesiredState adopt(Map<String, String> config, Map<String, Object> spec) {
        return desired(adoptBlock(config, spec), true);
    }

    private static DesiredState own(Map<String, String> config, Map<String, Object> spec) {
        return desired(new DesiredConnectCluster("connect_cluster.mm2-connect", "mm2-connect", null, ManageMode.OWN, null, 3,
                "dc2-kafka-bootstrap.kafka-dc2.svc:9093", null, config, spec, Set.of(), null), true);
    }

    private static DesiredState desired(DesiredConnectCluster cluster, boolean eos) {
        return Configs.desired(List.of(cluster), List.of(Configs.adoptedFlow(eos)));
    }

    /** @return the one diagnostic of {@code rule} */
    private static Diagnostic only(Plan plan, Rule rule) {
        List<Diagnostic> found = plan.diagnostics().stream()
                .filter(d -> d.detail().contains("(rule " + rule.id() + ";")).toList();
        assertThat(found).as("diagnostics of rule %s in %s", rule.id(), plan.diagnostics()).hasSize(1);
        return found.get(0);
    }

    private static Change clusterChange(Plan plan) {
        return plan.changes().stream().filter(c -> c.address().equals("connect_cluster.mm2-connect")).findFirst()
                .orElseThrow();
    }

    /** @return {@code live} with status.connectorPlugins listing MirrorMaker 2's connectors at {@code version} */
    static LiveState withStatusPlugins(LiveState live, String version) {
        LiveConnectCluster c = live.clusters().get(0);
        Map<String, Object> raw = new LinkedHashMap<>(c.raw());
        raw.put("status", Map.of("connectorPlugins", List.of(
                Map.of("class", "org.apache.kafka.connect.mirror.MirrorCheckpointConnector", "type", "source", "version",
                        version),
                Map.of("class", "org.apache.kafka.connect.mirror.MirrorSourceConnector", "type", "source", "version",
                        version))));
        LiveConnectCluster withStatus = new LiveConnectCluster(c.ref(), c.resourceVersion(), c.generation(), c.labels(),
                c.annotations(), c.spec(), c.config(), c.observedGeneration(), c.conditions(), c.podSet(), c.pods(),
                c.configMap(), raw);
        return new LiveState(live.api(), live.server(), List.of(withStatus), live.connectors(), live.fingerprints());
    }
}
