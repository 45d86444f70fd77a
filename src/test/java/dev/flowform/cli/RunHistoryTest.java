package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.run.ClusterConnection;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code history} and a resumed apply say about runs that did not finish: runs are numbered 1, 2, 3 in their
 * environment even after a {@code kill -9} (H2 moves its identity ahead by its cache then), a run stopped with Ctrl-C
 * counts its stopped step as interrupted, and the apply that resumes a run counts the roll it saw through.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class RunHistoryTest {

    @TempDir
    Path tmp;

    @Test
    void after_a_kill_9_the_next_run_is_number_2_and_counts_the_roll_it_saw_through() throws Exception {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = dir.resolve("state");
        String original = slowRolls(dir);
        try (ChildFlowform child = apply(dir, stateDir)) {
            assertThat(child.awaitLine(0, l -> l.contains("[4/8] WAIT_FOR_ROLL"), Duration.ofSeconds(120)))
                    .as("%s%n%s", child.out(), child.err()).isNotNegative();
            child.kill();
        }
        Files.writeString(dir.resolve("main.flow.json"), original);

        CliRunner.Result resumed = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));

        assertThat(resumed.exitCode()).as("%s", resumed).isZero();
        assertThat(FaultSuiteTest.flat(resumed.out())).contains("Run 1 (apply by",
                "Apply complete! Resources: 0 added, 2 changed, 0 destroyed; 1 rolling restart in",
                "counting 1 change and 1 rolling restart started before this run and seen through by it");
        try (StateStore state = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            assertThat(state.journal().runs()).extracting(RunRecord::number).containsExactly(2L, 1L);
            assertThat(state.journal().runs().get(0).id()).as("H2's identity moved ahead after the kill")
                    .isGreaterThan(2L);
        }
        CliRunner.Result history = CliRunner.fast().run(CliFiles.args("history", dir, stateDir));
        assertThat(history.out()).contains("Run 2  apply  SUCCEEDED", "Run 1  apply  INTERRUPTED")
                .doesNotContainPattern("Run [03-9]");
    }

    @Test
    void a_run_stopped_with_ctrl_c_shows_its_stopped_step_as_interrupted() throws Exception {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = dir.resolve("state");
        slowRolls(dir);
        try (ChildFlowform child = apply(dir, stateDir)) {
            assertThat(child.awaitLine(0, l -> l.contains("[2/8] WAIT_FOR_ROLL"), Duration.ofSeconds(120)))
                    .as("%s%n%s", child.out(), child.err()).isNotNegative();
            child.signal("TERM");
            assertThat(child.waitFor(Duration.ofSeconds(60))).as("%s%n%s", child.out(), child.err()).isEqualTo(143);
        }

        CliRunner.Result history = CliRunner.fast().run(CliFiles.args("history", dir, stateDir));

        assertThat(history.exitCode()).as("%s", history).isZero();
        assertThat(history.out()).contains("Run 1  apply  INTERRUPTED", "1 done, 0 failed, 1 interrupted")
                .containsPattern("2\\. WAIT_FOR_ROLL +connect_cluster\\.mm2-connect +STOPPED");
        CliRunner.Result json = CliRunner.fast().run(CliFiles.args("history", dir, stateDir, "--json"));
        assertThat(json.out()).contains("\"number\" : 1", "\"status\" : \"FAILED\"");
    }

    /** Makes each worker take 4 s to become Ready, so the apply is still rolling when it is killed or stopped. */
    private static String slowRolls(Path dir) throws Exception {
        Path main = dir.resolve("main.flow.json");
        String original = Files.readString(main);
        Files.writeString(main, original.replace("\"seed\": \"./seed\"", "\"seed\": \"./seed\", \"pod_ready_delay_ms\": 4000"));
        return original;
    }

    private static ChildFlowform apply(Path dir, Path stateDir) {
        return ChildFlowform.start(dir, Map.of(ClusterConnection.SIM_FAST_ENV, "1"),
                CliFiles.args("apply", dir, stateDir, "--auto-approve"));
    }
}
