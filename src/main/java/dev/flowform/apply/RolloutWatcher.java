package dev.flowform.apply;

import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Readiness;
import java.time.Duration;

/** Port: waits for the operator to finish a roll or a connector change. */
public interface RolloutWatcher {

    /** Receives progress while a wait runs. */
    @FunctionalInterface
    interface Progress {
        /**
         * @param state   the latest evaluation (in progress)
         * @param elapsed time since the wait started
         */
        void report(Readiness state, Duration elapsed);
    }

    /**
     * Waits until rule 7 holds for the KafkaConnect at {@code generation} (see {@link dev.flowform.plan.rules.RollCheck}).
     *
     * @param generation   the generation the awaited patch produced
     * @param expectedMode the EOS mode the workers must run with
     * @param timeout      give up after this long
     * @param progress     called when the state changes and at least every 10 seconds
     * @return {@link Readiness.Complete}, {@link Readiness.Failed}, {@link Readiness.Paused} or {@link Readiness.TimedOut}
     * @throws InterruptedException when the thread is interrupted (Ctrl-C)
     */
    Readiness awaitRoll(ObjectRef ref, long generation, EosMode expectedMode, Duration timeout, Progress progress)
            throws InterruptedException;

    /**
     * Waits until a forced roll of a KafkaMirrorMaker2 is over ({@link dev.flowform.plan.rules.ForcedRoll#evaluate}):
     * the StrimziPodSet's {@code strimzi.io/manual-rolling-update} is gone, every pod was created no earlier than
     * {@code annotatedAt} and is Ready, the ConfigMap holds {@code expectedMode} and the resource is Ready.
     *
     * @param ref          the KafkaMirrorMaker2
     * @param annotatedAt  when the annotation was set, or null when not known (then its removal is the evidence)
     * @param expectedMode the EOS mode the workers must run with
     * @param timeout      give up after this long
     * @param progress     called when the state changes and at least every 10 seconds
     * @return complete, failed, paused or timed out
     * @throws InterruptedException when the thread is interrupted (Ctrl-C)
     */
    Readiness awaitForcedRoll(ObjectRef ref, java.time.Instant annotatedAt, EosMode expectedMode, Duration timeout,
                              Progress progress) throws InterruptedException;

    /**
     * Waits until rule 8 holds for the KafkaConnector at {@code generation} (see {@link dev.flowform.plan.rules.ConnectorCheck}).
     *
     * @param generation    the generation the awaited change produced
     * @param expectedState {@code RUNNING}, {@code PAUSED} or {@code STOPPED}
     * @param timeout       give up after this long
     * @param progress      called when the state changes and at least every 10 seconds
     * @return complete, failed or timed out
     * @throws InterruptedException when the thread is interrupted (Ctrl-C)
     */
    Readiness awaitConnector(ObjectRef ref, long generation, String expectedState, Duration timeout, Progress progress)
            throws InterruptedException;
}
