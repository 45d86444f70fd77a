package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.live.Fabric8ClusterReader;
import dev.flowform.locking.Sleeper;
import dev.flowform.model.DesiredState;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanRequest;
import dev.flowform.plan.Planner;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.StateRef;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Sim;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rule 3 against the simulated operator: a source connector with exactly.once.support=required is
 * rejected until every worker runs with enabled. flowform's order never hits it; a shortcut does.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ApplyOrderTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private static DesiredState desired() {
        return Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)), List.of(Configs.adoptedFlow(true)));
    }

    private static Plan plan(LiveState live) {
        return Planner.plan(desired(), live, new PlanRequest("test", new StateRef("l", 0), Instant.EPOCH));
    }

    private static Applier applier(EmbeddedCluster cluster) {
        return new Applier(new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM),
                new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofSeconds(10)),
                Journal.NONE, new RecordingListener(), Clock.systemUTC(), TIMEOUT);
    }

    @Test
    void connector_update_before_the_second_roll_leaves_the_connector_failed() {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            Plan good = plan(new Fabric8ClusterReader(cluster.client()).read(Set.of(Configs.NS)));
            assertThat(good.steps()).extracting(Step::kind).startsWith(StepKind.SET_WORKER_EOS, StepKind.WAIT_FOR_ROLL,
                    StepKind.SET_WORKER_EOS, StepKind.WAIT_FOR_ROLL, StepKind.STOP_CONNECTOR,
                    StepKind.WAIT_FOR_CONNECTOR_READY, StepKind.UPDATE_CONNECTOR);
            // The shortcut people take by hand: preparing, wait, then patch the connector straight away.
            List<Step> shortcut = new ArrayList<>();
            for (Step s : List.of(good.steps().get(0), good.steps().get(1), good.steps().get(6), good.steps().get(7))) {
                int id = shortcut.size() + 1;
                shortcut.add(new Step(id, s.kind(), s.address(), s.object(), id == 1 ? List.of() : List.of(id - 1),
                        s.payload(), s.summary()));
            }
            Plan wrong = new Plan(good.formatVersion(), good.environment(), good.createdAt(), good.basedOn(),
                    good.liveFingerprints(), good.changes(), shortcut, good.diagnostics());

            ApplyResult result = applier(cluster).apply(wrong);

            assertThat(result.succeeded()).isFalse();
            StepResult last = result.results().get(3);
            assertThat(last.step().kind()).isEqualTo(StepKind.WAIT_FOR_CONNECTOR_READY);
            assertThat(last.outcome()).isEqualTo(StepResult.Outcome.FAILED);
            assertThat(last.detail()).contains("This worker does not have exactly-once source support enabled.");
            LiveConnector source = new Fabric8ClusterReader(cluster.client()).read(Set.of(Configs.NS))
                    .connector(Configs.NS, "dc1-to-dc2-source").orElseThrow();
            assertThat(source.connectorState()).isEqualTo("FAILED");
            assertThat(source.connectorTrace()).contains("This worker does not have exactly-once source support enabled.");
        }
    }

    @Test
    void flowforms_order_converges_and_a_second_plan_is_empty() {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast())) {
            Fabric8ClusterReader reader = new Fabric8ClusterReader(cluster.client());
            RecordingListener listener = new RecordingListener();
            Applier applier = new Applier(new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM),
                    new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofSeconds(10)),
                    Journal.NONE, listener, Clock.systemUTC(), TIMEOUT);

            ApplyResult result = applier.apply(plan(reader.read(Set.of(Configs.NS))));

            assertThat(result.succeeded()).as("%s", result.results()).isTrue();
            LiveState after = reader.read(Set.of(Configs.NS));
            LiveConnector source = after.connector(Configs.NS, "dc1-to-dc2-source").orElseThrow();
            assertThat(source.connectorState()).isEqualTo("RUNNING");
            assertThat(source.tasks()).allMatch(t -> t.state().equals("RUNNING"));
            assertThat(source.config()).containsEntry("exactly.once.support", "required")
                    .containsEntry("source.consumer.isolation.level", "read_committed");
            assertThat(after.connector(Configs.NS, "dc1-to-dc2-checkpoint").orElseThrow().config())
                    .doesNotContainKey("exactly.once.support");
            assertThat(plan(after).hasChanges()).isFalse();
            assertThat(listener.progress).anyMatch(r -> r instanceof Readiness.InProgress);
        }
    }

    /** Keeps what the applier reported. */
    static final class RecordingListener implements ApplyListener {
        final List<Readiness> progress = new ArrayList<>();

        @Override
        public void stepStarted(Step step, int index, int total) {
        }

        @Override
        public synchronized void stepProgress(Step step, int index, int total, Readiness state, Duration elapsed) {
            progress.add(state);
        }

        @Override
        public void stepDone(Step step, int index, int total, String detail, Duration took) {
        }

        @Override
        public void stepFailed(Step step, int index, int total, String detail, Duration took) {
        }

        @Override
        public void stepSkipped(Step step, int index, int total, String reason) {
        }
    }
}
