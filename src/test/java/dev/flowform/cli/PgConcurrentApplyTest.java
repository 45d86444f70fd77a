package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.locking.Sleeper;
import dev.flowform.run.ClusterConnection;
import dev.flowform.state.RunOutcome;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import dev.flowform.state.StepStatus;
import dev.flowform.state.pg.PgConnection;
import dev.flowform.testing.PgServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart with its state in PostgreSQL, applied by child JVMs started from four different working folders (as
 * four machines would): exactly one runs and the others exit 1 naming it; a holder killed with SIGKILL leaves a lock
 * row whose session is gone, which the next apply takes over without force-unlock before it resumes the run.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PgConcurrentApplyTest {

    private static final String SCHEMA = "team_state";

    @TempDir
    Path tmp;

    @Test
    void four_applies_from_four_folders_one_runs_three_fail_naming_the_holder() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("concurrent");
        Path dir = PgBackendCliTest.quickstartOnPg(tmp.resolve("qs"));
        Path main = dir.resolve("main.flow.json");
        Files.writeString(main, Files.readString(main).replace("\"seed\": \"./seed\"",
                "\"seed\": \"./seed\", \"pod_ready_delay_ms\": 1500"));
        List<ChildFlowform> children = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Path work = Files.createDirectories(tmp.resolve("machine-" + i));
                children.add(ChildFlowform.start(work, env(db), "apply", "--auto-approve", "--no-color", "--dir",
                        dir.toString()));
            }
            List<Integer> codes = new ArrayList<>();
            for (ChildFlowform c : children) {
                codes.add(c.waitFor(Duration.ofSeconds(180)));
            }

            assertThat(codes).as("exit codes; outputs:%n%s", outputs(children)).containsOnly(0, 1);
            assertThat(codes.stream().filter(c -> c == 0).count()).as("%s", outputs(children)).isEqualTo(1);
            assertThat(children.get(codes.indexOf(0)).out()).contains("Apply complete!");
            try (StateStore state = open(db)) {
                RunRecord run = state.journal().runs().get(0);
                assertThat(state.journal().runs()).hasSize(1);
                assertThat(run.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
                for (int i = 0; i < 4; i++) {
                    if (codes.get(i) == 1) {
                        assertThat(children.get(i).err()).contains("Error acquiring the state lock",
                                "Who:       " + run.who(), "Operation: apply", "Session:   PostgreSQL server process");
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
    void after_kill_9_of_the_holder_the_next_apply_takes_the_lock_without_force_unlock_and_resumes() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("killed");
        Path dir = PgBackendCliTest.quickstartOnPg(tmp.resolve("qs"));
        Map<String, String> env = new TreeMap<>(env(db));
        env.put(ClusterConnection.SIM_FAST_ENV, "1");
        try (ChildFlowform child = ChildFlowform.start(Files.createDirectories(tmp.resolve("machine-a")), env, "apply",
                "--auto-approve", "--no-color", "--dir", dir.toString())) {
            int at = child.awaitLine(0, l -> l.contains("[2/8] WAIT_FOR_ROLL"), Duration.ofSeconds(120));
            assertThat(at).as("%s%n%s", child.out(), child.err()).isNotNegative();
            child.kill();
        }
        try (StateStore state = open(db)) {
            assertThat(state.lockTable().current()).as("the killed holder's row is left").isPresent();
        }

        CliRunner cli = PgBackendCliTest.runner(db, "unused");
        CliRunner.Result resumed = cli.run("apply", "--dir", dir.toString(), "--auto-approve", "--no-color");

        assertThat(resumed.exitCode()).as("%s", resumed).isZero();
        assertThat(resumed.out()).contains("Took over the state lock", "whose PostgreSQL session", "no force-unlock",
                "Apply interrupted", "Apply complete!");
        CliRunner.Result plan = cli.run("plan", "--dir", dir.toString(), "--detailed-exitcode", "--no-color");
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        try (StateStore state = open(db)) {
            List<RunRecord> runs = state.journal().runs();
            assertThat(runs).extracting(RunRecord::outcome)
                    .containsExactly(RunOutcome.SUCCEEDED, RunOutcome.INTERRUPTED);
            Map<String, Integer> done = new TreeMap<>();
            for (RunRecord r : runs) {
                for (StepRecord s : state.journal().steps(r.id())) {
                    if (s.status() == StepStatus.DONE) {
                        done.merge(s.stepId() + " " + s.kind() + " " + s.address(), 1, Integer::sum);
                    }
                }
            }
            assertThat(done).as("each step DONE once").hasSize(8).allSatisfy((k, n) -> assertThat(n).as(k).isEqualTo(1));
            assertThat(state.lockTable().current()).isEmpty();
        }
    }

    private static Map<String, String> env(PgServer.Database db) {
        return Map.of(PgConnection.CONN_STR_VARIABLE, db.keywordConnStr());
    }

    private static StateStore open(PgServer.Database db) {
        return StateStore.openPostgres(PgConnection.resolve(db.keywordConnStr(), Map.of()), SCHEMA, "demo",
                Clock.systemUTC(), Sleeper.SYSTEM, false);
    }

    private static String outputs(List<ChildFlowform> children) {
        StringBuilder sb = new StringBuilder();
        for (ChildFlowform c : children) {
            sb.append("--- out\n").append(c.out()).append("--- err\n").append(c.err());
        }
        return sb.toString();
    }
}
