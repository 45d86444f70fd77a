package dev.flowform.sim;

import java.util.Map;
import java.util.Optional;

/**
 * Which worker pod a KafkaConnect roll handles next, as Strimzi's {@code KafkaConnectRoller} orders them:
 * strictly one pod at a time, first pods that are missing or not Ready (in ordinal order), then pods that
 * are Ready but not on the wanted revision (in ordinal order). Pure.
 */
final class RollOrder {
    private RollOrder() {
    }

    /**
     * What the roller sees of one pod.
     *
     * @param ready    the pod is Ready and not terminating
     * @param onTarget the pod runs the wanted revision (and configuration hash)
     */
    record Pod(boolean ready, boolean onTarget) {
    }

    /**
     * The next step of a roll.
     *
     * @param ordinal      the pod's ordinal
     * @param waitForReady true when the pod already runs the wanted revision and only has to become Ready;
     *                     false when it must be (re-)created
     */
    record Step(int ordinal, boolean waitForReady) {
    }

    /**
     * @param replicas  the wanted number of pods, ordinals {@code 0..replicas-1}
     * @param byOrdinal the pods that exist, by ordinal (others are ignored)
     * @return the next step, or empty when every pod exists, is Ready and runs the wanted revision
     */
    static Optional<Step> next(int replicas, Map<Integer, Pod> byOrdinal) {
        for (int i = 0; i < replicas; i++) {
            Pod p = byOrdinal.get(i);
            if (p == null) {
                return Optional.of(new Step(i, false));
            }
            if (!p.ready()) {
                return Optional.of(new Step(i, p.onTarget()));
            }
        }
        for (int i = 0; i < replicas; i++) {
            if (!byOrdinal.get(i).onTarget()) {
                return Optional.of(new Step(i, false));
            }
        }
        return Optional.empty();
    }
}
