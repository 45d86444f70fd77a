package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code flowform import} on the quickstart's seed: a brownfield configuration folder that declares only the
 * environment, filled by import, then validated and planned against the same embedded cluster.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ImportCliTest {

    private static final String ENVIRONMENT_ONLY = """
            {
              "environment": {
                "demo": {
                  "kubernetes": {"embedded": {"seed": "./seed"}},
                  "namespace": "replication"
                }
              }
            }
            """;

    @TempDir
    Path tmp;
    private Path dir;
    private Path stateDir;
    private final CliRunner cli = CliRunner.fast();

    @BeforeEach
    void brownfieldFolder() throws IOException {
        dir = tmp.resolve("adopt");
        CliFiles.copy(Path.of("examples", "quickstart", "seed"), dir.resolve("seed"));
        Files.writeString(dir.resolve("environment.flow.json"), ENVIRONMENT_ONLY);
        stateDir = tmp.resolve("state");
    }

    private CliRunner.Result run(String command, String... more) {
        List<String> all = new ArrayList<>(List.of(command, "--dir", dir.toString(), "--state-dir", stateDir.toString(),
                "--no-color"));
        all.addAll(List.of(more));
        return cli.run(all.toArray(String[]::new));
    }

    private CliRunner.Result importInto(Path out, String... more) {
        List<String> all = new ArrayList<>(List.of("--namespace", "replication", "--out", out.toString()));
        all.addAll(List.of(more));
        return run("import", all.toArray(String[]::new));
    }

    @Test
    void imported_configuration_validates_and_plans_no_changes() throws IOException {
        CliRunner.Result imported = importInto(dir);

        assertThat(imported.exitCode()).as("%s", imported).isZero();
        String file = Files.readString(dir.resolve("mm2-connect.flow.json"));
        assertThat(file).contains("\"connect_cluster\"", "\"mm2-connect\"", "\"manage\": \"adopt\"", "\"dc1-to-dc2\"",
                "\"alias\": \"dc1\"", "\"alias\": \"dc2\"", "\"heartbeats\": true", "\"exactly_once\": false");
        assertThat(file).doesNotContain("Fixture-Secret-4417");
        assertThat(imported.err()).contains("Left out KafkaConnector replication/dc1-to-dc2-source config "
                + "source.cluster.sasl.jaas.config", "literal credential").doesNotContain("Fixture-Secret-4417");
        assertThat(cli.run("fmt", "--check", "--no-color", dir.resolve("mm2-connect.flow.json").toString()).exitCode()).isZero();

        CliRunner.Result validate = cli.run("validate", "--dir", dir.toString(), "--no-color");
        assertThat(validate.exitCode()).as("%s", validate).isZero();
        CliRunner.Result plan = run("plan", "--detailed-exitcode");
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("No changes.");
    }

    @Test
    void with_exactly_once_the_next_plan_is_the_safe_rollout() {
        CliRunner.Result imported = importInto(dir, "--exactly-once");
        assertThat(imported.exitCode()).as("%s", imported).isZero();

        CliRunner.Result plan = run("plan", "--detailed-exitcode");
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(plan.out()).containsSubsequence(
                "SET_WORKER_EOS", "exactly.once.source.support = preparing",
                "WAIT_FOR_ROLL",
                "SET_WORKER_EOS", "exactly.once.source.support = enabled",
                "WAIT_FOR_ROLL",
                "UPDATE_CONNECTOR", "kafka_connector.dc1-to-dc2-source", "read_committed",
                "WAIT_FOR_CONNECTOR_READY");
    }

    @Test
    void unknown_connector_classes_are_listed_and_placeholders_stay_placeholders() throws IOException {
        Path seed = dir.resolve("seed").resolve("mm2-connect.yaml");
        Files.writeString(seed, Files.readString(seed).replaceAll("sasl\\.jaas\\.config: .*",
                "sasl.jaas.config: '\\${secrets:replication/mm2-dc1:sasl.jaas.config}'"));
        Files.writeString(dir.resolve("seed").resolve("sink.yaml"), """
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaConnector
                metadata:
                  name: orders-sink
                  namespace: replication
                  labels:
                    strimzi.io/cluster: mm2-connect
                spec:
                  class: io.confluent.connect.jdbc.JdbcSinkConnector
                  tasksMax: 1
                  config:
                    connection.password: Sink-Secret-9021
                """);

        CliRunner.Result imported = importInto(dir.resolve("generated"));

        assertThat(imported.exitCode()).as("%s", imported).isZero();
        assertThat(imported.err()).contains("Left out KafkaConnector replication/orders-sink: class "
                + "io.confluent.connect.jdbc.JdbcSinkConnector is not a MirrorMaker 2 connector");
        String file = Files.readString(dir.resolve("generated").resolve("mm2-connect.flow.json"));
        assertThat(file).contains("\"source.cluster.sasl.jaas.config\": \"$${secrets:replication/mm2-dc1:sasl.jaas.config}\"")
                .doesNotContain("orders-sink", "Sink-Secret-9021", "Fixture-Secret-4417");
        Files.move(dir.resolve("generated").resolve("mm2-connect.flow.json"), dir.resolve("mm2-connect.flow.json"));
        CliRunner.Result plan = run("plan", "--detailed-exitcode");
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("No changes.");
    }

    @Test
    void existing_files_are_not_overwritten_without_force() throws IOException {
        Files.writeString(dir.resolve("mm2-connect.flow.json"), "{}\n");

        CliRunner.Result refused = importInto(dir);
        assertThat(refused.exitCode()).as("%s", refused).isEqualTo(1);
        assertThat(refused.err()).contains("Refusing to overwrite existing files", "mm2-connect.flow.json", "--force");
        assertThat(Files.readString(dir.resolve("mm2-connect.flow.json"))).isEqualTo("{}\n");

        CliRunner.Result forced = importInto(dir, "--force");
        assertThat(forced.exitCode()).as("%s", forced).isZero();
        assertThat(Files.readString(dir.resolve("mm2-connect.flow.json"))).contains("\"replication_flow\"");
    }

    @Test
    void out_and_namespace_are_required_and_an_empty_namespace_is_an_error() {
        assertThat(run("import", "--namespace", "replication").err()).contains("--out");
        CliRunner.Result empty = run("import", "--namespace", "nothing-here", "--out", tmp.resolve("x").toString());
        assertThat(empty.exitCode()).isEqualTo(1);
        assertThat(empty.err()).contains("Nothing to import");
        assertThat(tmp.resolve("x")).doesNotExist();
    }

    @Test
    void a_kafka_mirror_maker_2_is_imported_and_plans_no_changes_then_the_rollout() throws IOException {
        dir = tmp.resolve("mm2");
        CliFiles.copy(Path.of("examples", "mirrormaker2", "seed"), dir.resolve("seed"));
        Files.writeString(dir.resolve("environment.flow.json"), ENVIRONMENT_ONLY.replace("demo", "mm2-demo")
                .replace("replication", "mirror"));
        List<String> importArgs = List.of("--namespace", "mirror", "--out", dir.toString());

        CliRunner.Result imported = run("import", importArgs.toArray(String[]::new));
        assertThat(imported.exitCode()).as("%s", imported).isZero();
        String file = Files.readString(dir.resolve("mm2.mirrormaker2.flow.json"));
        assertThat(file).contains("\"mirrormaker2\"", "\"manage\": \"adopt\"", "\"alias\": \"dc2\"", "\"alias\": \"dc1\"",
                "\"exactly_once\": false");
        CliRunner.Result plan = run("plan", "--detailed-exitcode");
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("No changes.");

        List<String> again = new ArrayList<>(importArgs);
        again.addAll(List.of("--exactly-once", "--force"));
        assertThat(run("import", again.toArray(String[]::new)).exitCode()).isZero();
        CliRunner.Result rollout = run("plan", "--detailed-exitcode");
        assertThat(rollout.exitCode()).as("%s", rollout).isEqualTo(2);
        assertThat(rollout.out()).containsSubsequence("exactly.once.source.support = preparing", "WAIT_FOR_ROLL",
                "exactly.once.source.support = enabled", "WAIT_FOR_ROLL", "read_committed");
    }

    /** Copies a KafkaMirrorMaker2 seed (the example's v1beta2 one, or the v1 one) into a folder with only the environment. */
    private void mirrorMakerFolder(boolean v1) throws IOException {
        dir = tmp.resolve(v1 ? "mm2-v1" : "mm2");
        CliFiles.copy(v1 ? Path.of("src", "test", "resources", "mirrormaker2-v1", "seed")
                : Path.of("examples", "mirrormaker2", "seed"), dir.resolve("seed"));
        Files.writeString(dir.resolve("environment.flow.json"), ENVIRONMENT_ONLY.replace("demo", "mm2-demo")
                .replace("replication", "mirror"));
    }

    @ParameterizedTest(name = "v1 layout: {0}")
    @ValueSource(booleans = {false, true})
    void a_kafka_mirror_maker_2_is_imported_whole_validates_and_plans_no_changes_then_the_rollout(boolean v1)
            throws IOException {
        mirrorMakerFolder(v1);
        List<String> importArgs = List.of("--namespace", "mirror", "--out", dir.toString());

        CliRunner.Result imported = run("import", importArgs.toArray(String[]::new));
        assertThat(imported.exitCode()).as("%s", imported).isZero();
        String file = Files.readString(dir.resolve("mm2.mirrormaker2.flow.json"));
        assertThat(file).contains("\"replicas\": 2", "\"version\": \"3.9.0\"",
                "\"bootstrap_servers\": \"dc2-kafka-bootstrap.kafka-dc2.svc:9092\"", "\"group.id\": \"mm2-cluster\"",
                "\"offset.storage.topic\": \"mm2-cluster-offsets\"",
                "\"config.providers.secrets.class\": \"io.strimzi.kafka.KubernetesSecretConfigProvider\"",
                "\"bootstrap_servers\": \"dc1-kafka-bootstrap.kafka-dc1.svc:9092\"", "\"topics\": \"orders.*\"",
                "\"groups\": \".*\"", "\"tasks_max\": 2", "\"source_connector\": {", "\"replication.factor\": \"3\"",
                "\"checkpoint_connector\": {", "\"emit.checkpoints.interval.seconds\": \"60\"", "\"exactly_once\": false")
                .doesNotContain("exactly.once.source.support\"", "groupId");
        assertThat(cli.run("fmt", "--check", "--no-color", dir.resolve("mm2.mirrormaker2.flow.json").toString()).exitCode())
                .isZero();
        CliRunner.Result validate = cli.run("validate", "--dir", dir.toString(), "--no-color");
        assertThat(validate.exitCode()).as("%s", validate).isZero();
        CliRunner.Result plan = run("plan", "--detailed-exitcode");
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("No changes.");

        List<String> again = new ArrayList<>(importArgs);
        again.addAll(List.of("--exactly-once", "--force"));
        assertThat(run("import", again.toArray(String[]::new)).exitCode()).isZero();
        CliRunner.Result rollout = run("plan", "--detailed-exitcode");
        assertThat(rollout.exitCode()).as("%s", rollout).isEqualTo(2);
        assertThat(rollout.out()).containsSubsequence("exactly.once.source.support = preparing", "WAIT_FOR_ROLL",
                "exactly.once.source.support = enabled", "WAIT_FOR_ROLL", "UPDATE_CONNECTOR",
                "source.consumer.isolation.level=read_committed", "exactly.once.support=required", "WAIT_FOR_CONNECTOR_READY");
        assertThat(rollout.out()).doesNotContain("checkpointConnector.config.\"exactly.once.support\"");
    }

    @Test
    void a_mirror_with_other_patterns_placeholders_and_a_secret_reference_round_trips_without_expanding_them()
            throws IOException {
        mirrorMakerFolder(false);
        Path seed = dir.resolve("seed").resolve("mm2.yaml");
        Files.writeString(seed, Files.readString(seed)
                .replace("    topicsPattern: orders.*\n    groupsPattern: .*\n",
                        "    topicsPattern: 'audit\\..*|orders\\..*'\n    groupsPattern: 'orders-.*'\n")
                .replace("        sync.topic.acls.enabled: 'false'\n", "        sync.topic.acls.enabled: 'false'\n"
                        + "        consumer.ssl.truststore.password: '${file:/opt/mm2/dc1.properties:truststore.password}'\n"
                        + "        consumer.client.id: '${env:MM2_CLIENT_ID}'\n"
                        + "        consumer.ssl.keystore.password: Literal-Secret-7731\n")
                .replaceFirst("    config: \\{}\n", "    authentication:\n      type: scram-sha-512\n      username: mm2\n"
                        + "      passwordSecret:\n        secretName: mm2-dc1\n        password: password\n"
                        + "    config:\n      client.rack: '\\${secrets:mirror/dc1-rack:rack}'\n"));

        CliRunner.Result imported = run("import", "--namespace", "mirror", "--out", dir.toString());

        assertThat(imported.exitCode()).as("%s", imported).isZero();
        String file = Files.readString(dir.resolve("mm2.mirrormaker2.flow.json"));
        assertThat(file).contains("\"topics\": \"audit\\\\..*|orders\\\\..*\"", "\"groups\": \"orders-.*\"",
                "\"consumer.ssl.truststore.password\": \"$${file:/opt/mm2/dc1.properties:truststore.password}\"",
                "\"consumer.client.id\": \"$${env:MM2_CLIENT_ID}\"", "\"client.rack\": \"$${secrets:mirror/dc1-rack:rack}\"")
                .doesNotContain("Literal-Secret-7731", "authentication");
        assertThat(imported.err()).contains(
                "Left out KafkaMirrorMaker2 mirror/mm2 spec.mirrors[sourceCluster=dc1].sourceConnector.config "
                        + "consumer.ssl.keystore.password: it holds a literal credential",
                "Left out KafkaMirrorMaker2 mirror/mm2 spec.clusters[alias=dc1].authentication: the mirrormaker2 block does "
                        + "not model it; adopt leaves it as it is, with its reference to Secret mm2-dc1")
                .doesNotContain("Literal-Secret-7731");
        CliRunner.Result validate = cli.run("validate", "--dir", dir.toString(), "--no-color");
        assertThat(validate.exitCode()).as("%s", validate).isZero();
        CliRunner.Result plan = run("plan", "--detailed-exitcode");
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("No changes.");
    }

    private static String connector(String name, String cluster, String className, String extraConfig) {
        return """
                ---
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaConnector
                metadata:
                  name: %s
                  namespace: replication
                  labels:
                    strimzi.io/cluster: %s
                spec:
                  class: %s
                  tasksMax: 1
                  config:
                    source.cluster.alias: dc3
                    target.cluster.alias: dc2
                %s""".formatted(name, cluster, className, extraConfig);
    }

    @Test
    void workers_already_preparing_and_connectors_flowform_cannot_group_are_kept_as_they_are() throws IOException {
        Path seed = dir.resolve("seed").resolve("mm2-connect.yaml");
        Files.writeString(seed, Files.readString(seed)
                .replace("    config.providers: secrets\n", "    config.providers: secrets\n    exactly.once.source.support: preparing\n")
                .replace("        config.providers=secrets\n", "        config.providers=secrets\n        exactly.once.source.support=preparing\n"));
        String source = "org.apache.kafka.connect.mirror.MirrorSourceConnector";
        Files.writeString(dir.resolve("seed").resolve("more.yaml"),
                connector("legacy-mirror", "mm2-connect", source, "")
                + connector("dc3-to-dc2-checkpoint", "mm2-connect", "MirrorCheckpointConnector", "")
                + connector("dc4-to-dc2-source", "mm2-connect", source, "    topics: 'audit.*'\n")
                + connector("orphan-source", "gone-connect", source, ""));

        CliRunner.Result imported = importInto(dir);

        assertThat(imported.exitCode()).as("%s", imported).isZero();
        assertThat(imported.err()).contains(
                "Left out KafkaConnector replication/legacy-mirror: flowform names a flow's source connector <flow>-source",
                "Left out KafkaConnector replication/dc3-to-dc2-checkpoint: there is no dc3-to-dc2-source",
                "Left out KafkaConnector replication/orphan-source: its strimzi.io/cluster label names \"gone-connect\"");
        String file = Files.readString(dir.resolve("mm2-connect.flow.json"));
        assertThat(file).contains("\"exactly_once_source_support\": \"preparing\"", "\"dc4-to-dc2\"", "\"checkpoints\": false",
                "\"topics\": \"audit.*\"").doesNotContain("legacy-mirror", "orphan", "dc3-to-dc2\"");
        CliRunner.Result plan = run("plan", "--detailed-exitcode");
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("No changes.");
    }
}
