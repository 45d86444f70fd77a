package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the process serving an H2 auto-server file exits, the other processes' connections break.
 * Shutting the database down from a second connection produces the same failure inside one JVM.
 */
class ReconnectTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @Test
    void aStoreReconnectsAfterTheDatabaseWentAwayAndRepeatsTheUncommittedCall() throws Exception {
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            long run = store.journal().startRun("apply", null, "alice@host", "0.1.0");
            LockInfo lock = store.lockTable().lock("apply", "alice@host", "0.1.0");
            String lineage = store.stateRef().lineage();

            shutDown();

            long step = store.journal().intent(run, 0, 1, "ANNOTATE", "connect_cluster.eu", null);
            assertThat(store.journal().steps(run)).extracting(StepRecord::id).containsExactly(step);
            assertThat(store.stateRef().serial()).isEqualTo(2);
            assertThat(store.stateRef().lineage()).isEqualTo(lineage);
            assertThat(store.lockTable().current()).contains(lock);

            shutDown();
            assertThat(store.journal().runs()).singleElement().extracting(RunRecord::id).isEqualTo(run);
        }
    }

    @Test
    void aConnectionLostWhileCommittingIsReportedAsAnUnknownOutcomeAndALockAttemptReadsWhatWasSaved() throws Exception {
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            assertThatThrownBy(() -> store.inTransaction("lock(apply)", c -> {
                try (Statement s = c.createStatement()) {
                    s.execute("SELECT 1");
                }
                shutDown(); // the database goes away between the work and its commit
                return null;
            })).isInstanceOfSatisfying(StateStoreException.class, e -> assertThat(e.outcomeUnknown()).isTrue());

            LockInfo lock = store.lockTable().lock("apply", "alice@host", "0.1.0");
            assertThat(store.lockTable().current()).contains(lock);
        }
    }

    @Test
    void connectionLossIsRecognisedByH2ErrorCode() {
        assertThat(H2Backend.isConnectionLostError(new SQLException("Connection is broken", "90067", 90067))).isTrue();
        assertThat(H2Backend.isConnectionLostError(new SQLException("Database is already closed", "90121", 90121))).isTrue();
        assertThat(H2Backend.isConnectionLostError(new SQLException("Unique index violation", "23505", 23505))).isFalse();
    }

    @Test
    void inMemoryStoresDoNotReconnectToAFreshEmptyDatabase() {
        StateStore store = StateStore.inMemory("prod", clock);
        try {
            store.journal().startRun("apply", null, "alice@host", "0.1.0");
            store.close();
            assertThatThrownBy(store.journal()::runs).isInstanceOf(IllegalStateException.class);
        } finally {
            store.close();
        }
    }

    private void shutDown() throws SQLException {
        try (Connection c = DriverManager.getConnection(StateStore.jdbcUrl(stateDir, "prod"), "sa", "");
             Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
    }
}
