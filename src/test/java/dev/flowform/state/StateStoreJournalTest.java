package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

class StateStoreJournalTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void aRunRecordsItsStepsWithTimesAndDurations(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            long run = store.journal().startRun("apply", "{\"format_version\":1}", "alice@host", "0.1.0");
            long s1 = store.journal().intent(run, 0, 1, "SET_WORKER_EOS", "connect_cluster.eu", "{\"mode\":\"preparing\"}");
            clock.advance(Duration.ofMillis(1500));
            store.journal().done(s1, "generation 7");
            long s2 = store.journal().intent(run, 1, 2, "WAIT_FOR_ROLL", "connect_cluster.eu", null);
            clock.advance(Duration.ofSeconds(95));
            store.journal().done(s2, "3/3 pods rolled");
            store.journal().finishRun(run, RunOutcome.SUCCEEDED, "Apply complete! 1 changed, 1 rolling restart.");

            RunRecord r = store.journal().run(run).orElseThrow();
            assertThat(r.kind()).isEqualTo("apply");
            assertThat(r.who()).isEqualTo("alice@host");
            assertThat(r.flowformVersion()).isEqualTo("0.1.0");
            assertThat(r.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
            assertThat(r.startedAt()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
            assertThat(r.finishedAt()).isEqualTo(Instant.parse("2026-03-01T10:01:36.500Z"));
            assertThat(r.summary()).startsWith("Apply complete!");
            assertThat(store.journal().planJson(run)).contains("{\"format_version\":1}");

            List<StepRecord> steps = store.journal().steps(run);
            assertThat(steps).extracting(StepRecord::stepId).containsExactly(1, 2);
            StepRecord first = steps.get(0);
            assertThat(first.id()).isEqualTo(s1);
            assertThat(first.runId()).isEqualTo(run);
            assertThat(first.stepIndex()).isZero();
            assertThat(first.kind()).isEqualTo("SET_WORKER_EOS");
            assertThat(first.address()).isEqualTo("connect_cluster.eu");
            assertThat(first.intentJson()).isEqualTo("{\"mode\":\"preparing\"}");
            assertThat(first.status()).isEqualTo(StepStatus.DONE);
            assertThat(first.detail()).isEqualTo("generation 7");
            assertThat(first.durationMs()).isEqualTo(1500L);
            assertThat(first.finishedAt()).isEqualTo(Instant.parse("2026-03-01T10:00:01.500Z"));
            assertThat(steps.get(1).durationMs()).isEqualTo(95_000L);
            assertThat(steps.get(1).intentJson()).isNull();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void journalSurvivesAProcessThatNeverFinishedTheRun(StatePlace place) {
        long run;
        long openStep;
        try (StateStore store = place.open("prod", clock)) {
            store.lockTable().lock("apply", "alice@host", "0.1.0");
            run = store.journal().startRun("apply", "{}", "alice@host", "0.1.0");
            long s1 = store.journal().intent(run, 0, 1, "SET_WORKER_EOS", "connect_cluster.eu", "{\"mode\":\"preparing\"}");
            store.journal().done(s1, "generation 7");
            openStep = store.journal().intent(run, 1, 2, "WAIT_FOR_ROLL", "connect_cluster.eu", "{}");
            // "crash": no journalDone, no finishRun, no unlock; the connection just goes away
        }
        clock.advance(Duration.ofMinutes(10));
        try (StateStore store = place.open("prod", clock)) {
            LockInfo left = store.lockTable().current().orElseThrow();
            assertThat(left.isProbablyStale(clock)).isTrue();

            Interrupted found = store.journal().interruptedRun().orElseThrow();
            assertThat(found.run().id()).isEqualTo(run);
            assertThat(found.run().outcome()).isEqualTo(RunOutcome.RUNNING);
            assertThat(found.run().finishedAt()).isNull();
            StepRecord open = found.openStep().orElseThrow();
            assertThat(open.id()).isEqualTo(openStep);
            assertThat(open.stepId()).isEqualTo(2);
            assertThat(open.status()).isEqualTo(StepStatus.STARTED);
            assertThat(open.finishedAt()).isNull();
            assertThat(open.durationMs()).isNull();

            assertThat(store.lockTable().forceUnlock(left.id())).isTrue();
            store.lockTable().lock("apply", "bob@host", "0.1.0");
            store.journal().markInterrupted(run);

            assertThat(store.journal().interruptedRun()).isEmpty();
            RunRecord marked = store.journal().run(run).orElseThrow();
            assertThat(marked.outcome()).isEqualTo(RunOutcome.INTERRUPTED);
            assertThat(marked.finishedAt()).isEqualTo(Instant.parse("2026-03-01T10:10:00Z"));
            assertThat(marked.summary()).contains("Interrupted");
            // what happened to the open step stays unknown, and the history says so
            assertThat(store.journal().steps(run)).extracting(StepRecord::status).containsExactly(StepStatus.DONE, StepStatus.STARTED);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void interruptedRunIsTheNewestRunningRunAndMayHaveNoOpenStep(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            assertThat(store.journal().interruptedRun()).isEmpty();
            long older = store.journal().startRun("apply", null, "a@h", "1");
            store.journal().intent(older, 0, 1, "ANNOTATE", "connect_cluster.eu", null);
            long newer = store.journal().startRun("apply", null, "a@h", "1");
            long done = store.journal().intent(newer, 0, 1, "ANNOTATE", "connect_cluster.eu", null);
            store.journal().done(done, null);

            Interrupted found = store.journal().interruptedRun().orElseThrow();
            assertThat(found.run().id()).isEqualTo(newer);
            assertThat(found.openStep()).isEmpty();

            store.journal().markInterrupted(newer);
            assertThat(store.journal().interruptedRun().orElseThrow().run().id()).isEqualTo(older);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void runsAreListedNewestFirstWithAnOptionalLimit(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            long a = store.journal().startRun("apply", null, "a@h", "1");
            store.journal().finishRun(a, RunOutcome.SUCCEEDED, null);
            long b = store.journal().startRun("refresh", null, "a@h", "1");
            store.journal().finishRun(b, RunOutcome.FAILED, "cluster unreachable");
            long c = store.journal().startRun("apply", null, "a@h", "1");

            assertThat(store.journal().runs()).extracting(RunRecord::id).containsExactly(c, b, a);
            assertThat(store.journal().runs()).extracting(RunRecord::outcome)
                    .containsExactly(RunOutcome.RUNNING, RunOutcome.FAILED, RunOutcome.SUCCEEDED);
            assertThat(store.journal().runs(2)).extracting(RunRecord::id).containsExactly(c, b);
            assertThat(store.journal().runs(10)).hasSize(3);
            assertThatThrownBy(() -> store.journal().runs(0)).isInstanceOf(IllegalArgumentException.class);
            assertThat(store.journal().run(999)).isEmpty();
            assertThat(store.journal().planJson(a)).isEmpty();
            assertThat(store.journal().steps(999)).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void finishedRunsAndStepsCannotBeRewritten(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            long run = store.journal().startRun("apply", null, "a@h", "1");
            long step = store.journal().intent(run, 0, 1, "ANNOTATE", "connect_cluster.eu", null);
            store.journal().done(step, null);
            assertThatThrownBy(() -> store.journal().failed(step, "late"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already DONE");
            assertThatThrownBy(() -> store.journal().done(12345, null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no journal row 12345");
            assertThatThrownBy(() -> store.journal().finishRun(run, RunOutcome.RUNNING, null))
                    .isInstanceOf(IllegalArgumentException.class);

            store.journal().finishRun(run, RunOutcome.SUCCEEDED, null);
            assertThatThrownBy(() -> store.journal().finishRun(run, RunOutcome.FAILED, null))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already SUCCEEDED");
            assertThatThrownBy(() -> store.journal().intent(run, 1, 2, "ANNOTATE", null, null))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already SUCCEEDED");
            assertThatThrownBy(() -> store.journal().markInterrupted(run)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> store.journal().intent(777, 0, 1, "ANNOTATE", null, null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no run 777");
            assertThatThrownBy(() -> store.journal().startRun(" ", null, "a@h", "1")).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void aRunCannotSucceedWhileAStepOutcomeIsUnknown(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            long run = store.journal().startRun("apply", null, "a@h", "1");
            store.journal().intent(run, 0, 3, "WAIT_FOR_ROLL", "connect_cluster.eu", null);
            long serial = store.stateRef().serial();

            assertThatThrownBy(() -> store.journal().finishRun(run, RunOutcome.SUCCEEDED, null))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("step 3 (WAIT_FOR_ROLL) is still STARTED");
            assertThat(store.stateRef().serial()).as("refused call changes nothing").isEqualTo(serial);
            assertThat(store.journal().run(run).orElseThrow().outcome()).isEqualTo(RunOutcome.RUNNING);

            store.journal().finishRun(run, RunOutcome.FAILED, "interrupted by SIGINT");
            assertThat(store.journal().run(run).orElseThrow().outcome()).isEqualTo(RunOutcome.FAILED);
        }
    }
}
