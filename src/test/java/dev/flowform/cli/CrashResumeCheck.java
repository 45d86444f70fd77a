package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.plan.Json;
import dev.flowform.state.RunOutcome;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import dev.flowform.state.StepStatus;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * What {@link CrashResumeTest} (a real {@code kill -9}) and {@link CrashResumeInProcessTest} (a crash injected
 * through the journal) both check after the quickstart apply died: what the crash left in the state, then that
 * a fresh apply converges, a final plan is empty, and the journal shows exactly one completed execution of each
 * of the eight steps.
 */
final class CrashResumeCheck {

    /**
     * The eight steps of the quickstart, by kind, address and target EOS mode or connector state: each must be done
     * exactly once.
     */
    static final List<String> STEPS = List.of(
            "SET_WORKER_EOS connect_cluster.mm2-connect preparing",
            "WAIT_FOR_ROLL connect_cluster.mm2-connect preparing",
            "SET_WORKER_EOS connect_cluster.mm2-connect enabled",
            "WAIT_FOR_ROLL connect_cluster.mm2-connect enabled",
            "STOP_CONNECTOR kafka_connector.dc1-to-dc2-source",
            "WAIT_FOR_CONNECTOR_READY kafka_connector.dc1-to-dc2-source STOPPED",
            "UPDATE_CONNECTOR kafka_connector.dc1-to-dc2-source",
            "WAIT_FOR_CONNECTOR_READY kafka_connector.dc1-to-dc2-source RUNNING");

    /**
     * What the crash left in the state.
     *
     * @param lockLeft the state lock is still held
     * @param runOpen  the crashed run is still marked running
     */
    record Left(boolean lockLeft, boolean runOpen) {
    }

    private CrashResumeCheck() {
    }

    /** @return whether the crashed apply left the state lock held and its run open */
    static Left left(Path stateDir) {
        try (StateStore state = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            return new Left(state.lockTable().current().isPresent(), state.journal().runs().get(0).outcome() == RunOutcome.RUNNING);
        }
    }

    /**
     * Resumes with a fresh in-process apply and checks it converged with each step done exactly once.
     *
     * @param name     the crash point, for messages
     * @param lastLine the crashed apply's last progress line, for messages
     * @param left     what the crash left (see {@link #left})
     */
    static void resumeConverges(Path dir, Path stateDir, String name, String lastLine, Left left) {
        CliRunner cli = CliRunner.fast();
        CliRunner.Result resumed = cli.run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));
        assertThat(resumed.exitCode()).as("crash %s (last line before the crash: %s)%n%s", name, lastLine, resumed).isZero();
        assertThat(resumed.out()).contains("Apply complete!");
        if (left.lockLeft()) {
            assertThat(resumed.out()).contains("Released the state lock", "which no longer runs");
        }
        if (left.runOpen()) {
            assertThat(resumed.out()).contains("Apply interrupted");
        }

        CliRunner.Result plan = cli.run(CliFiles.args("plan", dir, stateDir, "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isZero();
        assertThat(plan.out()).contains("No changes.");

        try (StateStore state = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            List<RunRecord> runs = state.journal().runs();
            assertThat(runs.get(runs.size() - 1).outcome()).as("the crashed run")
                    .isEqualTo(left.runOpen() ? RunOutcome.INTERRUPTED : RunOutcome.SUCCEEDED);
            assertThat(runs).allMatch(r -> r.outcome() != RunOutcome.RUNNING);
            assertThat(state.lockTable().current()).isEmpty();
            Map<String, Integer> done = new TreeMap<>();
            List<String> rows = new ArrayList<>();
            for (RunRecord r : runs) {
                for (StepRecord s : state.journal().steps(r.id())) {
                    rows.add("run " + r.id() + " " + key(s) + " " + s.status());
                    if (s.status() == StepStatus.DONE) {
                        done.merge(key(s), 1, Integer::sum);
                    }
                }
            }
            assertThat(done).as("DONE rows per step after crash %s; journal:%n%s", name, String.join("\n", rows))
                    .containsOnlyKeys(STEPS).allSatisfy((k, n) -> assertThat(n).as(k).isEqualTo(1));
        }
    }

    /** @return kind, address and the EOS mode or connector state the step sets or waits for, from its journaled intent */
    private static String key(StepRecord s) {
        JsonNode payload = Json.MAPPER.readTree(s.intentJson()).path("payload");
        String mode = payload.has("mode") ? payload.path("mode").asString()
                : payload.has("expected_mode") ? payload.path("expected_mode").asString()
                : payload.has("expected_state") ? payload.path("expected_state").asString() : "";
        return (s.kind() + " " + s.address() + " " + mode).strip();
    }
}
