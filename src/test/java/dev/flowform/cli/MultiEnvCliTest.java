package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.SimSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-environment example through the CLI on its embedded clusters: two flows through
 * {@code modules/mm2-eos-flow}, staging and prod with different variables, validate, plan, apply,
 * outputs, and the variable sources of the command line and the process environment.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class MultiEnvCliTest {

    @TempDir
    Path tmp;
    private Path dir;
    private Path stateDir;

    @BeforeEach
    void copyExampleAndModule() {
        CliFiles.copy(Path.of("examples", "multi-env"), tmp.resolve("examples/multi-env"));
        CliFiles.copy(Path.of("modules", "mm2-eos-flow"), tmp.resolve("modules/mm2-eos-flow"));
        dir = tmp.resolve("examples/multi-env");
        stateDir = tmp.resolve("state");
    }

    private String[] args(String command, String... more) {
        List<String> all = new ArrayList<>(List.of(command, "--dir", dir.toString(), "--state-dir", stateDir.toString(),
                "--no-color"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void validate_checks_both_environments_offline() {
        CliRunner.Result r = CliRunner.fast().run("validate", "--dir", dir.toString(), "--no-color");

        assertThat(r.exitCode()).as("%s", r).isZero();
        assertThat(r.out()).isEqualTo("Success! The configuration is valid for environments \"prod\", \"staging\".\n");
        assertThat(stateDir).doesNotExist();
    }

    @Test
    void each_environment_plans_its_own_variables_with_module_addresses() {
        CliRunner cli = CliRunner.fast();

        CliRunner.Result staging = cli.run(args("plan", "-e", "staging", "--detailed-exitcode"));
        assertThat(staging.exitCode()).as("%s", staging).isEqualTo(2);
        assertThat(staging.out()).contains("Plan: 5 to add, 0 to change, 0 to destroy",
                "module.orders.kafka_connector.orders-source", "module.payments.kafka_connector.payments-checkpoint",
                "\"mm2-connect-staging\"", "dc1-staging-kafka-bootstrap.kafka.svc:9093")
                .containsPattern("spec\\.replicas +  = 1\n")
                .doesNotContain("heartbeat");

        CliRunner.Result prod = cli.run(args("plan", "-e", "prod", "--detailed-exitcode"));
        assertThat(prod.exitCode()).as("%s", prod).isEqualTo(2);
        assertThat(prod.out()).contains("Plan: 6 to add, 0 to change, 0 to destroy",
                "module.orders.kafka_connector.orders-heartbeat", "\"mm2-connect-prod\"")
                .containsPattern("spec\\.tasksMax +  = 4\n")
                .containsPattern("spec\\.config\\.\"transaction\\.boundary\" +  = \"interval\"")
                .doesNotContain("staging");

        CliRunner.Result typo = cli.run(args("plan", "-e", "prod", "--target", "module.order"));
        assertThat(typo.exitCode()).as("%s", typo).isEqualTo(1);
        assertThat(typo.err().replaceAll("\\s+", " ")).contains("--target module.order names no resource of the configuration. "
                + "Did you mean \"module.orders\"?");
    }

    @Test
    void apply_records_the_outputs_and_output_prints_them_from_state() {
        CliRunner cli = CliRunner.fast();

        CliRunner.Result before = cli.run("output", "--state-dir", stateDir.toString(), "--no-color");
        assertThat(before.exitCode()).isZero();
        assertThat(before.out()).contains("Warning: No outputs found");

        CliRunner.Result apply = cli.run(args("apply", "-e", "staging", "--auto-approve"));
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(apply.out()).contains("Apply complete!", "Outputs:\n\nenvironment = \"staging in namespace replication\"\n"
                + "orders_source_connector = \"orders-source\"\n");

        CliRunner.Result list = cli.run("output", "--state-dir", stateDir.toString());
        assertThat(list.exitCode()).as("%s", list).isZero();
        assertThat(list.out()).isEqualTo("""
                environment = "staging in namespace replication"
                orders_source_connector = "orders-source"
                payments_source_connector = "payments-source"
                replicated_topics = "dc1.<topic> on dc2"
                """);
        assertThat(cli.run("output", "-e", "staging", "--state-dir", stateDir.toString(), "--raw", "orders_source_connector")
                .out()).isEqualTo("orders-source");
        assertThat(cli.run("output", "-e", "staging", "--state-dir", stateDir.toString(), "--json", "environment").out())
                .isEqualTo("\"staging in namespace replication\"\n");
        CliRunner.Result json = cli.run("output", "-e", "staging", "--state-dir", stateDir.toString(), "--json");
        assertThat(json.out()).startsWith("{\n  \"environment\": {\n    \"sensitive\": false,\n    \"type\": \"string\",\n"
                + "    \"value\": \"staging in namespace replication\"\n  },\n");
        CliRunner.Result unknown = cli.run("output", "-e", "staging", "--state-dir", stateDir.toString(), "orders");
        assertThat(unknown.exitCode()).isEqualTo(1);
        assertThat(unknown.err()).contains("Output \"orders\" not found", "orders_source_connector");

        CliRunner.Result again = cli.run(args("plan", "-e", "staging", "--detailed-exitcode"));
        assertThat(again.exitCode()).as("%s", again).isZero();
        assertThat(again.out()).contains("No changes.");
        assertThat(cli.run("output", "-e", "prod", "--state-dir", stateDir.toString()).out()).contains("No outputs found");
    }

    @Test
    void variables_come_from_the_process_environment_var_files_and_the_command_line_in_that_order() throws IOException {
        CliRunner cli = new CliRunner(new CliContext(Clock.systemUTC(), Prompter.system(),
                Map.of("FLOWFORM_VAR_connect_replicas", "2", "FLOWFORM_VAR_orders_tasks", "3"), SimSettings.fast(),
                Duration.ofSeconds(10)));
        Path vars = tmp.resolve("staging.json");
        Files.writeString(vars, "{\"orders_tasks\": 5}");

        CliRunner.Result plan = cli.run(args("plan", "-e", "staging", "--var-file", vars.toString()));
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).containsPattern("spec\\.replicas +  = 2\n").containsPattern("spec\\.tasksMax +  = 5\n");

        CliRunner.Result invalid = cli.run(args("plan", "-e", "prod", "--var", "connect_replicas=1"));
        assertThat(invalid.exitCode()).isEqualTo(1);
        assertThat(invalid.err()).contains("Error: Invalid value for variable",
                "prod runs at least three Connect workers, so a rolling restart never stops replication.",
                "comes from --var");
    }
}
