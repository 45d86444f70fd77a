package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.connect.ConnectorStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the simulated operator reads a connector's status again after a change. */
class StatusRefreshTest {

    private static ConnectorStatus status(String connector, String... tasks) {
        List<ConnectorStatus.TaskStatus> ts = new java.util.ArrayList<>();
        for (int i = 0; i < tasks.length; i++) {
            ts.add(new ConnectorStatus.TaskStatus(i, tasks[i], "w:8083", "FAILED".equals(tasks[i]) ? "boom" : null));
        }
        return new ConnectorStatus("c", connector, "w:8083", null, ts, "source");
    }

    @Test
    void a_failed_task_right_after_a_change_is_read_again_until_the_quick_refreshes_end() {
        assertThat(ConnectorReconciler.settledAfterChange(status("RUNNING", "RUNNING", "RUNNING"), 1)).isTrue();
        assertThat(ConnectorReconciler.settledAfterChange(status("RUNNING", "UNASSIGNED"), 1)).isFalse();
        assertThat(ConnectorReconciler.settledAfterChange(status("RUNNING", "FAILED", "RUNNING"), 1)).isFalse();
        assertThat(ConnectorReconciler.settledAfterChange(status("RUNNING", "FAILED", "RUNNING"), 121)).isTrue();
        assertThat(ConnectorReconciler.settledAfterChange(null, 1)).isFalse();
    }

    @Test
    void a_running_connector_without_tasks_right_after_a_change_is_read_again_until_the_quick_refreshes_end() {
        assertThat(ConnectorReconciler.settledAfterChange(status("RUNNING"), 1)).isFalse();
        assertThat(ConnectorReconciler.settledAfterChange(status("RUNNING"), 120)).isFalse();
        assertThat(ConnectorReconciler.settledAfterChange(status("RUNNING"), 121)).isTrue();
        assertThat(ConnectorReconciler.settledAfterChange(status("STOPPED"), 1)).as("a stopped connector has no tasks")
                .isTrue();
    }
}
