package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.flowform.locking.Sleeper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The holder of an H2 state file that does not answer, played in-process by a socket that never accepts (what a
 * stopped process's listening socket does): opening the state fails within {@link H2FileHolder#ANSWER_WITHIN} naming
 * the process and the lock it holds, a lock wait keeps asking it and goes on as soon as it answers, and a stop request
 * ends the wait.
 */
class H2FileHolderTest {

    @TempDir
    Path stateDir;

    @Test
    void a_holder_that_does_not_answer_is_refused_naming_its_process_and_its_lock() throws IOException {
        LockInfo held = lockLeftInTheFile();
        try (ServerSocket silent = silentServer()) {
            holdWith(silent);

            HolderNotAnsweringException e = catchThrowableOfType(HolderNotAnsweringException.class,
                    () -> StateStore.open(stateDir, "prod", Clock.systemUTC()));

            assertThat(e.getMessage()).contains(StateStore.databaseFile(stateDir, "prod").toString(), "does not answer");
            assertThat(e.process()).as("this JVM listens on the socket").hasValueSatisfying(p -> {
                assertThat(p.pid()).isEqualTo(ProcessHandle.current().pid());
                assertThat(p.isStopped()).isFalse();
            });
            assertThat(e.lock()).as("read from a copy of the file").contains(held);
            assertThat(e.lockDetails(Clock.systemUTC())).hasValueSatisfying(d -> assertThat(d).contains("ID:        "
                    + held.id(), "Who:       alice@laptop"));
            assertThat(e.waited()).isZero();
        }
    }

    @Test
    void a_lock_wait_keeps_asking_the_holder_and_gives_up_when_the_timeout_ends() throws Exception {
        lockLeftInTheFile();
        List<LockInfo> waitedFor = new ArrayList<>();
        try (ServerSocket silent = silentServer()) {
            holdWith(silent);

            HolderNotAnsweringException e = catchThrowableOfType(HolderNotAnsweringException.class,
                    () -> StateLockTable.openLocked(() -> StateStore.open(stateDir, "prod", Clock.systemUTC()), request(),
                            Duration.ofSeconds(3), Clock.systemUTC(), Sleeper.SYSTEM, listener(waitedFor)));

            assertThat(e.waited()).isGreaterThanOrEqualTo(Duration.ofSeconds(3)).isLessThan(Duration.ofSeconds(4));
            assertThat(e.getMessage()).contains("(waited 3s)");
            assertThat(waitedFor).extracting(LockInfo::who).containsExactly("alice@laptop");
        }
    }

    @Test
    void a_lock_wait_goes_on_as_soon_as_the_holder_answers_again() throws Exception {
        StateStore.open(stateDir, "prod", Clock.systemUTC()).close();
        ServerSocket silent = silentServer();
        holdWith(silent);
        CompletableFuture<StateLockTable.Locked> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return StateLockTable.openLocked(() -> StateStore.open(stateDir, "prod", Clock.systemUTC()), request(),
                        Duration.ofMinutes(5), Clock.systemUTC(), Sleeper.SYSTEM, StateLockTable.Listener.NONE);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(H2FileHolder.ANSWER_WITHIN.plusSeconds(1).toMillis());
        assertThat(waiting).as("the holder does not answer").isNotDone();

        silent.close(); // the holder ends: its socket refuses the connection waiting in its backlog

        StateLockTable.Locked locked = waiting.get(30, TimeUnit.SECONDS);
        try (StateStore store = locked.store(); HeldStateLock lock = locked.lock()) {
            assertThat(store.lockTable().current()).hasValueSatisfying(l -> assertThat(l.who()).isEqualTo("bob@ci"));
        }
    }

    @Test
    void a_stop_request_ends_the_wait_for_a_holder_that_does_not_answer() throws Exception {
        lockLeftInTheFile();
        try (ServerSocket silent = silentServer()) {
            holdWith(silent);
            Thread waiter = Thread.currentThread();
            CompletableFuture.runAsync(() -> {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
                waiter.interrupt();
            });
            long start = System.nanoTime();

            StateStoreException e = catchThrowableOfType(StateStoreException.class,
                    () -> StateStore.open(stateDir, "prod", Clock.systemUTC(), Sleeper.SYSTEM));

            assertThat(e).hasMessageContaining("interrupted while asking the process that holds");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(H2FileHolder.ANSWER_WITHIN);
            assertThat(Thread.interrupted()).isTrue();
        }
    }

    /** @return a lock taken by someone else, left in the closed file */
    private LockInfo lockLeftInTheFile() {
        try (StateStore store = StateStore.open(stateDir, "prod", Clock.systemUTC())) {
            return store.lockTable().lock("apply", "alice@laptop", "0.1.0");
        }
    }

    /** A listening socket that never accepts: connections wait in its backlog, as with a stopped process. */
    private static ServerSocket silentServer() throws IOException {
        return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** Writes the lock file H2 leaves while it serves the file, naming {@code server} (old enough for H2 to trust). */
    private void holdWith(ServerSocket server) throws IOException {
        Path lockFile = stateDir.resolve("prod").resolve(StateStore.DATABASE_NAME + ".lock.db");
        Files.writeString(lockFile, "#FileLock\nserver=localhost\\:" + server.getLocalPort() + "\nhostName=localhost\n"
                + "method=socket\nport=1\nipAddress=localhost\nid=1a2b3c\n");
        Files.setLastModifiedTime(lockFile, FileTime.from(Instant.now().minusSeconds(60)));
    }

    private static StateLockTable.Request request() {
        return new StateLockTable.Request("apply", "bob@ci", "0.1.0", null);
    }

    private static StateLockTable.Listener listener(List<LockInfo> waitedFor) {
        return new StateLockTable.Listener() {
            @Override
            public void waiting(LockInfo holder) {
                waitedFor.add(holder);
            }
        };
    }
}
