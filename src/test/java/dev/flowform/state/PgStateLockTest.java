package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.state.pg.PgAdvisoryLock;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL half of the lock (docs/state-backends.md, "Locking"): the advisory lock decides who holds the
 * environment, the row says who that is. A row whose holder's session ended is taken over without force-unlock; a
 * force-unlock of a live holder ends its session; a holder whose session ended takes the lock again only if nobody
 * else took it in between.
 */
class PgStateLockTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");
    private final StatePlace place = StatePlace.postgres();
    private final List<String> events = new ArrayList<>();
    private final StateLockTable.Listener recorder = new StateLockTable.Listener() {
        @Override
        public void tookOver(LockInfo gone) {
            events.add("took over " + gone.id() + " of " + gone.who());
        }
    };

    @Test
    void a_lock_whose_holders_session_ended_is_taken_over_without_force_unlock_and_reported() throws Exception {
        try (StateStore alice = place.open("prod", clock); StateStore bob = place.open("prod", clock)) {
            LockInfo held = alice.lockTable().lock("apply", "alice@host", "0.1.0");
            assertThatThrownBy(() -> bob.lockTable().lock("apply", "bob@laptop", "0.1.0"))
                    .isInstanceOf(LockHeldException.class)
                    .hasMessageContaining("alice@host").hasMessageContaining("PostgreSQL server process " + held.session());

            terminate(held.session()); // what kill -9 of alice's process does to her lock session

            try (HeldStateLock taken = bob.lockTable().acquire(new StateLockTable.Request("apply", "bob@laptop", "0.1.0", null),
                    Duration.ZERO, d -> { }, recorder)) {
                assertThat(taken.info().who()).isEqualTo("bob@laptop");
                assertThat(taken.info().session()).isNotNull().isNotEqualTo(held.session());
                assertThat(taken.releasedGone()).containsExactly(held.id());
                assertThat(events).containsExactly("took over " + held.id() + " of alice@host");
                assertThat(bob.lockTable().current()).contains(taken.info());
            }
            assertThat(bob.lockTable().current()).isEmpty();
        }
    }

    @Test
    void force_unlock_of_a_live_holder_in_another_process_ends_its_session_and_removes_the_row() throws Exception {
        try (StateStore operator = place.open("prod", clock);
             Connection otherProcess = connect()) {
            int pid = lockAsAnotherProcess(otherProcess, "prod");
            insertRow(operator, "other-lock-id", pid);
            assertThatThrownBy(() -> operator.lockTable().lock("apply", "op@desk", "0.1.0"))
                    .isInstanceOf(LockHeldException.class).hasMessageContaining("other-lock-id");

            assertThat(operator.lockTable().forceUnlock("other-lock-id")).isTrue();

            assertThatThrownBy(() -> otherProcess.createStatement().execute("SELECT 1"))
                    .as("the holder's session was terminated").isInstanceOf(SQLException.class);
            assertThat(operator.lockTable().lock("apply", "op@desk", "0.1.0").who()).isEqualTo("op@desk");
        }
    }

    @Test
    void a_holder_whose_session_ended_takes_the_lock_again_unless_someone_took_it_in_between() throws Exception {
        try (StateStore alice = place.open("prod", clock); StateStore bob = place.open("prod", clock)) {
            LockInfo held = alice.lockTable().lock("apply", "alice@host", "0.1.0");
            terminate(held.session()); // a server restart ends the lock session; nobody took the lock meanwhile

            alice.lockTable().heartbeat(held.id());
            Integer again = alice.lockTable().current().orElseThrow().session();
            assertThat(again).isNotNull().isNotEqualTo(held.session());

            terminate(again);
            LockInfo bobs = bob.lockTable().lock("apply", "bob@laptop", "0.1.0");
            assertThatThrownBy(() -> alice.lockTable().heartbeat(held.id()))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("was lost");
            assertThat(bob.lockTable().current()).contains(bobs);
        }
    }

    @Test
    void two_environments_in_one_schema_lock_independently_and_keep_their_own_rows() {
        try (StateStore prod = place.open("prod", clock); StateStore staging = place.open("staging", clock)) {
            LockInfo p = prod.lockTable().lock("apply", "alice@host", "0.1.0");
            LockInfo s = staging.lockTable().lock("apply", "bob@laptop", "0.1.0");
            long run = prod.journal().startRun("apply", null, "alice@host", "0.1.0");
            prod.snapshots().save(ResourceSnapshot.of("kafka_connector.orders", "KafkaConnector", "kafka", "orders", "{}"));
            staging.snapshots().save(ResourceSnapshot.of("kafka_connector.orders", "KafkaConnector", "kafka", "orders",
                    "{\"x\":1}"));

            assertThat(staging.journal().runs()).isEmpty();
            assertThat(staging.journal().run(run)).isEmpty();
            assertThat(prod.journal().runs()).extracting(RunRecord::id).containsExactly(run);
            assertThat(staging.snapshots().get("kafka_connector.orders").orElseThrow().bodyJson()).isEqualTo("{\"x\":1}");
            assertThat(prod.environment().lineage()).isNotEqualTo(staging.environment().lineage());
            prod.lockTable().unlock(p.id());
            assertThat(staging.lockTable().current()).contains(s);
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(StatePlace.settings().jdbcUrl(), StatePlace.settings().properties());
    }

    private static void terminate(int session) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
            ps.setInt(1, session);
            ps.execute();
        }
        // pg_terminate_backend only signals: wait until the session's locks are gone
        for (int i = 0; i < 100 && alive(session); i++) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static boolean alive(int session) throws SQLException {
        try (Connection c = connect(); PreparedStatement ps = c.prepareStatement(
                "SELECT 1 FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, session);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private int lockAsAnotherProcess(Connection c, String environment) throws SQLException {
        String schema;
        try (StateStore store = place.open(environment, clock)) {
            schema = ((PgBackend) store.backend()).schema();
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?), pg_backend_pid()")) {
            ps.setLong(1, PgAdvisoryLock.key(schema, environment));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertThat(rs.getBoolean(1)).isTrue();
                return rs.getInt(2);
            }
        }
    }

    private void insertRow(StateStore store, String lockId, int session) {
        store.inTransaction("test: another process's lock row", c -> {
            store.lockTable().insertRow(c, new LockInfo(lockId, "prod", "apply", "carol@ci", "0.1.0", clock.instant(),
                    clock.instant(), null, null, session));
            return null;
        });
    }
}
