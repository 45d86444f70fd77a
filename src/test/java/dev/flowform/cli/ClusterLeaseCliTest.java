package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.apply.ClusterLease;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.state.LockInfo;
import dev.flowform.state.StateStore;
import dev.flowform.testing.Sim;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
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
 * The cluster lease across processes: two applies of one Connect cluster from two different state folders,
 * each in its own JVM, against one API server (the embedded cluster of this test JVM, reached through a
 * kubeconfig). Exactly one rolls; the other fails at once naming the holder, or waits with
 * {@code --lock-timeout} and then finds nothing left to do; after a {@code kill -9} of the holder, the next
 * apply takes the lease over once it expired, and says so.
 *
 * <p>The simulated operator stands still until the other JVMs have met the first apply in its roll, so the
 * test does not depend on how fast they start; the rolls then run at the fast timings.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ClusterLeaseCliTest {

    private static final String NAMESPACE = "replication";
    private static final String LEASE = ClusterLease.NAME_PREFIX + "mm2-connect";

    @TempDir
    Path tmp;

    /**
     * An embedded cluster whose simulated operator is stopped once the seed has settled, so the first apply stays
     * in its first roll, holding the lease, for as long as the other JVMs take to start, however loaded the machine;
     * {@link #letTheOperatorRun} starts it again, and the rolls then go at the fast timings.
     */
    private EmbeddedCluster clusterWithTheOperatorStopped() {
        EmbeddedCluster cluster = Sim.start("existing-v1", tmp, SimSettings.fast());
        assertThat(cluster.simulator().awaitIdle(Duration.ofSeconds(60))).as("the seed settled").isTrue();
        cluster.faults().pauseOperator(true);
        return cluster;
    }

    /** Starts the operator again: it reconciles every KafkaConnect, as Strimzi does at start-up. */
    private static void letTheOperatorRun(EmbeddedCluster cluster) {
        cluster.faults().pauseOperator(false);
    }

    @Test
    void a_second_apply_from_another_state_fails_naming_the_holder_or_waits_with_lock_timeout() throws Exception {
        try (EmbeddedCluster cluster = clusterWithTheOperatorStopped()) {
            Path dirA = CliFiles.kubeconfigConfig(tmp.resolve("a"), cluster, "");
            Path dirB = CliFiles.kubeconfigConfig(tmp.resolve("b"), cluster, "");
            Path stateA = tmp.resolve("a/state");
            Path stateB = tmp.resolve("b/state");
            Path dirC = CliFiles.kubeconfigConfig(tmp.resolve("c"), cluster, "");
            Path stateC = tmp.resolve("c/state");
            try (ChildFlowform first = ChildFlowform.start(dirA, Map.of(), CliFiles.args("apply", dirA, stateA,
                    "--auto-approve"))) {
                assertThat(first.awaitLine(0, l -> l.contains("WAIT_FOR_ROLL"), Duration.ofSeconds(120)))
                        .as("%s%n%s", first.out(), first.err()).isNotNegative();
                String holder;
                try (StateStore a = StateStore.open(stateA, "prod", Clock.systemUTC())) {
                    holder = a.lockTable().current().map(LockInfo::id).orElseThrow();
                }
                Lease held = cluster.client().leases().inNamespace(NAMESPACE).withName(LEASE).get();
                assertThat(held.getSpec().getHolderIdentity()).isEqualTo(holder);
                assertThat(held.getSpec().getLeaseDurationSeconds()).isEqualTo(30);

                // both start while the first rolls: one fails at once, one waits (a third state folder, so the
                // two do not meet on a state lock). The first apply's ownership marks would refuse them already:
                // they take the objects over explicitly, so that only the lease stands between them and the roll.
                ChildFlowform second = ChildFlowform.start(dirB, Map.of(), CliFiles.args("apply", dirB, stateB,
                        "--auto-approve", "--transfer-ownership", "connect_cluster.mm2-connect",
                        "--transfer-ownership", "replication_flow.dc1-to-dc2"));
                ChildFlowform waiter = ChildFlowform.start(dirC, Map.of(), CliFiles.args("apply", dirC, stateC,
                        "--auto-approve", "--lock-timeout", "120s", "--transfer-ownership", "connect_cluster.mm2-connect",
                        "--transfer-ownership", "replication_flow.dc1-to-dc2"));
                try (second; waiter) {
                    int refused = second.waitFor(Duration.ofSeconds(120));
                    String refusedErr = second.err();
                    assertThat(refused).as("%s%n%s", second.out(), refusedErr).isEqualTo(1);
                    assertThat(FaultSuiteTest.flat(refusedErr)).contains("Error acquiring the cluster lease",
                            "Connect cluster replication/mm2-connect is being applied by another flowform",
                            "Lease replication/" + LEASE + " is held", "ID: " + holder, "Who: ", "Operation: apply",
                            "Environment: prod", "Lineage: ", "Since: ", "ago)", "--lock-timeout");
                    assertThat(second.out()).as("the second apply changed nothing").doesNotContain("[1/");

                    assertThat(waiter.awaitLine(0, l -> l.contains("Acquiring the lease of Connect cluster"),
                            Duration.ofSeconds(120))).as("%s%n%s", waiter.out(), waiter.err()).isNotNegative();
                    // both met the first apply in its roll: let the roll finish
                    letTheOperatorRun(cluster);
                    assertThat(first.waitFor(Duration.ofSeconds(120))).as("%s%n%s", first.out(), first.err()).isZero();
                    assertThat(first.out()).contains("Apply complete!");
                    int waited = waiter.waitFor(Duration.ofSeconds(120));
                    String all = waiter.out() + "\n" + waiter.err();
                    assertThat(waited).as(all).isZero();
                    assertThat(FaultSuiteTest.flat(all)).contains("Acquiring the lease of Connect cluster replication/mm2-connect "
                            + "(held by " + holder, "The cluster changed since it was read; planning again", "Apply complete!");
                    assertThat(waiter.out()).as("the first apply did all the work").doesNotContain("WAIT_FOR_ROLL");
                }
            }
            Lease after = cluster.client().leases().inNamespace(NAMESPACE).withName(LEASE).get();
            assertThat(after.getSpec().getHolderIdentity()).as("released at the end").isNull();
        }
    }

    @Test
    void after_kill_9_of_the_holder_the_next_apply_takes_the_expired_lease_over_with_a_note() throws Exception {
        Map<String, String> shortLease = Map.of(ClusterLease.DURATION_ENV, "3");
        try (EmbeddedCluster cluster = clusterWithTheOperatorStopped()) {
            Path dirA = CliFiles.kubeconfigConfig(tmp.resolve("a"), cluster, "");
            Path dirB = CliFiles.kubeconfigConfig(tmp.resolve("b"), cluster, "");
            Path stateA = tmp.resolve("a/state");
            Path stateB = tmp.resolve("b/state");
            String holder;
            try (ChildFlowform victim = ChildFlowform.start(dirA, shortLease, CliFiles.args("apply", dirA, stateA,
                    "--auto-approve"))) {
                assertThat(victim.awaitLine(0, l -> l.contains("WAIT_FOR_ROLL"), Duration.ofSeconds(120)))
                        .as("%s%n%s", victim.out(), victim.err()).isNotNegative();
                Lease held = cluster.client().leases().inNamespace(NAMESPACE).withName(LEASE).get();
                holder = held.getSpec().getHolderIdentity();
                assertThat(held.getSpec().getLeaseDurationSeconds()).isEqualTo(3);
                victim.kill();
            }
            letTheOperatorRun(cluster);
            assertThat(cluster.client().leases().inNamespace(NAMESPACE).withName(LEASE).get().getSpec().getHolderIdentity())
                    .as("a killed holder cannot release").isEqualTo(holder);

            try (ChildFlowform next = ChildFlowform.start(dirB, shortLease, CliFiles.args("apply", dirB, stateB,
                    "--auto-approve", "--lock-timeout", "60s", "--transfer-ownership", "connect_cluster.mm2-connect",
                    "--transfer-ownership", "replication_flow.dc1-to-dc2"))) {
                int code = next.waitFor(Duration.ofSeconds(180));
                String all = next.out() + "\n" + next.err();
                assertThat(code).as(all).isZero();
                assertThat(FaultSuiteTest.flat(all)).contains("Took over the lease replication/" + LEASE
                        + " of Connect cluster replication/mm2-connect from " + holder, "stopped renewing it", "Apply complete!");
            }
            Lease after = cluster.client().leases().inNamespace(NAMESPACE).withName(LEASE).get();
            assertThat(after.getSpec().getHolderIdentity()).isNull();
            assertThat(after.getSpec().getLeaseTransitions()).isEqualTo(1);
        }
    }
}
