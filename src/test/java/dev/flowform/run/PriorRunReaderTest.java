package dev.flowform.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.apply.Applier;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.plan.resume.Resume;
import dev.flowform.state.StateStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The prior run a resume starts from is read from the journal's statuses. */
class PriorRunReaderTest {

    @Test
    void eachJournalStatusBecomesTheStepStateResumeWorksWith() {
        try (StateStore state = StateStore.inMemory("demo", Clock.systemUTC())) {
            List<Step> steps = List.of(wait(1), wait(2), wait(3), wait(4));
            String planJson = PlanCodec.toJson(new Plan(Plan.FORMAT_VERSION, "demo", Instant.EPOCH, null, Map.of(),
                    List.of(), steps, List.of()), "0.9.0", state.cipher()::hash);
            long run = state.journal().startRun("apply", planJson, "alice@build-7", "0.9.0");
            state.journal().done(state.journal().intent(run, 0, 1, "WAIT_FOR_ROLL", null, null), "rolled");
            state.journal().failed(state.journal().intent(run, 1, 2, "WAIT_FOR_ROLL", null, null), "timed out");
            state.journal().stopped(state.journal().intent(run, 2, 3, "WAIT_FOR_ROLL", null, null),
                    Applier.STOPPED + " (interrupted by Ctrl-C (SIGINT))");
            state.journal().intent(run, 3, 4, "WAIT_FOR_ROLL", null, null);

            Resume.PriorRun prior = new PriorRunReader(state).unfinished().orElseThrow().run();

            assertThat(List.of(prior.state(1), prior.state(2), prior.state(3), prior.state(4))).containsExactly(
                    Resume.StepState.DONE, Resume.StepState.FAILED, Resume.StepState.STOPPED, Resume.StepState.STARTED);
        }
    }

    private static Step wait(int id) {
        return new Step(id, StepKind.WAIT_FOR_ROLL, "connect_cluster.c" + id,
                new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", "replication", "c" + id), List.of(),
                new StepPayload.WaitForRoll(EosMode.PREPARING, 5L), "wait");
    }
}
