package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.run.ClusterConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster serve} and {@code apply} both write an embedded environment's cluster file, so each holds the
 * environment's state lock while its cluster runs: whichever comes second is refused naming the other, plan shares the
 * served objects, and no write of one is saved over by the other's older copy, in either order.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ServeAndApplyTest {

    private static final String ENABLED = "\"exactly.once.source.support\" : \"enabled\"";

    @TempDir
    Path tmp;

    @Test
    void an_apply_while_serve_runs_is_refused_naming_serve_plan_shares_it_and_the_next_serve_keeps_the_apply()
            throws Exception {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = tmp.resolve("state");
        Path file = stateDir.resolve("demo").resolve(ClusterConnection.EMBEDDED_CLUSTER_FILE);
        CliRunner cli = CliRunner.fast();
        try (ChildFlowform serve = serve(dir, stateDir)) {
            CliRunner.Result apply = cli.run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));
            assertThat(apply.exitCode()).as("%s", apply).isEqualTo(1);
            assertThat(FaultSuiteTest.flat(apply.err())).contains("Error acquiring the state lock",
                    "Operation: cluster serve", "Process: pid " + serve.pid(),
                    "is being served by \"flowform cluster serve\"", "Stop it (Ctrl-C) first");
            assertThat(apply.out()).doesNotContain("[1/8]");

            CliRunner.Result plan = cli.run(CliFiles.args("plan", dir, stateDir, "--detailed-exitcode"));
            assertThat(plan.exitCode()).as("plan reads the served objects: %s", plan).isEqualTo(2);
            assertThat(plan.out()).contains("2 rolling restarts");

            stop(serve);
        }
        CliRunner.Result apply = cli.run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));
        assertThat(apply.exitCode()).as("%s", apply).isZero();
        assertThat(Files.readString(file)).contains(ENABLED);

        try (ChildFlowform again = serve(dir, stateDir)) {
            stop(again);
        }
        assertThat(Files.readString(file)).as("the served copy is the applied one").contains(ENABLED);
        assertThat(cli.run(CliFiles.args("plan", dir, stateDir, "--detailed-exitcode")).exitCode()).isZero();
    }

    @Test
    void serve_while_an_apply_runs_is_refused_naming_the_apply_which_then_finishes_and_is_served() throws Exception {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path main = dir.resolve("main.flow.json");
        Files.writeString(main, Files.readString(main).replace("\"seed\": \"./seed\"",
                "\"seed\": \"./seed\", \"pod_ready_delay_ms\": 3000"));
        Path stateDir = tmp.resolve("state");
        Path file = stateDir.resolve("demo").resolve(ClusterConnection.EMBEDDED_CLUSTER_FILE);
        try (ChildFlowform apply = ChildFlowform.start(tmp, Map.of(ClusterConnection.SIM_FAST_ENV, "1"),
                CliFiles.args("apply", dir, stateDir, "--auto-approve"))) {
            assertThat(apply.awaitLine(0, l -> l.contains("[2/8] WAIT_FOR_ROLL"), Duration.ofSeconds(120)))
                    .as("%s%n%s", apply.out(), apply.err()).isNotNegative();

            try (ChildFlowform serve = ChildFlowform.start(tmp, Map.of(ClusterConnection.SIM_FAST_ENV, "1"),
                    CliFiles.args("cluster serve", dir, stateDir))) {
                assertThat(serve.waitFor(Duration.ofSeconds(60))).as("%s%n%s", serve.out(), serve.err()).isEqualTo(1);
                assertThat(FaultSuiteTest.flat(serve.err())).contains("Error acquiring the state lock",
                        "Operation: apply", "Process: pid " + apply.pid());
                assertThat(serve.out()).doesNotContain("serving at");
            }

            assertThat(apply.waitFor(Duration.ofSeconds(120))).as("%s%n%s", apply.out(), apply.err()).isZero();
        }
        assertThat(Files.readString(file)).contains(ENABLED);
        try (ChildFlowform serve = serve(dir, stateDir)) {
            stop(serve);
        }
        assertThat(Files.readString(file)).as("the apply's writes are kept").contains(ENABLED);
    }

    private ChildFlowform serve(Path dir, Path stateDir) throws InterruptedException {
        ChildFlowform serve = ChildFlowform.start(tmp, Map.of(ClusterConnection.SIM_FAST_ENV, "1"),
                CliFiles.args("cluster serve", dir, stateDir));
        assertThat(serve.awaitLine(0, l -> l.startsWith("Ctrl-C stops it"), Duration.ofSeconds(120)))
                .as("serve started:%n%s%n%s", serve.out(), serve.err()).isNotNegative();
        return serve;
    }

    private static void stop(ChildFlowform serve) throws Exception {
        serve.signal("TERM");
        assertThat(serve.waitFor(Duration.ofSeconds(60))).as("%s%n%s", serve.out(), serve.err()).isZero();
        assertThat(serve.out()).contains("Stopped; the objects are saved in");
    }
}
