package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateStoreSerialTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @Test
    void everyStateChangingCallAddsOneToTheSerial() {
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            long[] run = new long[1];
            long[] step = new long[2];
            bumps(store, s -> run[0] = s.startRun("apply", "{\"steps\":[]}", "alice@a", "0.1.0"));
            bumps(store, s -> step[0] = s.journalIntent(run[0], 0, 1, "SET_WORKER_EOS", "connect_cluster.eu", "{}"));
            bumps(store, s -> s.journalDone(step[0], "patched generation 4"));
            bumps(store, s -> step[1] = s.journalIntent(run[0], 1, 2, "WAIT_FOR_ROLL", "connect_cluster.eu", null));
            bumps(store, s -> s.journalFailed(step[1], "timed out"));
            bumps(store, s -> s.finishRun(run[0], RunOutcome.FAILED, "step 2 failed"));
            bumps(store, s -> s.saveResource(ResourceSnapshot.of("connect_cluster.eu", "KafkaConnect", "kafka", "eu", "{}")));
            bumps(store, s -> s.saveResource(ResourceSnapshot.of("connect_cluster.eu", "KafkaConnect", "kafka", "eu", "{\"a\":1}")));
            bumps(store, s -> s.deleteResource("connect_cluster.eu"));
            bumps(store, s -> s.setKubeServer("https://k8s:6443", "kafka"));
            long second = store.startRun("refresh", null, "alice@a", "0.1.0");
            bumps(store, s -> s.markInterrupted(second));
            assertThat(store.stateRef().serial()).isEqualTo(12);
        }
    }

    @Test
    void readsLockingAndNoOpsLeaveTheSerialAlone() {
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            long run = store.startRun("apply", null, "alice@a", "0.1.0");
            store.finishRun(run, RunOutcome.SUCCEEDED, null);
            long before = store.stateRef().serial();

            LockInfo lock = store.lock("apply", "alice@a", "0.1.0");
            store.heartbeat(lock.id());
            store.currentLock();
            store.unlock(lock.id());
            LockInfo again = store.lock("apply", "alice@a", "0.1.0");
            store.forceUnlock(again.id());
            store.runs();
            store.runs(5);
            store.steps(run);
            store.resources();
            store.resource("nope");
            store.interruptedRun();
            store.hashSecret("x");
            assertThat(store.deleteResource("never-saved")).isFalse();
            store.markInterrupted(store.startRun("apply", null, "a@b", "1"));
            long afterInterrupt = store.stateRef().serial();
            store.markInterrupted(store.runs(1).get(0).id()); // already interrupted: no change

            assertThat(before).isEqualTo(2);
            assertThat(afterInterrupt).isEqualTo(before + 2);
            assertThat(store.stateRef().serial()).isEqualTo(afterInterrupt);
        }
    }

    @Test
    void serialSurvivesReopen() {
        String lineage;
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            store.startRun("apply", null, "alice@a", "0.1.0");
            store.setKubeServer("https://k8s:6443", null);
            lineage = store.stateRef().lineage();
            assertThat(store.stateRef().serial()).isEqualTo(2);
        }
        try (StateStore store = StateStore.open(stateDir, "prod", clock)) {
            assertThat(store.stateRef().serial()).isEqualTo(2);
            assertThat(store.stateRef().lineage()).isEqualTo(lineage);
            store.saveResource(ResourceSnapshot.of("a", "KafkaConnect", "kafka", "a", "{}"));
            assertThat(store.stateRef().serial()).isEqualTo(3);
        }
    }

    @Test
    void twoStoresOnTheSameFileShareOneSerial() {
        try (StateStore a = StateStore.open(stateDir, "prod", clock);
             StateStore b = StateStore.open(stateDir, "prod", clock)) {
            a.startRun("apply", null, "alice@a", "0.1.0");
            b.startRun("apply", null, "bob@b", "0.1.0");
            assertThat(a.stateRef()).isEqualTo(b.stateRef());
            assertThat(a.stateRef().serial()).isEqualTo(2);
        }
    }

    private static void bumps(StateStore store, Consumer<StateStore> change) {
        long before = store.stateRef().serial();
        change.accept(store);
        assertThat(store.stateRef().serial()).as("serial after the change").isEqualTo(before + 1);
    }
}
