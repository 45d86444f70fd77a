package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import dev.flowform.state.StepStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Connect clusters are applied in parallel (steps of each still in order), a failure on one leaves
 * the other to finish, and an environment refuses a cluster other than the one it was applied to.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ParallelAndIdentityCliTest {

    @TempDir
    Path tmp;

    /** The quickstart seed twice: mm2-connect with flow dc1-to-dc2, west-connect with flow west-flow. */
    private Path twoClusterSeed() throws IOException {
        Path seed = tmp.resolve("seed");
        Files.createDirectories(seed);
        String one = Files.readString(Path.of("examples", "quickstart", "seed", "mm2-connect.yaml"));
        Files.writeString(seed.resolve("a.yaml"), one);
        Files.writeString(seed.resolve("b.yaml"), one.replace("mm2-connect", "west-connect").replace("dc1-to-dc2", "west-flow"));
        return seed;
    }

    private Path twoClusterConfig(EmbeddedCluster cluster) throws IOException {
        Path dir = tmp.resolve("conf");
        Files.createDirectories(dir);
        Path kubeconfig = cluster.writeKubeconfig(dir.resolve("kubeconfig.yaml"));
        Files.writeString(dir.resolve("main.flow.json"), """
                {
                  "environment": { "prod": { "kubernetes": { "kubeconfig": "%s" }, "namespace": "replication" } },
                  "connect_cluster": {
                    "mm2-connect": { "manage": "adopt" },
                    "west-connect": { "manage": "adopt" }
                  },
                  "replication_flow": {
                    "dc1-to-dc2": { "manage": "adopt", "connect_cluster": "mm2-connect",
                                    "source": { "alias": "dc1" }, "target": { "alias": "dc2" }, "exactly_once": true },
                    "west-flow": { "manage": "adopt", "connect_cluster": "west-connect",
                                   "source": { "alias": "dc1" }, "target": { "alias": "dc2" }, "exactly_once": true }
                  }
                }
                """.formatted(kubeconfig.toString().replace("\\", "\\\\")));
        return dir;
    }

    private static List<StepRecord> steps(Path stateDir) {
        try (StateStore state = StateStore.open(stateDir, "prod", Clock.systemUTC())) {
            return state.journal().steps(state.journal().runs().get(0).id());
        }
    }

    private static boolean overlap(List<StepRecord> steps, String a, String b) {
        StepRecord ra = steps.stream().filter(s -> s.address().equals(a) && s.kind().equals("WAIT_FOR_ROLL")).findFirst().orElseThrow();
        StepRecord rb = steps.stream().filter(s -> s.address().equals(b) && s.kind().equals("WAIT_FOR_ROLL")).findFirst().orElseThrow();
        return ra.startedAt().isBefore(rb.finishedAt()) && rb.startedAt().isBefore(ra.finishedAt());
    }

    @Test
    void clusters_roll_at_the_same_time_unless_parallelism_is_one() throws IOException {
        SimSettings slow = SimSettings.fast().withPodReadyDelay(java.time.Duration.ofMillis(200));
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(twoClusterSeed())
                .settings(slow).build())) {
            Path dir = twoClusterConfig(cluster);

            CliRunner.Result r = CliRunner.fast().run(CliFiles.args("apply", dir, tmp.resolve("state-parallel"), "--auto-approve"));

            assertThat(r.exitCode()).as("%s", r).isZero();
            List<StepRecord> steps = steps(tmp.resolve("state-parallel"));
            assertThat(steps).hasSize(16).allMatch(s -> s.status() == StepStatus.DONE);
            assertThat(overlap(steps, "connect_cluster.mm2-connect", "connect_cluster.west-connect")).isTrue();
            assertThat(steps.stream().filter(s -> s.address().contains("mm2-connect") || s.address().contains("dc1-to-dc2"))
                    .map(StepRecord::kind).toList()).as("each cluster's steps stay in order").containsExactly("SET_WORKER_EOS",
                    "WAIT_FOR_ROLL", "SET_WORKER_EOS", "WAIT_FOR_ROLL", "STOP_CONNECTOR", "WAIT_FOR_CONNECTOR_READY",
                    "UPDATE_CONNECTOR", "WAIT_FOR_CONNECTOR_READY");
        }
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(twoClusterSeed())
                .settings(slow).build())) {
            Path dir = twoClusterConfig(cluster);

            CliRunner.Result r = CliRunner.fast().run(CliFiles.args("apply", dir, tmp.resolve("state-serial"), "--auto-approve",
                    "--parallelism", "1"));

            assertThat(r.exitCode()).as("%s", r).isZero();
            assertThat(overlap(steps(tmp.resolve("state-serial")), "connect_cluster.mm2-connect", "connect_cluster.west-connect"))
                    .isFalse();
        }
    }

    @Test
    void a_failing_cluster_stops_only_its_own_chain() throws IOException {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(twoClusterSeed())
                .settings(SimSettings.fast()).build())) {
            Path dir = twoClusterConfig(cluster);
            cluster.faults().failNextReconcile("Invalid bootstrap servers: dc2-kafka-bootstrap.kafka-dc2.svc:9093");

            CliRunner.Result r = CliRunner.fast().run(CliFiles.args("apply", dir, tmp.resolve("state"), "--auto-approve"));

            assertThat(r.exitCode()).isEqualTo(1);
            String err = FaultSuiteTest.flat(r.err());
            assertThat(err).contains("Apply failed", "9 of 16 steps done, 1 failed, 6 not run", "Invalid bootstrap servers",
                    "Done:", "Failed:", "Not run:");
            List<StepRecord> steps = steps(tmp.resolve("state"));
            assertThat(steps).filteredOn(s -> s.status() == StepStatus.FAILED).singleElement()
                    .satisfies(s -> assertThat(s.kind()).isEqualTo("WAIT_FOR_ROLL"));
            String failedCluster = steps.stream().filter(s -> s.status() == StepStatus.FAILED).findFirst().orElseThrow().address();
            assertThat(steps).filteredOn(s -> !s.address().equals(failedCluster) && s.address().startsWith("connect_cluster"))
                    .hasSize(4).allMatch(s -> s.status() == StepStatus.DONE);
        }
    }

    @Test
    void an_environment_refuses_another_cluster_unless_expected_server_is_changed_on_purpose() throws IOException {
        try (EmbeddedCluster first = dev.flowform.testing.Sim.start("existing-v1beta2", tmp.resolve("a"), SimSettings.fast());
             EmbeddedCluster second = dev.flowform.testing.Sim.start("existing-v1beta2", tmp.resolve("b"), SimSettings.fast())) {
            Path stateDir = tmp.resolve("state");
            CliRunner cli = CliRunner.fast();
            Path dir = CliFiles.kubeconfigConfig(tmp.resolve("conf"), first, "");
            assertThat(cli.run(CliFiles.args("apply", dir, stateDir, "--auto-approve")).exitCode()).isZero();
            String firstUrl = first.url().substring(0, first.url().length() - 1);
            String secondUrl = second.url().substring(0, second.url().length() - 1);

            CliFiles.kubeconfigConfig(tmp.resolve("conf"), second, "");
            CliRunner.Result refused = cli.run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));
            CliRunner.Result plan = cli.run(CliFiles.args("plan", dir, stateDir));

            assertThat(refused.exitCode()).isEqualTo(1);
            assertThat(FaultSuiteTest.flat(refused.err())).contains("Cluster identity check failed", "was applied to " + firstUrl,
                    "now points at " + secondUrl, "\"expected_server\": \"" + secondUrl + "\"");
            assertThat(plan.exitCode()).isEqualTo(1);
            assertThat(plan.err()).contains("Cluster identity check failed");

            CliFiles.kubeconfigConfig(tmp.resolve("conf"), second, "\"expected_server\": \"" + firstUrl + "\"");
            CliRunner.Result mismatch = cli.run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));
            assertThat(mismatch.exitCode()).isEqualTo(1);
            assertThat(FaultSuiteTest.flat(mismatch.err())).contains("sets expected_server = \"" + firstUrl + "\"");

            CliFiles.kubeconfigConfig(tmp.resolve("conf"), second, "\"expected_server\": \"" + secondUrl + "/\"");
            CliRunner.Result moved = cli.run(CliFiles.args("apply", dir, stateDir, "--auto-approve"));
            assertThat(moved.exitCode()).as("%s", moved).isZero();
            try (StateStore state = StateStore.open(stateDir, "prod", Clock.systemUTC())) {
                assertThat(state.environment().kubeServer()).isEqualTo(secondUrl);
                assertThat(state.environment().kubeNamespace()).isEqualTo("replication");
            }
        }
    }
}
