package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.LockInfo;
import dev.flowform.state.StateStore;
import dev.flowform.testing.Sim;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.io.StringWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Locking through the CLI, in-process: a held lock refuses apply at once with the holder's LockInfo,
 * or is waited for with --lock-timeout; a stale lock is reported with the command that releases it;
 * force-unlock needs the right ID; environments never share a lock.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class LockingCliTest {

    @TempDir
    Path tmp;

    @Test
    void a_held_lock_refuses_apply_at_once_naming_the_holder_and_its_age() {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = tmp.resolve("state");
        try (StateStore other = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            LockInfo held = other.lockTable().lock("apply", "alice@build-7", "0.9.0");

            CliRunner.Result r = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));

            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("Error acquiring the state lock", "ID:        " + held.id(), "Who:       alice@build-7",
                    "Operation: apply", "Version:   0.9.0", "ago)", "--lock-timeout");
            assertThat(other.lockTable().current()).contains(held);
            assertThat(other.journal().runs()).isEmpty();
        }
    }

    @Test
    void plan_says_when_an_apply_is_running_elsewhere_instead_of_resuming_it() {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = tmp.resolve("state");
        try (StateStore other = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            LockInfo held = other.lockTable().lock("apply", "alice@build-7", "0.9.0");
            Step wait = new Step(1, StepKind.WAIT_FOR_ROLL, "connect_cluster.mm2-connect",
                    new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", "replication", "mm2-connect"), List.of(),
                    new StepPayload.WaitForRoll(EosMode.PREPARING, 5L), "wait");
            String planJson = PlanCodec.toJson(new Plan(Plan.FORMAT_VERSION, "demo", Instant.EPOCH, null, Map.of(), List.of(),
                    List.of(wait), List.of()), "0.9.0", other.cipher()::hash);
            long run = other.journal().startRun("apply", planJson, "alice@build-7", "0.9.0");
            other.journal().intent(run, 1, 1, "WAIT_FOR_ROLL", "connect_cluster.mm2-connect", "{}");

            CliRunner.Result r = CliRunner.fast().run(CliFiles.args("plan", dir, stateDir));

            assertThat(r.exitCode()).as("%s", r).isZero();
            assertThat(FaultSuiteTest.flat(r.out())).contains("An apply is in progress", "lock ID " + held.id(),
                    "step 1 of 1: WAIT_FOR_ROLL connect_cluster.mm2-connect").doesNotContain("Apply interrupted");
        }
    }

    @Test
    void lock_timeout_waits_with_backoff_until_the_holder_releases() throws Exception {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = tmp.resolve("state");
        try (StateStore other = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            LockInfo held = other.lockTable().lock("apply", "alice@build-7", "0.9.0");
            StringWriter out = new StringWriter();
            CompletableFuture<CliRunner.Result> apply = CompletableFuture.supplyAsync(() -> CliRunner.fast().run(out,
                    new StringWriter(), CliFiles.args("apply", dir, stateDir, "--auto-approve", "--lock-timeout", "60s")));
            await().atMost(Duration.ofSeconds(60)).until(() -> out.toString().contains("Acquiring state lock"));
            assertThat(apply).isNotDone();
            other.lockTable().unlock(held.id());

            CliRunner.Result r = apply.get(60, TimeUnit.SECONDS);

            assertThat(r.exitCode()).as("%s", r).isZero();
            assertThat(r.out()).contains("Acquiring state lock. This may take a few moments...", "Apply complete!");
            assertThat(other.lockTable().current()).isEmpty();
        }
    }

    @Test
    void lock_timeout_gives_up_saying_how_long_it_waited() {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = tmp.resolve("state");
        try (StateStore other = StateStore.open(stateDir, "demo", Clock.systemUTC())) {
            other.lockTable().lock("apply", "alice@build-7", "0.9.0");

            CliRunner.Result r = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, "--auto-approve", "--lock-timeout", "2s"));

            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("(waited 2s)", "alice@build-7");
        }
    }

    @Test
    void a_stale_lock_is_reported_with_the_command_that_releases_it_and_force_unlock_needs_the_right_id() {
        Path dir = CliFiles.quickstart(tmp.resolve("qs"));
        Path stateDir = tmp.resolve("state");
        LockInfo held;
        try (StateStore old = StateStore.open(stateDir, "demo", Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-10)))) {
            held = old.lockTable().lock("apply", "alice@build-7", "0.9.0");
        }
        CliRunner cli = CliRunner.fast();

        CliRunner.Result r = cli.run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(FaultSuiteTest.flat(r.err())).contains("probably stale", "flowform force-unlock " + held.id());

        CliRunner.Result wrong = cli.run(CliFiles.args("force-unlock", dir, stateDir, "--force", "00000000-0000-0000-0000-000000000000"));
        assertThat(wrong.exitCode()).isEqualTo(1);
        assertThat(wrong.err()).contains("does not match");
        CliRunner.Result noForce = cli.run(CliFiles.args("force-unlock", dir, stateDir, held.id()));
        assertThat(noForce.exitCode()).as("no terminal to confirm on").isEqualTo(1);
        assertThat(noForce.err()).contains("--force");
        CliRunner.Result declined = CliRunner.fast("no").run(CliFiles.args("force-unlock", dir, stateDir, held.id()));
        assertThat(declined.exitCode()).isEqualTo(1);
        assertThat(declined.out()).contains("alice@build-7");

        CliRunner.Result right = CliRunner.fast("yes").run(CliFiles.args("force-unlock", dir, stateDir, held.id()));
        assertThat(right.exitCode()).as("%s", right).isZero();
        assertThat(right.out()).contains("successfully unlocked");
        CliRunner.Result again = cli.run(CliFiles.args("force-unlock", dir, stateDir, "--force", held.id()));
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("is not locked");
        assertThat(cli.run(CliFiles.args("apply", dir, stateDir, "--auto-approve")).exitCode()).isZero();
    }

    @Test
    void environments_never_share_a_lock_or_a_state() throws IOException {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            Path dir = CliFiles.kubeconfigConfig(tmp.resolve("conf"), cluster, "");
            String text = Files.readString(dir.resolve("main.flow.json"));
            Files.writeString(dir.resolve("main.flow.json"), text.replace("\"prod\": {", "\"staging\": { \"namespace\": \"replication\","
                    + " \"kubernetes\": { \"embedded\": { \"seed\": \"" + tmp.resolve("seed-existing-v1beta2").toString()
                    .replace("\\", "\\\\") + "\" } } },\n    \"prod\": {"));
            Path stateDir = tmp.resolve("state");
            try (StateStore prod = StateStore.open(stateDir, "prod", Clock.systemUTC())) {
                prod.lockTable().lock("apply", "alice@build-7", "0.9.0");

                CliRunner.Result r = CliRunner.fast().run(CliFiles.args("apply", dir, stateDir, "-e", "staging", "--auto-approve"));

                assertThat(r.exitCode()).as("%s", r).isZero();
                try (StateStore staging = StateStore.open(stateDir, "staging", Clock.systemUTC())) {
                    assertThat(staging.environment().lineage()).isNotEqualTo(prod.environment().lineage());
                    assertThat(staging.journal().runs()).hasSize(1);
                    assertThat(prod.journal().runs()).isEmpty();
                    assertThat(prod.lockTable().current()).isPresent();
                    assertThat(staging.lockTable().current()).isEmpty();
                }
            }
        }
    }
}
