package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.cli.view.LiveProgress;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.render.Style;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/** The TTY view: permanent step lines plus a status block redrawn in place, gone when the run ends. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class LiveProgressTest {

    private static Step wait(int id, String cluster) {
        return new Step(id, StepKind.WAIT_FOR_ROLL, "connect_cluster." + cluster,
                new ObjectRef("kafka.strimzi.io/v1", "KafkaConnect", "ns", cluster), List.of(),
                new StepPayload.WaitForRoll(EosMode.PREPARING, 5L), "wait until every worker has restarted");
    }

    @Test
    void running_steps_are_shown_in_a_status_block_that_is_redrawn_and_removed() {
        StringWriter out = new StringWriter();
        Terminal term = new Terminal(new PrintWriter(out), new PrintWriter(new StringWriter()), Style.ANSI);
        Step a = wait(2, "east");
        Step b = wait(4, "west");

        try (LiveProgress view = new LiveProgress(term, Clock.systemUTC(), 160)) {
            view.stepStarted(a, 2, 4);
            view.stepStarted(b, 4, 4);
            view.stepProgress(a, 2, 4, new Readiness.InProgress("2/3 workers on the new revision, observedGeneration 4/5", 2, 3),
                    Duration.ofSeconds(3));
            view.stepDone(a, 2, 4, "3/3 workers on the new revision", Duration.ofSeconds(4));
        }
        String text = out.toString();

        assertThat(text).contains("connect_cluster.east: [2/4] WAIT_FOR_ROLL", "connect_cluster.west: [4/4] WAIT_FOR_ROLL",
                "2/3 workers on the new revision, observedGeneration 4/5", "connect_cluster.east: [2/4] ");
        assertThat(text).as("the block is erased before each permanent line").contains("\u001b[1A\u001b[2K");
        String afterDone = text.substring(text.lastIndexOf("after 4.0s"));
        assertThat(afterDone).as("the last block (west still running) is erased on close").contains("\u001b[1A\u001b[2K");
        assertThat(text.lines().filter(l -> l.length() > 170)).as("status lines are cut to the width").isEmpty();
    }
}
