package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/** Loads the checked-in {@code realistic} example for both of its environments. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class RealisticConfigTest {

    private final ConfigLoader loader = new ConfigLoader();
    private final Path dir = Fixtures.example("realistic");

    @Test
    void should_load_the_demo_environment_with_the_embedded_seed() {
        LoadResult result = loader.load(dir, "demo", Map.of());

        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        Configuration config = result.configuration();
        assertThat(config.dir()).isEqualTo(dir.toAbsolutePath().normalize());
        assertThat(config.environments()).extracting(EnvironmentBlock::name).containsExactly("demo", "prod");
        EnvironmentBlock demo = config.environment();
        assertThat(demo.name()).isEqualTo("demo");
        assertThat(demo.namespace()).isEqualTo("kafka-repl");
        assertThat(demo.kubernetes()).isEqualTo(new KubernetesTarget.Embedded(dir.resolve("seed").toAbsolutePath().normalize(), 200L, 100L));
        assertThat(demo.variables()).containsExactly(Map.entry("replicas", 1L), Map.entry("source_password", "demo-secret"));
        assertThat(demo.range().toString()).isEqualTo("environments.flow.json:4:5");

        assertThat(config.clusters()).hasSize(1);
        DesiredConnectCluster cluster = config.clusters().get(0);
        assertThat(cluster.address()).isEqualTo("connect_cluster.repl-connect");
        assertThat(cluster.name()).isEqualTo("repl-connect");
        assertThat(cluster.namespace()).isEqualTo("kafka-repl");
        assertThat(cluster.manage()).isEqualTo(ManageMode.ADOPT);
        assertThat(cluster.eos()).isEqualTo(EosMode.ENABLED);
        assertThat(cluster.replicas()).isEqualTo(1);
        assertThat(cluster.bootstrapServers()).isNull();
        assertThat(cluster.version()).isEqualTo("3.9.0");
        assertThat(cluster.config()).containsExactly(
                Map.entry("group.id", "repl-connect"),
                Map.entry("offset.storage.replication.factor", "3"),
                Map.entry("config.providers", "secrets"),
                Map.entry("config.providers.secrets.class", "io.strimzi.kafka.KubernetesSecretConfigProvider"));
        assertThat(cluster.spec()).isEmpty();
        assertThat(cluster.sensitiveKeys()).isEmpty();
        assertThat(cluster.range().toString()).isEqualTo("main.flow.json:3:5");

        assertThat(config.flows()).hasSize(1);
        ReplicationFlowBlock flow = config.flows().get(0);
        assertThat(flow.address()).isEqualTo("replication_flow.east-to-west");
        assertThat(flow.manage()).isEqualTo(ManageMode.OWN);
        assertThat(flow.connectCluster()).isEqualTo("repl-connect");
        assertThat(flow.connectClusterRange().toString()).isEqualTo("main.flow.json:20:26");
        assertThat(flow.source().alias()).isEqualTo("east");
        assertThat(flow.source().bootstrapServers()).isEqualTo("east-kafka-bootstrap.kafka-east.svc:9093");
        assertThat(flow.source().config()).containsEntry("sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"mm2\" password=\"demo-secret\";");
        assertThat(flow.source().sensitiveKeys()).containsExactly("sasl.jaas.config");
        assertThat(flow.target().config()).containsExactly(
                Map.entry("ssl.truststore.password", "${secrets:kafka-repl/west-truststore:password}"));
        assertThat(flow.target().sensitiveKeys()).isEmpty();
        assertThat(flow.topics()).containsExactly("orders\\..*");
        assertThat(flow.topicsExclude()).containsExactly(".*\\.internal");
        assertThat(flow.groups()).containsExactly("orders-.*", "payments-.*");
        assertThat(flow.exactlyOnce()).isTrue();
        assertThat(flow.isolationLevel()).isEqualTo("read_committed");
        assertThat(flow.transactionBoundary()).isEqualTo("poll");
        assertThat(flow.tasksMax()).isEqualTo(4);
        assertThat(flow.checkpoints()).isTrue();
        assertThat(flow.heartbeats()).isFalse();
        assertThat(flow.config()).containsExactly(Map.entry("replication.factor", "3"), Map.entry("sync.topic.acls.enabled", "false"));
        assertThat(flow.connectorConfig()).containsExactly(Map.entry("checkpoint", Map.of("emit.checkpoints.interval.seconds", "30")));
        assertThat(flow.state()).isEqualTo("running");
        assertThat(flow.sensitiveKeys()).containsExactly("source.cluster.sasl.jaas.config");

        assertThat(config.sensitiveValues()).containsExactly("demo-secret");
    }

    @Test
    void should_load_prod_with_command_line_values_over_the_environment_ones() {
        LoadResult result = loader.load(dir, "prod", Map.of("source_password", "pr0d-s3cret", "replicas", "5"));

        assertThat(Fixtures.lines(result.diagnostics())).isEmpty();
        Configuration config = result.configuration();
        EnvironmentBlock prod = config.environment();
        assertThat(prod.kubernetes()).isEqualTo(new KubernetesTarget.Kubeconfig("prod-eu", "/etc/flowform/kubeconfig"));
        assertThat(prod.expectedServer()).isEqualTo("https://k8s.prod.example.com:6443");
        assertThat(prod.variables()).containsEntry("topics", List.of("orders\\..*", "payments\\..*"));
        DesiredConnectCluster cluster = config.clusters().get(0);
        assertThat(cluster.namespace()).isEqualTo("kafka-prod");
        assertThat(cluster.replicas()).isEqualTo(5);
        ReplicationFlowBlock flow = config.flows().get(0);
        assertThat(flow.topics()).containsExactly("orders\\..*", "payments\\..*");
        assertThat(flow.source().config().get("sasl.jaas.config")).contains("password=\"pr0d-s3cret\"");
        assertThat(config.sensitiveValues()).containsExactly("pr0d-s3cret");
    }

    @Test
    void should_ask_for_the_password_prod_does_not_set() {
        LoadResult result = loader.load(dir, "prod", Map.of());

        assertThat(result.configuration()).isNull();
        assertThat(Fixtures.lines(result.diagnostics())).containsExactly(
                "variables.flow.json:6:5: No value for required variable: The input variable \"source_password\" has no "
                        + "default and no value was given. Set it with --var source_password=... or in the variables of "
                        + "environment \"prod\" (or with a --var-file, or the environment variable FLOWFORM_VAR_source_password).");
    }

    @Test
    void should_refuse_to_guess_between_two_environments() {
        LoadResult result = loader.load(dir, null, Map.of());

        assertThat(Fixtures.lines(result.diagnostics())).containsExactly(
                "No environment selected: More than one environment is declared (demo, prod): choose one with --env NAME.");
    }
}
