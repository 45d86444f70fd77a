package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.locking.Sleeper;
import dev.flowform.run.ClusterConnection;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import dev.flowform.state.StepStatus;
import dev.flowform.state.pg.PgConnection;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL stopped in the middle of a roll and started again: the apply in a child JVM exits 1 naming the lost
 * database; the next apply, once the server is back, converges, and the journal holds each step DONE once. The test
 * runs a PostgreSQL of its own (data folder and port kept across the restart), so the shared test server is never
 * stopped.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PgRestartMidApplyTest {

    @TempDir
    Path tmp;

    @Test
    void the_apply_exits_1_naming_the_cause_and_the_next_apply_converges_with_each_step_done_once() throws Exception {
        Path data = tmp.resolve("pgdata");
        EmbeddedPostgres pg = start(data, 0);
        int port = pg.getPort();
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE ff");
        }
        String connStr = "host=127.0.0.1 port=" + port + " user=postgres dbname=ff sslmode=disable";
        Path dir = PgBackendCliTest.quickstartOnPg(tmp.resolve("qs"));
        Map<String, String> env = Map.of(PgConnection.CONN_STR_VARIABLE, connStr, ClusterConnection.SIM_FAST_ENV, "1");
        int exit;
        String err;
        try (ChildFlowform child = ChildFlowform.start(Files.createDirectories(tmp.resolve("work")), env, "apply",
                "--auto-approve", "--no-color", "--dir", dir.toString())) {
            int at = child.awaitLine(0, l -> l.contains("[2/8] WAIT_FOR_ROLL"), Duration.ofSeconds(120));
            assertThat(at).as("%s%n%s", child.out(), child.err()).isNotNegative();
            pg.close();
            exit = child.waitFor(Duration.ofSeconds(120));
            err = child.out() + child.err();
        }
        assertThat(exit).as(err).isEqualTo(1);
        assertThat(err).containsIgnoringCase("refused");

        pg = start(data, port);
        try {
            CliRunner cli = new CliRunner(new CliContext(Clock.systemUTC(), CliRunner.unattended().prompter(),
                    Map.of(PgConnection.CONN_STR_VARIABLE, connStr), dev.flowform.sim.SimSettings.fast(),
                    Duration.ofSeconds(10)));
            CliRunner.Result next = cli.run("apply", "--dir", dir.toString(), "--auto-approve", "--no-color");
            assertThat(next.exitCode()).as("%s", next).isZero();
            assertThat(next.out()).contains("Apply complete!");
            CliRunner.Result plan = cli.run("plan", "--dir", dir.toString(), "--detailed-exitcode", "--no-color");
            assertThat(plan.exitCode()).as("%s", plan).isZero();
            try (StateStore state = StateStore.openPostgres(PgConnection.resolve(connStr, Map.of()), "team_state",
                    "demo", Clock.systemUTC(), Sleeper.SYSTEM, false)) {
                Map<String, Integer> done = new TreeMap<>();
                for (RunRecord r : state.journal().runs()) {
                    for (StepRecord s : state.journal().steps(r.id())) {
                        if (s.status() == StepStatus.DONE) {
                            done.merge(s.stepId() + " " + s.kind() + " " + s.address(), 1, Integer::sum);
                        }
                    }
                }
                assertThat(done).as("each step DONE once").hasSize(8)
                        .allSatisfy((k, n) -> assertThat(n).as(k).isEqualTo(1));
                assertThat(state.lockTable().current()).isEmpty();
            }
        } finally {
            pg.close();
        }
    }

    private static EmbeddedPostgres start(Path data, int port) throws IOException {
        EmbeddedPostgres.Builder b = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
                .setServerConfig("listen_addresses", "127.0.0.1").setRegisterShutdownHook(false);
        return (port == 0 ? b : b.setPort(port)).start();
    }
}
