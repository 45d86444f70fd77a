package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.run.ClusterConnection;
import dev.flowform.state.RunOutcome;
import dev.flowform.state.StateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Done-means 2: four applies started at once on one environment, each in its own JVM: exactly one
 * runs, the three others exit 1 at once naming the holder; and a Ctrl-C (SIGINT) to a running apply
 * journals the step it was in, releases the lock and exits 130, after which the next apply continues.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ConcurrentApplyTest {

    @TempDir
    Path tmp;

    @Test
    void four_applies_at_once_one_runs_three_fail_naming_the_holder() throws Exception {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        // slow rolls (1.5 s per worker) keep the winner holding the lock while the others start
        Path main = dir.resolve("main.flow.json");
        Files.writeString(main, Files.readString(main).replace("\"seed\": \"./seed\"",
                "\"seed\": \"./seed\", \"pod_ready_delay_ms\": 1500"));
        Path stateDir = dir.resolve("state");
        List<ChildFlowform> children = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                children.add(ChildFlowform.start(dir, Map.of(), "apply", "--auto-approve", "--no-color", "--dir",
                        dir.toString(), "--state-dir", stateDir.toString()));
            }
            List<Integer> codes = new ArrayList<>();
            for (ChildFlowform c : children) {
                codes.add(c.waitFor(Duration.ofSeconds(180)));
            }

            assertThat(codes).as("exit codes; outputs:%n%s", outputs(children)).containsOnly(0, 1);
            assertThat(codes.stream().filter(c -> c == 0).count()).as("%s", outputs(children)).isEqualTo(1);
            ChildFlowform winner = children.get(codes.indexOf(0));
            assertThat(winner.out()).contains("Apply complete!");
            try (StateStore state = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
                assertThat(state.journal().runs()).singleElement().satisfies(r -> assertThat(r.outcome()).isEqualTo(RunOutcome.SUCCEEDED));
                String holder = state.journal().runs().get(0).who();
                for (int i = 0; i < 4; i++) {
                    if (codes.get(i) == 1) {
                        assertThat(children.get(i).err()).contains("Error acquiring the state lock", "Who:       " + holder,
                                "Operation: apply", "ago)");
                        assertThat(children.get(i).out()).doesNotContain("[1/8]");
                    }
                }
                assertThat(state.lockTable().current()).isEmpty();
            }
        } finally {
            children.forEach(ChildFlowform::close);
        }
    }

    @Test
    void ctrl_c_journals_the_step_releases_the_lock_exits_130_and_the_next_apply_continues() throws Exception {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = dir.resolve("state");
        String hint;
        // slow rolls (20 s per worker): the roll must outlast the test noticing the line and sending the signal (at
        // 150 ms, and at 1.5 s per worker, a machine at load 20 let the child finish its apply first and exit 0); the
        // configuration is restored before the next apply, which finishes the roll at the fast timings
        Path main = dir.resolve("main.flow.json");
        String original = Files.readString(main);
        Files.writeString(main, original.replace("\"seed\": \"./seed\"",
                "\"seed\": \"./seed\", \"pod_ready_delay_ms\": 20000"));
        try (ChildFlowform child = ChildFlowform.start(dir, Map.of(ClusterConnection.SIM_FAST_ENV, "1"), "apply", "--auto-approve",
                "--no-color", "--dir", dir.toString(), "--state-dir", stateDir.toString())) {
            int at = child.awaitLine(0, l -> l.contains("[2/8] WAIT_FOR_ROLL"), Duration.ofSeconds(120));
            assertThat(at).as("%s%n%s", child.out(), child.err()).isNotNegative();
            child.signal("INT");

            int code = child.waitFor(Duration.ofSeconds(60));

            assertThat(code).as("%s%n%s", child.out(), child.err()).isEqualTo(130);
            hint = FaultSuiteTest.flat(child.out() + "\n" + child.err());
        }
        assertThat(hint).contains("Interrupt received", "Apply interrupted", "interrupted by Ctrl-C (SIGINT)",
                "the lock is released", "Run \"flowform apply\" again to continue");
        try (StateStore state = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            assertThat(state.lockTable().current()).isEmpty();
            assertThat(state.journal().runs()).singleElement().satisfies(r -> assertThat(r.outcome()).isEqualTo(RunOutcome.INTERRUPTED));
            assertThat(state.journal().steps(state.journal().runs().get(0).id())).extracting(s -> s.kind() + " " + s.status())
                    .containsExactly("SET_WORKER_EOS DONE", "WAIT_FOR_ROLL STOPPED");
            assertThat(state.journal().steps(state.journal().runs().get(0).id())).extracting(s -> s.kind() + " " + s.status().shown())
                    .as("as history --json and state pull show it").containsExactly("SET_WORKER_EOS DONE", "WAIT_FOR_ROLL FAILED");
        }

        Files.writeString(main, original);
        CliRunner.Result plan = CliRunner.fast().run(CliFiles.args("plan", dir, stateDir));
        assertThat(plan.out()).contains("Apply interrupted during step 2 of 8: WAIT_FOR_ROLL connect_cluster.mm2-connect",
                "was stopped before it finished");
        CliRunner.Result next = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));

        assertThat(next.exitCode()).as("%s", next).isZero();
        assertThat(next.out()).contains("Apply interrupted during step 2 of 8: WAIT_FOR_ROLL connect_cluster.mm2-connect",
                "Apply complete!").doesNotContain("Released the state lock");
    }

    private static String outputs(List<ChildFlowform> children) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (ChildFlowform c : children) {
            sb.append("--- pid ").append(c.pid()).append(" stdout ---\n").append(c.out()).append("\n--- stderr ---\n")
                    .append(c.err()).append('\n');
        }
        return sb.toString();
    }
}
