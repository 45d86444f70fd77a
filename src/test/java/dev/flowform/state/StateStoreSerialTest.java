package dev.flowform.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

class StateStoreSerialTest {

    private final MutableClock clock = MutableClock.at("2026-03-01T10:00:00Z");

    @TempDir
    Path stateDir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void everyStateChangingCallAddsOneToTheSerial(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            long[] run = new long[1];
            long[] step = new long[2];
            bumps(store, s -> run[0] = s.journal().startRun("apply", "{\"steps\":[]}", "alice@a", "0.1.0"));
            bumps(store, s -> step[0] = s.journal().intent(run[0], 0, 1, "SET_WORKER_EOS", "connect_cluster.eu", "{}"));
            bumps(store, s -> s.journal().done(step[0], "patched generation 4"));
            bumps(store, s -> step[1] = s.journal().intent(run[0], 1, 2, "WAIT_FOR_ROLL", "connect_cluster.eu", null));
            bumps(store, s -> s.journal().failed(step[1], "timed out"));
            bumps(store, s -> s.journal().finishRun(run[0], RunOutcome.FAILED, "step 2 failed"));
            bumps(store, s -> s.snapshots().save(ResourceSnapshot.of("connect_cluster.eu", "KafkaConnect", "kafka", "eu", "{}")));
            bumps(store, s -> s.snapshots().save(ResourceSnapshot.of("connect_cluster.eu", "KafkaConnect", "kafka", "eu", "{\"a\":1}")));
            bumps(store, s -> s.snapshots().delete("connect_cluster.eu"));
            bumps(store, s -> s.setKubeServer("https://k8s:6443", "kafka"));
            long second = store.journal().startRun("refresh", null, "alice@a", "0.1.0");
            bumps(store, s -> s.journal().markInterrupted(second));
            assertThat(store.stateRef().serial()).isEqualTo(12);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void readsLockingAndNoOpsLeaveTheSerialAlone(StatePlace place) {
        try (StateStore store = place.open("prod", clock)) {
            long run = store.journal().startRun("apply", null, "alice@a", "0.1.0");
            store.journal().finishRun(run, RunOutcome.SUCCEEDED, null);
            long before = store.stateRef().serial();

            LockInfo lock = store.lockTable().lock("apply", "alice@a", "0.1.0");
            store.lockTable().heartbeat(lock.id());
            store.lockTable().current();
            store.lockTable().unlock(lock.id());
            LockInfo again = store.lockTable().lock("apply", "alice@a", "0.1.0");
            store.lockTable().forceUnlock(again.id());
            store.journal().runs();
            store.journal().runs(5);
            store.journal().steps(run);
            store.snapshots().all();
            store.snapshots().get("nope");
            store.journal().interruptedRun();
            store.cipher().hash("x");
            assertThat(store.snapshots().delete("never-saved")).isFalse();
            store.journal().markInterrupted(store.journal().startRun("apply", null, "a@b", "1"));
            long afterInterrupt = store.stateRef().serial();
            store.journal().markInterrupted(store.journal().runs(1).get(0).id()); // already interrupted: no change

            assertThat(before).isEqualTo(2);
            assertThat(afterInterrupt).isEqualTo(before + 2);
            assertThat(store.stateRef().serial()).isEqualTo(afterInterrupt);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void serialSurvivesReopen(StatePlace place) {
        String lineage;
        try (StateStore store = place.open("prod", clock)) {
            store.journal().startRun("apply", null, "alice@a", "0.1.0");
            store.setKubeServer("https://k8s:6443", null);
            lineage = store.stateRef().lineage();
            assertThat(store.stateRef().serial()).isEqualTo(2);
        }
        try (StateStore store = place.open("prod", clock)) {
            assertThat(store.stateRef().serial()).isEqualTo(2);
            assertThat(store.stateRef().lineage()).isEqualTo(lineage);
            store.snapshots().save(ResourceSnapshot.of("a", "KafkaConnect", "kafka", "a", "{}"));
            assertThat(store.stateRef().serial()).isEqualTo(3);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.flowform.state.StatePlace#both")
    void twoStoresOnTheSameFileShareOneSerial(StatePlace place) {
        try (StateStore a = place.open("prod", clock);
             StateStore b = place.open("prod", clock)) {
            a.journal().startRun("apply", null, "alice@a", "0.1.0");
            b.journal().startRun("apply", null, "bob@b", "0.1.0");
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
