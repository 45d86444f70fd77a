package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.plan.rules.StopBeforeChange;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rule 8b for a KafkaMirrorMaker2, through the CLI on {@code examples/mirrormaker2}: the plan stops the mirror's source
 * connector ({@code sourceConnector.state: stopped}) before it changes its exactly-once keys, in both directions, and
 * the simulated Kafka Connect behind the pods never receives such a change for a connector that is not stopped.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class MirrorMakerStopBeforeChangeTest {

    @TempDir
    Path tmp;

    @Test
    void exactly_once_on_and_off_reach_the_source_connector_only_while_it_is_stopped() {
        Path dir = CliFiles.copy(Path.of("examples", "mirrormaker2"), tmp.resolve("mirrormaker2"));
        SimulatedConnectRuntime runtime = new SimulatedConnectRuntime();
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(dir.resolve("seed"))
                .settings(SimSettings.fast()).connectRuntime(() -> runtime).build())) {
            CliRunner cli = new CliRunner(CliRunner.unattended().withAttachedCluster(cluster));
            String[] common = {"--dir", dir.toString(), "--state-dir", tmp.resolve("state").toString(), "--no-color"};

            CliRunner.Result on = cli.run(args("apply", common, "--auto-approve"));
            assertThat(on.exitCode()).as("%s", on).isZero();
            assertThat(on.out()).containsSubsequence("STOP_CONNECTOR", "sourceConnector.state: stopped",
                    "WAIT_FOR_CONNECTOR_READY", "is STOPPED and none of its tasks runs",
                    "UPDATE_CONNECTOR", "then start its source connector (state running)",
                    "WAIT_FOR_CONNECTOR_READY", "Apply complete!");
            assertThat(mirror(cluster)).satisfies(m -> {
                assertThat(m.get("sourceConnector")).asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                        .containsEntry("state", "running");
            });
            assertThat(annotations(cluster)).doesNotContainKey(StopBeforeChange.mirrorAnnotation("dc1"));

            CliRunner.Result off = cli.run(args("apply", common, "--auto-approve", "-var", "exactly_once=false"));
            assertThat(off.exitCode()).as("%s", off).isZero();
            assertThat(off.out()).containsSubsequence("STOP_CONNECTOR", "UPDATE_CONNECTOR", "remove exactly.once.support",
                    "SET_WORKER_EOS", "exactly.once.source.support = disabled", "Apply complete!");

            assertThat(runtime.reconfiguredWhileRunning()).as("exactly-once keys changed on a running connector").isEmpty();
            CliRunner.Result again = cli.run(args("plan", common, "--detailed-exitcode", "-var", "exactly_once=false"));
            assertThat(again.exitCode()).as("%s", again).isZero();
        }
    }

    private static String[] args(String command, String[] common, String... more) {
        List<String> all = new java.util.ArrayList<>(List.of(command));
        all.addAll(List.of(common));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    private static GenericKubernetesResource mm2(EmbeddedCluster cluster) {
        return cluster.client().genericKubernetesResources("kafka.strimzi.io/v1beta2", "KafkaMirrorMaker2")
                .inNamespace("mirror").withName("mm2").get();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mirror(EmbeddedCluster cluster) {
        Map<String, Object> spec = (Map<String, Object>) mm2(cluster).getAdditionalProperties().get("spec");
        return (Map<String, Object>) ((List<Object>) spec.get("mirrors")).get(0);
    }

    private static Map<String, String> annotations(EmbeddedCluster cluster) {
        Map<String, String> a = mm2(cluster).getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }
}
