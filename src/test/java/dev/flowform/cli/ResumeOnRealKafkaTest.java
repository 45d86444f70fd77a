package dev.flowform.cli;

import dev.flowform.run.ExactlyOnceProof;
import dev.flowform.run.ProveOperation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.connect.RealKafka;
import dev.flowform.sim.EmbeddedCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Resume on real Kafka: flowform's apply (a child JVM, through a kubeconfig, as against a real cluster) is
 * SIGKILLed while it waits for the second roll, the one to {@code enabled}; the next apply converges, and the
 * flow is exactly-once: a worker crash during transactional writes leaves every committed record on the target
 * once and no aborted one.
 */
@Tag("kafka")
class ResumeOnRealKafkaTest {
    private static final Duration CHILD_LIMIT = Duration.ofMinutes(4);

    @TempDir
    Path work;

    @Test
    void apply_killed_during_the_second_roll_resumes_and_the_flow_is_exactly_once() throws Exception {
        try (RealKafkaExample ex = RealKafkaExample.start(work)) {
            Path config = kubeconfigConfiguration(ex.cluster);
            Path state = work.resolve("state");
            try (ChildFlowform child = ChildFlowform.start(work, Map.of(), "apply", "--dir", config.toString(),
                    "--state-dir", state.toString(), "-e", "real", "--auto-approve", "--no-color")) {
                int first = child.awaitLine(0, l -> l.contains("WAIT_FOR_ROLL"), CHILD_LIMIT);
                assertThat(first).as("first roll in:%n%s%n%s", child.out(), child.err()).isNotNegative();
                int second = child.awaitLine(first + 1, l -> l.contains("WAIT_FOR_ROLL"), CHILD_LIMIT);
                assertThat(second).as("second roll in:%n%s%n%s", child.out(), child.err()).isNotNegative();
                int rolled = child.awaitLine(second, l -> l.contains("1/3 workers on the new revision"), CHILD_LIMIT);
                assertThat(rolled).as("progress of the second roll in:%n%s%n%s", child.out(), child.err()).isNotNegative();
                child.kill();
                System.out.println("killed the apply during the second roll; its output:\n" + child.out());
            }
            CliRunner runner = new CliRunner(CliRunner.unattended());
            CliRunner.Result resumed = runner.run("apply", "--dir", config.toString(), "--state-dir", state.toString(),
                    "-e", "real", "--auto-approve", "--no-color");
            System.out.println(resumed.out());
            assertThat(resumed.exitCode()).as("%s", resumed).isZero();
            CliRunner.Result again = runner.run("plan", "--dir", config.toString(), "--state-dir", state.toString(),
                    "-e", "real", "--no-color", "--detailed-exitcode");
            assertThat(again.exitCode()).as("%s", again).isZero();
            assertThat(again.out()).contains("No changes.");

            RealKafka kafka = ex.kafka;
            AtomicReference<String> killed = new AtomicReference<>();
            RealKafka.Produced p = kafka.write("dc1", "orders", "r1", 50, 50, 5, tx -> {
                if (tx == ExactlyOnceProof.KILL_AFTER) {
                    String pod = kafka.podOfTask(RealKafkaExample.NS + "/mm2-connect", "dc1-to-dc2-source", 0);
                    ProveOperation.crash(ex.cluster, pod);
                    killed.set(pod);
                }
            });
            RealKafka.Counted t = kafka.count("dc2", "dc1.orders", "r1", p.committed(), true, Duration.ofMinutes(2));
            System.out.printf("after resume, worker %s killed: produced %d committed + %d aborted; target %d records, "
                    + "%d distinct committed, %d aborted, %d duplicates%n", killed.get(), p.committed(), p.aborted(),
                    t.records(), t.committed(), t.aborted(), t.duplicates());
            assertThat(killed.get()).isNotNull();
            assertThat(p.committed()).isEqualTo(2000);
            assertThat(t.committed()).isEqualTo(2000);
            assertThat(t.duplicates()).isZero();
            assertThat(t.aborted()).isZero();
            assertThat(t.records()).isEqualTo(2000);
        }
    }

    /** The example's configuration with its environment on a kubeconfig of the running embedded cluster. */
    private Path kubeconfigConfiguration(EmbeddedCluster cluster) throws Exception {
        Path dir = Files.createDirectories(work.resolve("config"));
        Path kubeconfig = cluster.writeKubeconfig(work.resolve("kubeconfig.yaml"));
        JsonMapper json = JsonMapper.builder().build();
        ObjectNode root = (ObjectNode) json.readTree(RealKafkaExample.DIR.resolve("main.flow.json").toFile());
        ObjectNode env = (ObjectNode) root.path("environment").path("real");
        ObjectNode k = json.createObjectNode();
        k.put("kubeconfig", kubeconfig.toString());
        k.put("context", EmbeddedCluster.CONTEXT);
        env.set("kubernetes", k);
        Files.writeString(dir.resolve("main.flow.json"), json.writerWithDefaultPrettyPrinter().writeValueAsString(root));
        return dir;
    }
}
