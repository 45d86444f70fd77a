package dev.flowform.plan.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.ConnectorRole;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.KafkaVersion;
import dev.flowform.plan.rules.StopBeforeChange.Lane;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/** When a connector change is applied as stop, reconfigure, start (docs/domain-rules.md 8b), case by case. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class StopBeforeChangeTest {

    private static final List<FieldEdit> READ_COMMITTED = List.of(FieldEdit.set(List.of("spec", "config",
            ConnectorRules.SOURCE_ISOLATION_LEVEL), ConnectorRules.READ_COMMITTED, false));
    private static final List<FieldEdit> MIRROR_READ_COMMITTED = List.of(FieldEdit.set(List.of("spec", "mirrors",
            "[sourceCluster=dc1]", "sourceConnector", "config", ConnectorRules.SOURCE_ISOLATION_LEVEL),
            ConnectorRules.READ_COMMITTED, false));
    private static final List<FieldEdit> BOUNDARY_REMOVED = List.of(FieldEdit.remove(List.of("spec", "config",
            ConnectorRules.TRANSACTION_BOUNDARY), false));
    private static final List<FieldEdit> TOPICS = List.of(FieldEdit.set(List.of("spec", "config", "topics"), "orders.*", false));

    private static Optional<KafkaVersion> kafka(String v) {
        return KafkaVersion.parse(v);
    }

    @Test
    void an_exactly_once_key_of_a_running_source_connector_is_changed_while_it_is_stopped() {
        boolean can = StopBeforeChange.canStop(ConnectorRole.SOURCE, kafka("4.1.0"), 3, true);
        assertThat(StopBeforeChange.lane(READ_COMMITTED, null, null, "running", can)).isEqualTo(Lane.STOP_FIRST);
        assertThat(StopBeforeChange.lane(MIRROR_READ_COMMITTED, "running", null, "running", can)).isEqualTo(Lane.STOP_FIRST);
        assertThat(StopBeforeChange.lane(BOUNDARY_REMOVED, "paused", null, "paused", can)).as("a paused one keeps its tasks")
                .isEqualTo(Lane.STOP_FIRST);
        assertThat(StopBeforeChange.lane(READ_COMMITTED, null, null, "running",
                StopBeforeChange.canStop(ConnectorRole.SOURCE, Optional.empty(), 3, true)))
                .as("an unknown version is the operator's default, recent").isEqualTo(Lane.STOP_FIRST);
    }

    @Test
    void other_changes_and_connectors_that_run_no_old_task_afterwards_take_one_write() {
        boolean can = StopBeforeChange.canStop(ConnectorRole.SOURCE, kafka("3.9.0"), 3, true);
        assertThat(StopBeforeChange.lane(TOPICS, null, null, "running", can)).as("no exactly-once key").isEqualTo(Lane.PLAIN);
        assertThat(StopBeforeChange.lane(READ_COMMITTED, "stopped", null, "stopped", can)).as("stopped already")
                .isEqualTo(Lane.PLAIN);
        assertThat(StopBeforeChange.lane(READ_COMMITTED, null, null, "stopped", can)).as("to be stopped").isEqualTo(Lane.PLAIN);
    }

    @Test
    void a_connector_that_cannot_take_a_stop_takes_one_write() {
        assertThat(StopBeforeChange.canStop(ConnectorRole.SOURCE, kafka("3.4.1"), 3, true)).as("KIP-875 is Kafka 3.5")
                .isFalse();
        assertThat(StopBeforeChange.canStop(ConnectorRole.SOURCE, kafka("3.5.0"), 3, true)).isTrue();
        assertThat(StopBeforeChange.canStop(ConnectorRole.CHECKPOINT, kafka("3.9.0"), 3, true))
                .as("only the source connector copies records").isFalse();
        assertThat(StopBeforeChange.canStop(ConnectorRole.SOURCE, kafka("3.9.0"), 0, true)).as("no worker").isFalse();
        assertThat(StopBeforeChange.canStop(ConnectorRole.SOURCE, kafka("3.9.0"), 3, false))
                .as("Connect refuses the live configuration, so Strimzi fails before it sends the stop").isFalse();
        assertThat(StopBeforeChange.lane(READ_COMMITTED, null, null, "running", false)).isEqualTo(Lane.PLAIN);
    }

    @Test
    void a_connector_flowform_stopped_is_started_again_whatever_the_edits() {
        assertThat(StopBeforeChange.lane(List.of(), "stopped", "running", "running", true)).isEqualTo(Lane.ALREADY_STOPPED);
        assertThat(StopBeforeChange.lane(READ_COMMITTED, "stopped", "paused", "paused", false))
                .isEqualTo(Lane.ALREADY_STOPPED);
    }

    @Test
    void states_map_to_what_connect_reports() {
        assertThat(StopBeforeChange.runtimeState(null)).isEqualTo("RUNNING");
        assertThat(StopBeforeChange.runtimeState("Paused")).isEqualTo("PAUSED");
        assertThat(StopBeforeChange.runtimeState("stopped")).isEqualTo("STOPPED");
        assertThat(StopBeforeChange.mirrorAnnotation("dc1")).isEqualTo("flowform.dev/resume-state.dc1");
    }
}
