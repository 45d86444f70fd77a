package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.run.ClusterConnection;
import dev.flowform.state.StateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Saved plans, staleness, {@code --json}, {@code show}, drift and targeting through the CLI, on the
 * quickstart example and the embedded cluster.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class SavedPlanCliTest {

    private static final String SECRET = "Saved-Plan-Secret-2291";

    @TempDir
    Path tmp;
    private Path dir;
    private Path stateDir;
    private final CliRunner cli = CliRunner.fast();

    @BeforeEach
    void copyExample() {
        dir = CliFiles.quickstart(tmp.resolve("quickstart"));
        stateDir = tmp.resolve("state");
    }

    private String[] args(String command, String... more) {
        List<String> all = new ArrayList<>(List.of(command, "--dir", dir.toString(), "--state-dir", stateDir.toString(),
                "--no-color"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private Path persisted(String env) {
        return stateDir.resolve(env).resolve(ClusterConnection.EMBEDDED_CLUSTER_FILE);
    }

    @Test
    void a_saved_plan_is_applied_exactly_and_a_replay_of_the_first_plan_of_an_environment_is_stale() {
        Path file = tmp.resolve("eos.plan.json");
        CliRunner.Result plan = cli.run(args("plan", "--out", file.toString()));
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("Saved the plan to: " + file, "flowform apply " + file);
        Plan saved = PlanCodec.decode(read(file));
        assertThat(saved.basedOn().serial()).as("the first plan of an environment already has a lineage").isZero();
        assertThat(saved.basedOn().lineage()).isNotBlank();

        CliRunner.Result apply = cli.run(args("apply", file.toString()));
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(apply.out()).contains("Apply complete!").doesNotContain("Do you want to perform these actions");

        CliRunner.Result replay = cli.run(args("apply", file.toString()));
        assertThat(replay.exitCode()).isEqualTo(1);
        assertThat(FaultSuiteTest.flat(replay.err())).contains("Saved plan is stale", "serial 0 then",
                "Create a new plan with: flowform plan --dir " + dir + " -e demo --state-dir " + stateDir + " --out FILE");
    }

    @Test
    void a_plan_is_stale_once_the_state_serial_moved() throws IOException {
        Path file = tmp.resolve("p.json");
        assertThat(cli.run(args("plan", "--out", file.toString())).exitCode()).isZero();
        try (StateStore state = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            state.setKubeServer(ClusterConnection.EMBEDDED_SERVER, "replication"); // serial +1, same cluster
        }

        CliRunner.Result apply = cli.run(args("apply", file.toString()));

        assertThat(apply.exitCode()).isEqualTo(1);
        assertThat(apply.err()).contains("Saved plan is stale", "changed by another operation");
        assertThat(read(persisted("demo"))).doesNotContain("\"exactly.once.source.support\" : \"preparing\"");
    }

    @Test
    void a_plan_is_stale_once_a_live_object_it_read_changed() throws IOException {
        Path file = tmp.resolve("p.json");
        assertThat(cli.run(args("plan", "--out", file.toString())).exitCode()).isZero();
        Path cluster = persisted("demo");
        Files.writeString(cluster, read(cluster).replace("\"topics\" : \"orders\\\\..*|payments\\\\..*\"",
                "\"topics\" : \"orders\\\\..*\""));

        CliRunner.Result apply = cli.run(args("apply", file.toString()));

        assertThat(apply.exitCode()).as("%s", apply).isEqualTo(1);
        assertThat(apply.err()).contains("Saved plan is stale", "KafkaConnector replication/dc1-to-dc2-source (changed since)");
    }

    @Test
    void another_environments_plan_is_refused() throws IOException {
        Files.writeString(dir.resolve("staging.flow.json"), """
                {"environment": {"staging": {"kubernetes": {"embedded": {"seed": "./seed"}}, "namespace": "replication"}}}
                """);
        Path file = tmp.resolve("demo.plan.json");
        assertThat(cli.run(args("plan", "-e", "demo", "--out", file.toString())).exitCode()).isZero();

        CliRunner.Result other = cli.run(args("apply", "-e", "staging", file.toString()));
        assertThat(other.exitCode()).isEqualTo(1);
        assertThat(other.err()).contains("Saved plan is for another environment", "\"demo\"");

        Path elsewhere = tmp.resolve("other-state");
        CliRunner.Result lineage = cli.run("apply", "--dir", dir.toString(), "--state-dir", elsewhere.toString(), "--no-color",
                "-e", "demo", file.toString());
        assertThat(lineage.exitCode()).isEqualTo(1);
        assertThat(lineage.err()).contains("Saved plan does not match the given state", "different state lineage");
    }

    @Test
    void secrets_are_encrypted_in_the_saved_plan_and_reach_the_cluster_in_clear() throws IOException {
        Files.writeString(dir.resolve("dc3.flow.json"), """
                {
                  "variable": {"dc3_password": {"type": "string", "sensitive": true, "default": "%s"}},
                  "replication_flow": {
                    "dc3-to-dc2": {
                      "connect_cluster": "mm2-connect",
                      "source": {"alias": "dc3", "bootstrap_servers": "dc3-kafka-bootstrap:9093",
                                 "config": {"sasl.jaas.config": "ScramLoginModule required password=\\"${var.dc3_password}\\";"}},
                      "target": {"alias": "dc2", "bootstrap_servers": "dc2-kafka-bootstrap:9093"},
                      "topics": ["audit\\\\..*"]
                    }
                  }
                }
                """.formatted(SECRET));
        Path file = tmp.resolve("p.json");
        CliRunner.Result plan = cli.run(args("plan", "--out", file.toString()));
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        String text = read(file);
        assertThat(text).doesNotContain(SECRET).contains("encrypted:v1:").contains("\"dc3.flow.json\"");
        assertThat(plan.out()).doesNotContain(SECRET);

        CliRunner.Result shown = cli.run(args("show", file.toString()));
        assertThat(shown.exitCode()).isZero();
        assertThat(shown.out()).contains("kafka_connector.dc3-to-dc2-source will be created").doesNotContain(SECRET)
                .doesNotContain("encrypted:v1:");

        CliRunner.Result apply = cli.run(args("apply", file.toString()));
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(read(persisted("demo"))).contains(SECRET);
    }

    @Test
    void json_output_is_the_plan_document_and_show_prints_it_again() throws IOException {
        CliRunner.Result json = cli.run(args("plan", "--json", "--detailed-exitcode"));
        assertThat(json.exitCode()).as("%s", json).isEqualTo(2);
        Plan doc = PlanCodec.decode(json.out());
        assertThat(doc.steps()).hasSize(8);
        assertThat(doc.transactionalIds()).extracting(t -> t.transactionalId()).contains("connect-cluster-mm2-connect",
                "mm2-connect-dc1-to-dc2-source-3");

        Path file = tmp.resolve("p.json");
        assertThat(cli.run(args("plan", "--out", file.toString())).exitCode()).isZero();
        CliRunner.Result show = cli.run(args("show", file.toString(), "--json"));
        assertThat(show.exitCode()).isZero();
        assertThat(PlanCodec.decode(show.out()).steps()).isEqualTo(PlanCodec.decode(read(file)).steps());
    }

    @Test
    void show_without_a_file_prints_the_state() {
        assertThat(cli.run(args("show")).out()).contains("No state for environment \"demo\"");
        assertThat(cli.run(args("apply", "--auto-approve")).exitCode()).isZero();

        CliRunner.Result show = cli.run(args("show"));
        CliRunner.Result json = cli.run(args("show", "--json"));

        assertThat(show.exitCode()).isZero();
        assertThat(show.out()).contains("Environment \"demo\": lineage", "# connect_cluster.mm2-connect",
                "# kafka_connector.dc1-to-dc2-source").doesNotContain("Fixture-Secret-4417")
                .containsPattern("spec\\.config\\.\"exactly\\.once\\.source\\.support\"\\s+= \"enabled\"");
        assertThat(json.out()).contains("\"format_version\" : 1", "\"address\" : \"kafka_connector.dc1-to-dc2-source\"");
    }

    @Test
    void drift_is_listed_first_exits_2_and_refresh_only_accepts_it_into_state() throws IOException {
        CliRunner.Result empty = cli.run(args("plan", "--refresh-only", "--detailed-exitcode"));
        assertThat(empty.exitCode()).as("%s", empty).isZero();
        assertThat(FaultSuiteTest.flat(empty.out())).contains("No changes.", "records no objects yet, so there is "
                + "nothing to compare the live objects with").doesNotContain("match the state");
        assertThat(cli.run(args("apply", "--auto-approve")).exitCode()).isZero();
        Path cluster = persisted("demo");
        Files.writeString(cluster, read(cluster).replace("\"topics\" : \"orders\\\\..*|payments\\\\..*\"",
                "\"topics\" : \"orders\\\\..*\""));

        CliRunner.Result plan = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(plan.out()).startsWith("Note: Objects have changed outside of flowform")
                .contains("kafka_connector.dc1-to-dc2-source has changed", "spec.config.\"topics\"",
                        "flowform leaves them as they are", "No changes.");

        Path file = tmp.resolve("refresh.json");
        CliRunner.Result refresh = cli.run(args("plan", "--refresh-only", "--detailed-exitcode", "--out", file.toString()));
        assertThat(refresh.exitCode()).isEqualTo(2);
        assertThat(refresh.out()).contains("This is a refresh-only plan");
        CliRunner.Result accept = cli.run(args("apply", file.toString()));
        assertThat(accept.exitCode()).as("%s", accept).isZero();
        assertThat(accept.out()).contains("Recorded 1 object(s) changed outside flowform in the state");

        CliRunner.Result after = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(after.exitCode()).as("%s", after).isZero();
        assertThat(after.out()).doesNotContain("changed outside");
        assertThat(cli.run(args("plan", "--refresh-only")).out())
                .contains("The live objects match the state of environment \"demo\"");
    }

    @Test
    void target_limits_the_plan_and_warns_and_a_saved_plan_takes_no_planning_flags() {
        CliRunner.Result plan = cli.run(args("plan", "--target", "connect_cluster.mm2-connect"));
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("Resource targeting is in effect", "SET_WORKER_EOS").doesNotContain("UPDATE_CONNECTOR");

        CliRunner.Result unknown = cli.run(args("plan", "--target", "connect_cluster.nope"));
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("Unknown target address").doesNotContain("Did you mean");
        CliRunner.Result typo = cli.run(args("plan", "--target", "connect_cluster.mm2-conect"));
        assertThat(typo.exitCode()).isEqualTo(1);
        assertThat(typo.err().replaceAll("\\s+", " ")).contains("--target connect_cluster.mm2-conect names no resource of the configuration. "
                + "Did you mean \"connect_cluster.mm2-connect\"?");

        Path file = tmp.resolve("p.json");
        assertThat(cli.run(args("plan", "--out", file.toString())).exitCode()).isZero();
        CliRunner.Result apply = cli.run(args("apply", "--target", "connect_cluster.mm2-connect", file.toString()));
        assertThat(apply.exitCode()).isEqualTo(1);
        assertThat(apply.err()).contains("Can't set planning options when applying a saved plan");
    }

    @Test
    void a_file_that_is_not_a_plan_is_refused() throws IOException {
        Path file = tmp.resolve("nonsense.json");
        Files.writeString(file, "{\"hello\": 1}");

        CliRunner.Result apply = cli.run(args("apply", file.toString()));
        CliRunner.Result show = cli.run(args("show", file.toString()));

        assertThat(apply.exitCode()).isEqualTo(1);
        assertThat(apply.err()).contains("Cannot use the plan file");
        assertThat(show.exitCode()).isEqualTo(1);
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
