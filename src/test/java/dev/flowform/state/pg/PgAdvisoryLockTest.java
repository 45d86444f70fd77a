package dev.flowform.state.pg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.testing.PgServer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/** The pg backend's state lock, on a real PostgreSQL: one holder at a time, and a holder whose session ends loses it. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PgAdvisoryLockTest {

    private static final long PROD = PgAdvisoryLock.key("flowform", "prod");
    private static final Duration GONE_WITHIN = Duration.ofSeconds(10);

    private PgServer.Database db;

    @BeforeEach
    void freshDatabase() {
        db = PgServer.get().freshDatabase("lock");
    }

    @Test
    void the_key_is_sha_256_of_domain_schema_and_environment_and_never_changes() {
        // computed independently: python3 -c "import hashlib,struct; print(struct.unpack('>q', hashlib.sha256(
        //     b'flowform-state-lock\0flowform\0prod').digest()[:8])[0])"
        assertThat(PgAdvisoryLock.key("flowform", "prod")).isEqualTo(-7223584104165512918L);
        assertThat(PgAdvisoryLock.key("flowform", "staging")).isEqualTo(-5732196836836014530L);
        assertThat(PgAdvisoryLock.key("team_a", "prod")).isEqualTo(3699423413084160656L);
        assertThat(PgAdvisoryLock.key("a", "bc")).isNotEqualTo(PgAdvisoryLock.key("ab", "c"));
    }

    @Test
    void while_one_session_holds_the_lock_another_cannot_take_it_and_sees_the_holders_pid() throws Exception {
        try (PgAdvisoryLock held = PgAdvisoryLock.tryAcquire(db.connect(), PROD).orElseThrow();
             Connection observer = db.connect()) {
            Connection second = db.connect();

            assertThat(PgAdvisoryLock.tryAcquire(second, PROD)).isEmpty();
            assertThat(second.isClosed()).as("a failed attempt closes its connection").isTrue();
            assertThat(held.backendPid()).isEqualTo(sessionPid(held));
            assertThat(PgAdvisoryLock.holder(observer, PROD)).isEqualTo(OptionalInt.of(held.backendPid()));
            assertThat(held.stillHeld()).isTrue();
        }
    }

    @Test
    void after_the_holder_closes_it_the_next_session_takes_it() throws Exception {
        PgAdvisoryLock first = PgAdvisoryLock.tryAcquire(db.connect(), PROD).orElseThrow();
        first.close();
        first.close();

        try (PgAdvisoryLock second = PgAdvisoryLock.tryAcquire(db.connect(), PROD).orElseThrow();
             Connection observer = db.connect()) {
            assertThat(first.stillHeld()).isFalse();
            assertThat(PgAdvisoryLock.holder(observer, PROD)).isEqualTo(OptionalInt.of(second.backendPid()));
        }
    }

    @Test
    void a_holder_whose_session_is_terminated_loses_the_lock_without_any_unlock() throws Exception {
        PgAdvisoryLock first = PgAdvisoryLock.tryAcquire(db.connect(), PROD).orElseThrow();
        try (Connection admin = db.connect();
             PreparedStatement ps = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
            ps.setInt(1, first.backendPid());
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next() && rs.getBoolean(1)).isTrue();
            }
            Awaitility.await().atMost(GONE_WITHIN).until(() -> PgAdvisoryLock.holder(admin, PROD).isEmpty());

            try (PgAdvisoryLock second = PgAdvisoryLock.tryAcquire(db.connect(), PROD).orElseThrow()) {
                assertThat(first.stillHeld()).as("the terminated holder learns it lost the lock").isFalse();
                assertThat(PgAdvisoryLock.holder(admin, PROD)).isEqualTo(OptionalInt.of(second.backendPid()));
            }
        } finally {
            first.close();
        }
    }

    @Test
    void a_client_that_drops_its_connection_without_unlocking_like_a_killed_process_loses_the_lock() throws Exception {
        Connection raw = db.connect();
        PgAdvisoryLock first = PgAdvisoryLock.tryAcquire(raw, PROD).orElseThrow();
        var executor = Executors.newSingleThreadExecutor();
        try (Connection observer = db.connect()) {
            raw.abort(executor); // closes the socket, sends no Terminate message and no unlock: what a kill -9 leaves

            Awaitility.await().atMost(GONE_WITHIN).until(() -> PgAdvisoryLock.holder(observer, PROD).isEmpty());
            Optional<PgAdvisoryLock> second = PgAdvisoryLock.tryAcquire(db.connect(), PROD);
            assertThat(second).isPresent();
            second.get().close();
        } finally {
            executor.shutdown();
            first.close();
        }
    }

    @Test
    void environments_and_schemas_have_keys_of_their_own_and_do_not_contend() throws Exception {
        long staging = PgAdvisoryLock.key("flowform", "staging");
        long otherSchema = PgAdvisoryLock.key("team_a", "prod");
        try (PgAdvisoryLock prod = PgAdvisoryLock.tryAcquire(db.connect(), PROD).orElseThrow();
             PgAdvisoryLock stag = PgAdvisoryLock.tryAcquire(db.connect(), staging).orElseThrow();
             PgAdvisoryLock other = PgAdvisoryLock.tryAcquire(db.connect(), otherSchema).orElseThrow();
             Connection observer = db.connect()) {
            assertThat(PgAdvisoryLock.holder(observer, PROD)).hasValue(prod.backendPid());
            assertThat(PgAdvisoryLock.holder(observer, staging)).hasValue(stag.backendPid());
            assertThat(PgAdvisoryLock.holder(observer, otherSchema)).hasValue(other.backendPid());
        }
    }

    @Test
    void the_lock_is_per_database_so_the_same_key_in_another_database_is_free() throws Exception {
        PgServer.Database other = PgServer.get().freshDatabase("lockother");
        try (PgAdvisoryLock here = PgAdvisoryLock.tryAcquire(db.connect(), PROD).orElseThrow();
             PgAdvisoryLock there = PgAdvisoryLock.tryAcquire(other.connect(), PROD).orElseThrow();
             Connection observer = db.connect()) {
            assertThat(PgAdvisoryLock.holder(observer, PROD)).hasValue(here.backendPid());
            assertThat(there.stillHeld()).isTrue();
        }
    }

    /** The pid PostgreSQL reports for the lock's session, read through a second session's view of pg_stat_activity. */
    private int sessionPid(PgAdvisoryLock held) throws SQLException {
        try (Connection c = db.connect();
             PreparedStatement ps = c.prepareStatement("SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                     + " AND application_name = 'PostgreSQL JDBC Driver' AND pid = ?")) {
            ps.setInt(1, held.backendPid());
            try (ResultSet rs = ps.executeQuery()) {
                assertThat(rs.next()).as("the holder's pid is a live session of this database").isTrue();
                return rs.getInt(1);
            }
        }
    }
}
