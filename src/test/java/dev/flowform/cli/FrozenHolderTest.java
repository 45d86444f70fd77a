package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.run.ClusterConnection;
import dev.flowform.state.pg.PgConnection;
import dev.flowform.testing.PgServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * A holder of the state that is frozen (SIGSTOP: a closed laptop lid, a stuck mount, a debugger) must not make the
 * next command wait without end: with {@code --lock-timeout 0s} it fails at once naming the holder, with a timeout it
 * waits that long and gives up naming it, and SIGTERM or Ctrl-C ends a command that waits. On H2, whose file is served
 * by the holder itself, and on PostgreSQL.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class FrozenHolderTest {

    /** The longest a refused command may take, from its start to its exit, JVM start-up included. */
    private static final Duration REFUSED_WITHIN = Duration.ofSeconds(10);

    @TempDir
    Path tmp;

    @Test
    void on_h2_a_stopped_holder_is_named_within_seconds_waited_for_as_long_as_asked_and_a_wait_ends_on_sigterm()
            throws Exception {
        Path dir = slowQuickstart(CliFiles.quickstart(tmp.resolve("qs")));
        Path stateDir = dir.resolve("state");
        String[] apply = {"apply", "--auto-approve", "--no-color", "--dir", dir.toString(), "--state-dir",
                stateDir.toString()};
        try (ChildFlowform holder = frozenHolder(dir, Map.of(), apply)) {
            String stopped = "process " + holder.pid() + " (flowform apply), which is stopped and does not answer";

            Refused now = refused(dir, Map.of(), concat(apply, "--lock-timeout", "0s"));
            assertThat(now.code()).as(now.output()).isEqualTo(1);
            assertThat(now.took()).as(now.output()).isLessThan(REFUSED_WITHIN);
            assertThat(FaultSuiteTest.flat(now.output())).contains("Error acquiring the state lock", stopped,
                    "Operation: apply", "Process: pid " + holder.pid(), "kill -CONT " + holder.pid(),
                    "--lock-timeout");

            Refused waited = refused(dir, Map.of(), concat(apply, "--lock-timeout", "3s"));
            assertThat(waited.code()).as(waited.output()).isEqualTo(1);
            assertThat(FaultSuiteTest.flat(waited.output())).contains("Acquiring state lock", "(waited 3s)", stopped);

            Refused plan = refused(dir, Map.of(), "plan", "--no-color", "--dir", dir.toString(), "--state-dir",
                    stateDir.toString());
            assertThat(plan.code()).as(plan.output()).isEqualTo(1);
            assertThat(plan.took()).as(plan.output()).isLessThan(REFUSED_WITHIN);
            assertThat(FaultSuiteTest.flat(plan.output())).contains("Cannot open the state of environment \"demo\"",
                    stopped);

            assertWaitEndsOnSignal(dir, Map.of(), concat(apply, "--lock-timeout", "10m"));
            holder.kill();
        }
    }

    @Test
    void on_postgresql_a_stopped_holder_is_named_within_seconds_and_a_wait_ends_on_sigterm() throws Exception {
        PgServer.Database db = PgServer.get().freshDatabase("frozen");
        Path dir = slowQuickstart(PgBackendCliTest.quickstartOnPg(tmp.resolve("qs")));
        Map<String, String> env = Map.of(PgConnection.CONN_STR_VARIABLE, db.keywordConnStr());
        String[] apply = {"apply", "--auto-approve", "--no-color", "--dir", dir.toString()};
        try (ChildFlowform holder = frozenHolder(Files.createDirectories(tmp.resolve("machine-a")), env, apply)) {
            Refused now = refused(Files.createDirectories(tmp.resolve("machine-b")), env,
                    concat(apply, "--lock-timeout", "0s"));
            assertThat(now.code()).as(now.output()).isEqualTo(1);
            assertThat(now.took()).as(now.output()).isLessThan(REFUSED_WITHIN);
            assertThat(FaultSuiteTest.flat(now.output())).contains("Error acquiring the state lock", "Operation: apply",
                    "Process: pid " + holder.pid(), "Session: PostgreSQL server process");

            Refused waited = refused(tmp.resolve("machine-b"), env, concat(apply, "--lock-timeout", "3s"));
            assertThat(waited.code()).as(waited.output()).isEqualTo(1);
            assertThat(FaultSuiteTest.flat(waited.output())).contains("(waited 3s)", "Process: pid " + holder.pid());

            assertWaitEndsOnSignal(tmp.resolve("machine-b"), env, concat(apply, "--lock-timeout", "10m"));
            holder.kill();
        }
    }

    /** Rolls slow enough that the holder is still applying when it is stopped. */
    private static Path slowQuickstart(Path dir) throws IOException {
        Path main = dir.resolve("main.flow.json");
        Files.writeString(main, Files.readString(main).replace("\"seed\": \"./seed\"",
                "\"seed\": \"./seed\", \"pod_ready_delay_ms\": 20000"));
        return dir;
    }

    /** @return an apply that holds the lock, stopped with SIGSTOP while it waits for a roll */
    private static ChildFlowform frozenHolder(Path work, Map<String, String> env, String... apply) throws Exception {
        Map<String, String> fast = new TreeMap<>(env);
        fast.put(ClusterConnection.SIM_FAST_ENV, "1");
        ChildFlowform holder = ChildFlowform.start(work, fast, apply);
        int at = holder.awaitLine(0, l -> l.contains("[2/8] WAIT_FOR_ROLL"), Duration.ofSeconds(120));
        assertThat(at).as("%s%n%s", holder.out(), holder.err()).isNotNegative();
        holder.signal("STOP");
        return holder;
    }

    /** A second command, refused: its exit code, its output, and how long it ran. */
    private record Refused(int code, String output, Duration took) {
    }

    private static Refused refused(Path work, Map<String, String> env, String... args) throws InterruptedException {
        long start = System.nanoTime();
        try (ChildFlowform second = ChildFlowform.start(work, env, args)) {
            int code = second.waitFor(Duration.ofSeconds(120));
            return new Refused(code, second.out() + "\n" + second.err(), Duration.ofNanos(System.nanoTime() - start));
        }
    }

    /** Starts a command that waits for the lock, then ends it with SIGTERM, and with SIGINT where it can be sent. */
    private static void assertWaitEndsOnSignal(Path work, Map<String, String> env, String... args) throws Exception {
        for (String signal : List.of("TERM", "INT")) {
            try (ChildFlowform waiting = ChildFlowform.start(work, env, args)) {
                int at = waiting.awaitLine(0, l -> l.contains("Acquiring state lock"), Duration.ofSeconds(60));
                assertThat(at).as("%s%n%s", waiting.out(), waiting.err()).isNotNegative();
                try {
                    waiting.signal(signal);
                } catch (IllegalStateException ignoresSigint) {
                    continue; // started by a shell that makes its children ignore SIGINT: only SIGTERM can be sent
                }
                int code = waiting.waitFor(Duration.ofSeconds(10));

                assertThat(code).as("%s%n%s", waiting.out(), waiting.err()).isEqualTo("TERM".equals(signal) ? 143 : 130);
                assertThat(FaultSuiteTest.flat(waiting.err())).contains("Interrupted while waiting for the state lock",
                        "Nothing was changed");
            }
        }
    }

    private static String[] concat(String[] args, String... more) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }
}
