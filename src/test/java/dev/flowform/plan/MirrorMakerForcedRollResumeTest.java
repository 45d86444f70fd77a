package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.plan.resume.Resume;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Resuming an apply interrupted in the middle of a KafkaMirrorMaker2 rollout on Strimzi 0.46-0.48: the forced roll
 * whose annotation the journal does not prove is annotated again before anything else, one whose annotation landed is
 * only waited for (once), and nothing is annotated twice in a row.
 */
class MirrorMakerForcedRollResumeTest {

    /** The rollout planned against a no-roll resource with the workers disabled (steps 1-10). */
    private static Plan original() {
        MirrorMakerWorld w = new MirrorMakerWorld(null);
        w.noRoll = true;
        return MirrorMakerPlannerTest.plan(MirrorMakerWorld.adopt(true), w.toLive());
    }

    private static Resume.PriorRun prior(Map<Integer, Resume.StepState> states) {
        return new Resume.PriorRun(7, true, "ops@ci", Instant.parse("2026-12-01T10:00:00Z"), original(), states);
    }

    private static Map<Integer, Resume.StepState> doneUpTo(int last, Resume.StepState next) {
        Map<Integer, Resume.StepState> states = new HashMap<>();
        for (int i = 1; i <= last; i++) {
            states.put(i, Resume.StepState.DONE);
        }
        states.put(last + 1, next);
        return states;
    }

    private static List<String> resumed(Map<Integer, Resume.StepState> states, MirrorMakerWorld live) {
        LiveState state = live.toLive();
        Resume.Analysis a = Resume.analyze(prior(states), state, v -> v);
        Plan next = Resume.continuePlan(MirrorMakerPlannerTest.plan(MirrorMakerWorld.adopt(true), state), a, state);
        return next.steps().stream().map(s -> s.kind() + (s.payload() instanceof StepPayload.WaitForRoll w
                ? " " + w.expectedMode().value() : "")).toList();
    }

    @Test
    void the_original_plan_has_a_forced_roll_after_each_mode() {
        assertThat(original().steps().stream().map(Step::kind).toList()).containsExactly(StepKind.SET_WORKER_EOS,
                StepKind.WAIT_FOR_ROLL, StepKind.FORCE_ROLL, StepKind.WAIT_FOR_FORCED_ROLL, StepKind.SET_WORKER_EOS,
                StepKind.WAIT_FOR_ROLL, StepKind.FORCE_ROLL, StepKind.WAIT_FOR_FORCED_ROLL, StepKind.STOP_CONNECTOR,
                StepKind.WAIT_FOR_CONNECTOR_READY, StepKind.UPDATE_CONNECTOR, StepKind.WAIT_FOR_CONNECTOR_READY);
    }

    @Test
    void enabled_set_but_its_annotation_unproven_annotates_again_before_the_connector() {
        MirrorMakerWorld w = new MirrorMakerWorld("enabled");
        w.noRoll = true;
        w.podsRun = EosMode.PREPARING;
        assertThat(resumed(doneUpTo(6, Resume.StepState.STARTED), w)).containsExactly("FORCE_ROLL",
                "WAIT_FOR_FORCED_ROLL enabled", "STOP_CONNECTOR", "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR", "WAIT_FOR_CONNECTOR_READY");
    }

    @Test
    void an_annotation_that_landed_is_only_waited_for_once() {
        MirrorMakerWorld w = new MirrorMakerWorld("enabled");
        w.noRoll = true;
        w.manualRoll = true;
        assertThat(resumed(doneUpTo(7, Resume.StepState.STARTED), w)).containsExactly("WAIT_FOR_FORCED_ROLL enabled",
                "STOP_CONNECTOR", "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR", "WAIT_FOR_CONNECTOR_READY");
    }

    @Test
    void an_annotate_step_the_journal_started_and_the_podset_shows_is_not_repeated() {
        MirrorMakerWorld w = new MirrorMakerWorld("preparing");
        w.noRoll = true;
        w.manualRoll = true;
        Map<Integer, Resume.StepState> states = doneUpTo(2, Resume.StepState.STARTED);
        assertThat(resumed(states, w)).containsExactly("WAIT_FOR_FORCED_ROLL preparing", "SET_WORKER_EOS",
                "WAIT_FOR_ROLL enabled", "FORCE_ROLL", "WAIT_FOR_FORCED_ROLL enabled", "STOP_CONNECTOR",
                "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR", "WAIT_FOR_CONNECTOR_READY");
    }

    @Test
    void preparing_set_and_the_roll_never_asked_for_rolls_at_preparing_once_before_enabled() {
        MirrorMakerWorld w = new MirrorMakerWorld("preparing");
        w.noRoll = true;
        w.podsRun = EosMode.DISABLED;
        assertThat(resumed(doneUpTo(2, Resume.StepState.NOT_STARTED), w)).containsExactly("FORCE_ROLL",
                "WAIT_FOR_FORCED_ROLL preparing", "SET_WORKER_EOS", "WAIT_FOR_ROLL enabled", "FORCE_ROLL",
                "WAIT_FOR_FORCED_ROLL enabled", "STOP_CONNECTOR", "WAIT_FOR_CONNECTOR_READY", "UPDATE_CONNECTOR", "WAIT_FOR_CONNECTOR_READY");
    }
}
