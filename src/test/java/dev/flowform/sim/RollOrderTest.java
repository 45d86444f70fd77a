package dev.flowform.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link RollOrder} follows Strimzi's KafkaConnectRoller: missing or unready pods first, then ordinal order. */
class RollOrderTest {
    private static final RollOrder.Pod READY_NEW = new RollOrder.Pod(true, true);
    private static final RollOrder.Pod READY_OLD = new RollOrder.Pod(true, false);
    private static final RollOrder.Pod STARTING_NEW = new RollOrder.Pod(false, true);
    private static final RollOrder.Pod STARTING_OLD = new RollOrder.Pod(false, false);

    @Test
    void rollsReadyPodsInOrdinalOrder() {
        assertThat(RollOrder.next(3, Map.of(0, READY_OLD, 1, READY_OLD, 2, READY_OLD)))
                .contains(new RollOrder.Step(0, false));
        assertThat(RollOrder.next(3, Map.of(0, READY_NEW, 1, READY_OLD, 2, READY_OLD)))
                .contains(new RollOrder.Step(1, false));
    }

    @Test
    void missingAndUnreadyPodsComeFirst() {
        assertThat(RollOrder.next(3, Map.of(0, READY_OLD, 2, READY_OLD))).contains(new RollOrder.Step(1, false));
        assertThat(RollOrder.next(3, Map.of(0, READY_OLD, 1, READY_OLD, 2, STARTING_OLD)))
                .contains(new RollOrder.Step(2, false));
    }

    @Test
    void anUnreadyPodOnTheNewRevisionIsOnlyWaitedFor() {
        assertThat(RollOrder.next(3, Map.of(0, READY_OLD, 1, STARTING_NEW, 2, READY_OLD)))
                .contains(new RollOrder.Step(1, true));
    }

    @Test
    void doneWhenEveryWantedPodIsReadyOnTheNewRevision() {
        assertThat(RollOrder.next(2, Map.of(0, READY_NEW, 1, READY_NEW, 5, STARTING_OLD))).isEmpty();
        assertThat(RollOrder.next(0, Map.of())).isEmpty();
    }
}
