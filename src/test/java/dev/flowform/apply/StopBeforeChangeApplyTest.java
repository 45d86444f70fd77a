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
import dev.flowform.plan.StateRef;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.rules.StopBeforeChange;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
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
 * Rule 8b on the embedded cluster: a change of the source connector's exactly-once keys reaches Kafka Connect only
 * while the connector is stopped, so no task of the old configuration runs once apply reports it done. The simulated
 * Connect runtime records every accepted configuration that changed such a key of a connector that was not stopped
 * ({@link SimulatedConnectRuntime#reconfiguredWhileRunning()}); the plan without its stop shows that the record sees
 * what it should.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class StopBeforeChangeApplyTest {

    private static final String SOURCE = "dc1-to-dc2-source";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private final SimulatedConnectRuntime runtime = new SimulatedConnectRuntime();

    private static DesiredState desired(boolean exactlyOnce) {
        return Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, null)), List.of(Configs.adoptedFlow(exactlyOnce)));
    }

    private static Plan plan(DesiredState desired, LiveState live) {
        return Planner.plan(desired, live, new PlanRequest("test", new StateRef("l", 0), Instant.EPOCH));
    }

    private static LiveState read(EmbeddedCluster cluster) {
        return new Fabric8ClusterReader(cluster.client()).read(Set.of(Configs.NS));
    }

    private static ApplyResult apply(EmbeddedCluster cluster, Plan plan) {
        return new Applier(new Fabric8ClusterWriter(cluster.client(), Sleeper.SYSTEM),
                new Fabric8RolloutWatcher(cluster.client(), Clock.systemUTC(), Duration.ofSeconds(10)),
                Journal.NONE, new ApplyOrderTest.RecordingListener(), Clock.systemUTC(), TIMEOUT).apply(plan);
    }

    /** @return the plan's steps without those {@code drop} names (by kind and position among that kind), renumbered */
    private static Plan without(Plan plan, java.util.function.Predicate<Step> drop) {
        List<Step> kept = new ArrayList<>();
        for (Step s : plan.steps()) {
            if (!drop.test(s)) {
                int id = kept.size() + 1;
                kept.add(new Step(id, s.kind(), s.address(), s.object(), id == 1 ? List.of() : List.of(id - 1), s.payload(),
                        s.summary()));
            }
        }
        return new Plan(plan.formatVersion(), plan.environment(), plan.createdAt(), plan.basedOn(), plan.liveFingerprints(),
                plan.changes(), kept, plan.diagnostics());
    }

    @Test
    void exactly_once_on_and_off_reach_the_source_connector_only_while_it_is_stopped() {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast(), () -> runtime)) {
            ApplyResult on = apply(cluster, plan(desired(true), read(cluster)));
            assertThat(on.succeeded()).as("%s", on.results()).isTrue();

            LiveConnector source = read(cluster).connector(Configs.NS, SOURCE).orElseThrow();
            assertThat(source.config()).containsEntry("source.consumer.isolation.level", "read_committed");
            assertThat(source.state()).isEqualTo(StopBeforeChange.RUNNING);
            assertThat(source.annotations()).doesNotContainKey(StopBeforeChange.RESUME_ANNOTATION);
            assertThat(source.connectorState()).isEqualTo("RUNNING");

            ApplyResult off = apply(cluster, plan(desired(false), read(cluster)));
            assertThat(off.succeeded()).as("%s", off.results()).isTrue();
            assertThat(off.results()).extracting(r -> r.step().kind()).startsWith(StepKind.STOP_CONNECTOR,
                    StepKind.WAIT_FOR_CONNECTOR_READY, StepKind.UPDATE_CONNECTOR, StepKind.WAIT_FOR_CONNECTOR_READY);

            assertThat(runtime.reconfiguredWhileRunning()).as("exactly-once keys changed on a running connector").isEmpty();
            assertThat(plan(desired(false), read(cluster)).hasChanges()).isFalse();
        }
    }

    @Test
    void without_its_stop_the_same_change_reaches_a_running_connector() {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast(), () -> runtime)) {
            Plan full = plan(desired(true), read(cluster));
            int[] connectorWaits = {0};
            Plan noStop = without(full, s -> s.kind() == StepKind.STOP_CONNECTOR
                    || (s.kind() == StepKind.WAIT_FOR_CONNECTOR_READY && connectorWaits[0]++ == 0));

            ApplyResult r = apply(cluster, noStop);

            assertThat(r.succeeded()).as("%s", r.results()).isTrue();
            assertThat(runtime.reconfiguredWhileRunning()).containsExactly(Configs.NS + "/mm2-connect/" + SOURCE);
        }
    }

    @Test
    void a_connector_an_interrupted_apply_left_stopped_is_started_again_without_a_second_stop() {
        try (EmbeddedCluster cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast(), () -> runtime)) {
            Plan full = plan(desired(true), read(cluster));
            int stop = full.steps().stream().filter(s -> s.kind() == StepKind.STOP_CONNECTOR).findFirst().orElseThrow().id();
            // the run that died after the stop was seen: every step up to the wait after the stop
            assertThat(apply(cluster, without(full, s -> s.id() > stop + 1)).succeeded()).isTrue();
            LiveConnector stopped = read(cluster).connector(Configs.NS, SOURCE).orElseThrow();
            assertThat(stopped.state()).isEqualTo(StopBeforeChange.STOPPED);
            assertThat(stopped.annotations()).containsEntry(StopBeforeChange.RESUME_ANNOTATION, "running");

            Plan resumed = plan(desired(true), read(cluster));

            assertThat(resumed.steps()).extracting(Step::kind).as("seen stopped already: no second stop, no second wait")
                    .containsExactly(StepKind.UPDATE_CONNECTOR, StepKind.WAIT_FOR_CONNECTOR_READY);
            assertThat(resumed.changes()).singleElement().satisfies(c -> assertThat(c.reason())
                    .contains("stopped by an apply that did not finish"));
            assertThat(apply(cluster, resumed).succeeded()).isTrue();
            LiveConnector started = read(cluster).connector(Configs.NS, SOURCE).orElseThrow();
            assertThat(started.state()).isEqualTo(StopBeforeChange.RUNNING);
            assertThat(started.annotations()).doesNotContainKey(StopBeforeChange.RESUME_ANNOTATION);
            assertThat(started.connectorState()).isEqualTo("RUNNING");
            assertThat(runtime.reconfiguredWhileRunning()).isEmpty();
            assertThat(plan(desired(true), read(cluster)).hasChanges()).isFalse();
        }
    }
}
