package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.apply.Applier;
import dev.flowform.apply.Journal;
import dev.flowform.run.StepJournal;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * A step that a stop request ended while it waited is journaled {@link StepStatus#STOPPED}; databases and state
 * documents that recorded it the old way (FAILED, detail "stopped while waiting ...") read as STOPPED too, while
 * history and {@code state pull} keep showing it as FAILED.
 */
class StoppedStepTest {

    private static final String STOP_DETAIL = Applier.STOPPED + " (interrupted by Ctrl-C (SIGINT))";

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void theJournalOfARunRecordsAStopAsStopped(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            long run = store.journal().startRun("apply", null, "alice@host", "0.1.0");
            Journal journal = StepJournal.of(store, run, "0.1.0", text -> text == null ? null : text.replace("s3cret", "***"));
            Step wait = new Step(1, StepKind.WAIT_FOR_ROLL, "connect_cluster.eu",
                    new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", "kafka", "eu"), List.of(),
                    new StepPayload.WaitForRoll(EosMode.PREPARING, 5L), "wait");
            long handle = journal.started(wait, 1);
            journal.stopped(handle, STOP_DETAIL + " s3cret");

            StepRecord row = store.journal().steps(run).get(0);
            assertThat(row.status()).isEqualTo(StepStatus.STOPPED);
            assertThat(row.status().shown()).isEqualTo(StepStatus.FAILED);
            assertThat(row.detail()).isEqualTo(STOP_DETAIL + " ***");
            assertThatThrownBy(() -> store.journal().done(handle, "late")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already STOPPED");
            store.journal().finishRun(run, RunOutcome.INTERRUPTED, null);
        }
    }

    @Test
    void aDatabaseOfSchemaVersion3HasItsStopsConvertedWhenOpened() throws Exception {
        Files.createDirectories(StateStore.databaseFile(stateDir, "prod").getParent());
        String url = StateStore.jdbcUrl(stateDir, "prod");
        Flyway.configure(StateStore.class.getClassLoader()).dataSource(url, "sa", "").locations(StateDatabase.MIGRATIONS)
                .target("3").load().migrate();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO environment VALUES ('prod', '11111111-2222-3333-4444-555555555555', 3, "
                    + "'00112233445566778899aabbccddeeff', NULL, NULL, TIMESTAMP WITH TIME ZONE '2026-03-01 10:00:00+00')");
            s.executeUpdate("INSERT INTO run (id, kind, who, flowform_version, started_at, outcome) VALUES "
                    + "(1, 'apply', 'alice@host', '0.1.0', TIMESTAMP WITH TIME ZONE '2026-03-01 10:00:00+00', 'INTERRUPTED')");
            s.executeUpdate("INSERT INTO run_step (id, run_id, step_index, step_id, kind, status, started_at, detail) VALUES "
                    + "(1, 1, 0, 1, 'PATCH_CONNECTOR', 'FAILED', TIMESTAMP WITH TIME ZONE '2026-03-01 10:00:00+00', 'HTTP 422'), "
                    + "(2, 1, 1, 2, 'WAIT_FOR_ROLL', 'FAILED', TIMESTAMP WITH TIME ZONE '2026-03-01 10:00:00+00', '"
                    + STOP_DETAIL + "')");
        }
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            assertThat(store.journal().steps(1)).extracting(StepRecord::status)
                    .containsExactly(StepStatus.FAILED, StepStatus.STOPPED);
            assertThat(store.stateRef().serial()).isEqualTo(3);
        }
    }

    @Test
    void stateDocumentsShowAStopAsFailedAndImportItAsStopped() {
        String document;
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            long run = store.journal().startRun("apply", null, "alice@host", "0.1.0");
            store.journal().stopped(store.journal().intent(run, 0, 1, "WAIT_FOR_ROLL", null, null), STOP_DETAIL);
            store.journal().failed(store.journal().intent(run, 1, 2, "PATCH_CONNECTOR", null, null), "HTTP 422");
            document = StateTransfer.export(store, "0.1.0");
        }
        assertThat(document).doesNotContain("\"STOPPED\"").contains("\"status\" : \"FAILED\"");
        try (StateStore other = StateStore.open(stateDir.resolve("other"), "prod", clock)) {
            StateTransfer.importInto(other, document, false);
            long run = other.journal().runs().get(0).id();
            assertThat(other.journal().steps(run)).extracting(StepRecord::status)
                    .containsExactly(StepStatus.STOPPED, StepStatus.FAILED);
        }
    }
}
