package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.state.RunOutcome;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's first set-up command (docs/quickstart.md), end to end through the CLI, on the quickstart example and the embedded cluster. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class QuickstartCliTest {

    @TempDir
    Path tmp;
    private Path dir;
    private Path stateDir;

    @BeforeEach
    void copyExample() {
        dir = CliFiles.quickstart(tmp.resolve("quickstart"));
        stateDir = tmp.resolve("state");
    }

    private String[] args(String command, String... more) {
        List<String> all = new java.util.ArrayList<>(List.of(command, "--dir", dir.toString(), "--state-dir",
                stateDir.toString(), "--no-color"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void plan_then_apply_rolls_out_eos_in_the_safe_order_and_records_it() {
        CliRunner cli = CliRunner.fast();

        CliRunner.Result plan = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(plan.out()).containsSubsequence(
                "SET_WORKER_EOS", "exactly.once.source.support = preparing",
                "WAIT_FOR_ROLL",
                "SET_WORKER_EOS", "exactly.once.source.support = enabled",
                "WAIT_FOR_ROLL",
                "STOP_CONNECTOR", "kafka_connector.dc1-to-dc2-source", "spec.state: stopped",
                "WAIT_FOR_CONNECTOR_READY", "STOPPED",
                "UPDATE_CONNECTOR", "kafka_connector.dc1-to-dc2-source", "read_committed", "then start",
                "WAIT_FOR_CONNECTOR_READY", "RUNNING");
        assertThat(plan.out()).contains("Plan: 0 to add, 2 to change, 0 to destroy, 2 rolling restarts.");
        assertThat(plan.out()).doesNotContain("Fixture-Secret-4417");

        CliRunner.Result apply = cli.run(args("apply", "--auto-approve"));
        assertThat(apply.exitCode()).as("%s", apply).isEqualTo(0);
        assertThat(apply.out()).contains("still waiting", "workers on the new revision", "Apply complete!");

        CliRunner.Result again = cli.run(args("plan", "--detailed-exitcode", "-e", "demo"));
        assertThat(again.exitCode()).as("%s", again).isEqualTo(0);
        assertThat(again.out()).contains("No changes.");

        try (StateStore state = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            List<RunRecord> runs = state.journal().runs();
            assertThat(runs).hasSize(1);
            assertThat(runs.get(0).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
            List<StepRecord> steps = state.journal().steps(runs.get(0).id());
            assertThat(steps).extracting(StepRecord::kind).containsExactly("SET_WORKER_EOS", "WAIT_FOR_ROLL",
                    "SET_WORKER_EOS", "WAIT_FOR_ROLL", "STOP_CONNECTOR", "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR",
                    "WAIT_FOR_CONNECTOR_READY");
            assertThat(state.snapshots().all()).extracting(r -> r.address()).contains("connect_cluster.mm2-connect",
                    "kafka_connector.dc1-to-dc2-source");
            assertThat(state.snapshots().all()).allSatisfy(r -> assertThat(r.bodyJson()).doesNotContain("Fixture-Secret-4417"));
            assertThat(state.stateRef().serial()).isGreaterThan(10);
        }
    }

    @Test
    void apply_without_a_terminal_and_without_auto_approve_refuses() {
        CliRunner.Result r = CliRunner.fast().run(args("apply"));

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("No approval", "--auto-approve");
    }

    @Test
    void apply_asks_and_anything_but_yes_cancels() {
        CliRunner.Result r = CliRunner.fast("no").run(args("apply"));

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("Only 'yes' will be accepted");
        assertThat(r.err()).contains("Apply cancelled.");
    }

    @Test
    void apply_asks_and_yes_applies() {
        CliRunner.Result r = CliRunner.fast("yes").run(args("apply"));

        assertThat(r.exitCode()).as("%s", r).isEqualTo(0);
        assertThat(r.out()).contains("Apply complete!");
    }

    @Test
    void unknown_environment_is_an_error() {
        CliRunner.Result r = CliRunner.fast().run(args("plan", "-e", "prod"));

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("demo");
    }

    @Test
    void terraform_spellings_are_accepted() {
        CliRunner.Result r = CliRunner.fast().run("plan", "-chdir=" + dir, "--state-dir", stateDir.toString(),
                "-no-color", "-detailed-exitcode", "-var", "exactly_once=true");

        assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
    }

    @Test
    void help_and_version_work() {
        CliRunner cli = CliRunner.fast();
        assertThat(cli.run("--help").exitCode()).isZero();
        assertThat(cli.run("--version").out()).startsWith("flowform ");
        assertThat(cli.run("plan", "--help").out()).contains("--detailed-exitcode", "--env", "--dir");
        assertThat(cli.run("apply", "--help").out()).contains("--auto-approve", "--timeout");
    }

    @Test
    void usage_errors_exit_1_not_2() {
        CliRunner.Result r = CliRunner.fast().run("plan", "--no-such-flag");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("Unknown option");
    }
}
