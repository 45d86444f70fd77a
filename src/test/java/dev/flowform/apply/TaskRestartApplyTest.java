package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.live.Fabric8ClusterReader;
import dev.flowform.locking.Sleeper;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanRequest;
import dev.flowform.plan.Planner;
import dev.flowform.plan.StateRef;
import dev.flowform.plan.StepKind;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Sim;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FAILED task of a KafkaConnector that the plan does not change is restarted through the simulated operator: the
 * plan annotates the connector {@code strimzi.io/restart-task}, the operator restarts the task and removes the
 * annotation, and the next plan has nothing to do.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class TaskRestartApplyTest {

    private static final String SOURCE = "dc1-to-dc2-source";
    private static final String CLUSTER = "mm2-connect";

    @TempDir
    Path tmp;

    private final SimulatedConnectRuntime runtime = new SimulatedConnectRuntime();

    private static DesiredState desired() {
        return Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)), List.of(Configs.adoptedFlow(false)));
    }

    private static Plan plan(LiveState live) {
        return Planner.plan(desired(), live, new PlanRequest("test", new StateRef("l", 0), Instant.EPOCH));
    }

    private static LiveConnector source(EmbeddedCluster cluster) {
        return new Fabric8ClusterReader(cluster.client()).read(Set.of(Configs.NS)).connector(Configs.NS, SOURCE)
                .orElseThrow();
    }

    @Test
    void a_failed_task_is_restarted_by_the_planned_annotation_which_the_operator_removes() {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast(), () -> runtime)) {
            Fabric8ClusterReader reader = new Fabric8ClusterReader(cluster.client());
            assertThat(plan(reader.read(Set.of(Configs.NS))).hasChanges()).as("the seed matches the configuration").isFalse();
            runtime.failTask(Configs.NS + "/" + CLUSTER, SOURCE, 0, "org.apache.kafka.connect.errors.ConnectException: boom");
            cluster.simulator().triggerReconcile(Configs.NS, CLUSTER);
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(source(cluster).tasks())
                    .extracting(TaskStatus::state).contains("FAILED"));

            Plan plan = plan(reader.read(Set.of(Configs.NS)));
            assertThat(plan.steps()).extracting(s -> s.kind()).containsExactly(StepKind.ANNOTATE);
            ApplyResult r = new Applier(new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM),
                    new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofSeconds(10)),
                    Journal.NONE, new ApplyOrderTest.RecordingListener(), Clock.systemUTC(), Duration.ofSeconds(30))
                    .apply(plan);
            assertThat(r.succeeded()).as("%s", r.results()).isTrue();

            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                LiveConnector now = source(cluster);
                assertThat(now.annotations()).doesNotContainKey(Strimzi.RESTART_TASK_ANNOTATION);
                assertThat(now.tasks()).isNotEmpty().extracting(TaskStatus::state).containsOnly("RUNNING");
            });
            assertThat(plan(reader.read(Set.of(Configs.NS))).hasChanges()).isFalse();
        }
    }
}
