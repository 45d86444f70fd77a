package dev.flowform.plan.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.Condition;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.TaskStatus;
import dev.flowform.plan.Readiness;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConnectorCheckTest {
    private static final String CHECKPOINT = "org.apache.kafka.connect.mirror.MirrorCheckpointConnector";
    private static final String SOURCE = "org.apache.kafka.connect.mirror.MirrorSourceConnector";

    private static LiveConnector running(String className, List<TaskStatus> tasks) {
        return new LiveConnector(new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnector", "ns", "c"), "1", 2, Map.of(),
                Map.of(), className, 1, "running", Map.of(), 2L, List.of(new Condition("Ready", "True", null, null)),
                "RUNNING", null, tasks, Map.of());
    }

    @Test
    void a_checkpoint_connector_without_consumer_groups_runs_with_no_task() {
        assertThat(ConnectorCheck.evaluate(running(CHECKPOINT, List.of()), 2, "RUNNING")).isInstanceOf(Readiness.Complete.class);
    }

    @Test
    void a_source_connector_is_not_done_before_its_tasks_run() {
        assertThat(ConnectorCheck.evaluate(running(SOURCE, List.of()), 2, "RUNNING")).isInstanceOf(Readiness.InProgress.class);
        assertThat(ConnectorCheck.evaluate(running(SOURCE, List.of(new TaskStatus(0, "UNASSIGNED", null))), 2, "RUNNING"))
                .isInstanceOf(Readiness.InProgress.class);
        assertThat(ConnectorCheck.evaluate(running(SOURCE, List.of(new TaskStatus(0, "RUNNING", null))), 2, "RUNNING"))
                .isInstanceOf(Readiness.Complete.class);
        assertThat(ConnectorCheck.evaluate(running(CHECKPOINT, List.of(new TaskStatus(0, "FAILED", "boom"))), 2, "RUNNING"))
                .isInstanceOf(Readiness.Failed.class);
    }

    @Test
    void a_failed_task_that_may_predate_the_change_is_in_progress_but_a_failed_connector_is_not() {
        List<TaskStatus> failedTask = List.of(new TaskStatus(0, "FAILED", "fencing failed"), new TaskStatus(1, "RUNNING", null));
        Readiness waiting = ConnectorCheck.evaluate(running(SOURCE, failedTask), 2, "RUNNING", true);
        assertThat(waiting).isInstanceOf(Readiness.InProgress.class);
        assertThat(((Readiness.InProgress) waiting).done()).isEqualTo(1);
        assertThat(ConnectorCheck.evaluate(running(SOURCE, failedTask), 2, "RUNNING", false))
                .isInstanceOf(Readiness.Failed.class);
        LiveConnector failedConnector = new LiveConnector(new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnector", "ns",
                "c"), "1", 2, Map.of(), Map.of(), SOURCE, 1, "running", Map.of(), 2L, List.of(), "FAILED", "bad config",
                failedTask, Map.of());
        assertThat(ConnectorCheck.evaluate(failedConnector, 2, "RUNNING", true)).isInstanceOf(Readiness.Failed.class);
    }

    private static LiveConnector reporting(String state, List<TaskStatus> tasks) {
        return new LiveConnector(new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnector", "ns", "c"), "1", 3, Map.of(),
                Map.of(), SOURCE, 1, "stopped", Map.of(), 3L, List.of(new Condition("Ready", "True", null, null)),
                state, "FAILED".equals(state) ? "bad password" : null, tasks, Map.of());
    }

    @Test
    void stopped_means_the_connector_stopped_and_none_of_its_tasks_runs() {
        assertThat(ConnectorCheck.evaluate(reporting("STOPPED", List.of()), 3, "STOPPED")).isInstanceOf(Readiness.Complete.class);
        assertThat(ConnectorCheck.evaluate(reporting("STOPPED", List.of(new TaskStatus(0, "UNASSIGNED", null),
                new TaskStatus(1, "FAILED", "old"))), 3, "STOPPED")).as("Connect keeps the status of a task it stopped")
                .isInstanceOf(Readiness.Complete.class);
        Readiness stillRunning = ConnectorCheck.evaluate(reporting("STOPPED", List.of(new TaskStatus(0, "RUNNING", null))), 3,
                "STOPPED");
        assertThat(stillRunning).isInstanceOf(Readiness.InProgress.class);
        assertThat(stillRunning.detail()).contains("1 task(s) still running");
        assertThat(ConnectorCheck.evaluate(reporting("RUNNING", List.of(new TaskStatus(0, "RUNNING", null))), 3, "STOPPED"))
                .as("the operator's read right after the stop").isInstanceOf(Readiness.InProgress.class);
    }

    @Test
    void a_failed_connector_awaited_as_stopped_is_given_time_then_named_with_the_strimzi_bug_and_the_fix() {
        assertThat(ConnectorCheck.evaluate(reporting("FAILED", List.of()), 3, "STOPPED", true))
                .isInstanceOf(Readiness.InProgress.class);
        Readiness failed = ConnectorCheck.evaluate(reporting("FAILED", List.of(new TaskStatus(0, "RUNNING", null))), 3,
                "STOPPED", false);
        assertThat(failed).isInstanceOf(Readiness.Failed.class);
        assertThat(failed.detail()).contains("is FAILED and was not stopped", "Strimzi before 1.1.0", "bad password",
                "strimzi.io/restart=true");
    }
}
