package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/** Telling a lock holder that is gone from one that runs, or runs elsewhere. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ProcessIdentityTest {

    @Test
    void this_process_is_not_gone_and_survives_encoding() {
        ProcessIdentity me = ProcessIdentity.current();

        assertThat(me.isGoneFromThisMachine()).isFalse();
        assertThat(ProcessIdentity.decode(me.encode())).contains(me.started() == null ? me
                : new ProcessIdentity(me.pid(), me.machine(), Instant.ofEpochMilli(me.started().toEpochMilli())));
        assertThat(me.describe()).startsWith("process " + ProcessHandle.current().pid() + " on ");
    }

    @Test
    void a_process_that_exited_is_gone() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("java", "-version").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor();
        ProcessIdentity dead = new ProcessIdentity(p.pid(), ProcessIdentity.thisMachine(), null);

        assertThat(dead.isGoneFromThisMachine()).isTrue();
    }

    @Test
    void a_reused_pid_with_another_start_time_is_gone() {
        ProcessIdentity me = ProcessIdentity.current();
        ProcessIdentity earlier = new ProcessIdentity(me.pid(), me.machine(), Instant.EPOCH);

        assertThat(earlier.isGoneFromThisMachine()).isEqualTo(me.started() != null);
    }

    @Test
    void a_process_on_another_machine_is_never_judged() {
        ProcessIdentity elsewhere = new ProcessIdentity(999_999_999L, "other-host/boot/pid:[1]", null);

        assertThat(elsewhere.isGoneFromThisMachine()).isFalse();
        assertThat(elsewhere.describe()).isEqualTo("process 999999999 on other-host");
    }

    @Test
    void foreign_text_does_not_decode() {
        assertThat(ProcessIdentity.decode(null)).isEmpty();
        assertThat(ProcessIdentity.decode("pid 42")).isEmpty();
        assertThat(ProcessIdentity.decode("x|1|m")).isEmpty();
    }

    @Test
    void a_lock_records_its_holder_process() {
        try (StateStore store = StateStore.inMemory("dev", Clock.systemUTC())) {
            LockInfo lock = store.lockTable().lock("apply", "me@here", "test");

            assertThat(lock.holderProcess()).map(ProcessIdentity::pid).contains(ProcessHandle.current().pid());
            assertThat(store.lockTable().current()).map(LockInfo::process).contains(lock.process());
            assertThat(lock.isHolderGone()).isFalse();
        }
    }

    @Test
    void a_held_lock_names_the_process_by_pid_and_the_session_apart_from_it() {
        ProcessIdentity holder = new ProcessIdentity(4242L, "ci-7/boot/pid:[1]", null);
        LockInfo pg = new LockInfo("id-1", "prod", "apply", "me@ci-7", "0.1.0", Instant.EPOCH, Instant.EPOCH, null,
                holder.encode(), 77);

        String message = new LockHeldException(pg, Duration.ofSeconds(5), Duration.ofSeconds(1), Duration.ZERO).getMessage();

        assertThat(message).contains("  Process:   pid 4242 on ci-7\n", "  Session:   PostgreSQL server process 77\n")
                .doesNotContain("Process:   process");
    }
}
