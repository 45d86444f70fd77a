package dev.flowform.run;

import dev.flowform.connect.RealKafka;
import dev.flowform.locking.Sleeper;
import java.time.Duration;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The data-level proof of what a rollout achieves on real Kafka ({@link RealKafka}): transactions written on the
 * source, committed and aborted, counted on the target with {@code read_committed}, in five phases: at-least-once,
 * at-least-once with a worker killed, the rollout, the moment apply returns (docs/domain-rules.md, 8b), exactly-once
 * with a worker killed inside an open transaction; then phase 1 counted again. The phases and why each is there are in
 * docs/exactly-once-proof.md (sources: KIP-618, KAFKA-14021, Kafka's {@code MirrorSourceConnector}).
 */
public final class ExactlyOnceProof {
    /** Transactions written before the crash in the crash phases. */
    public static final int KILL_AFTER = 12;
    /** Transactions written in each crash phase. */
    private static final int CRASH_TRANSACTIONS = 50;
    /**
     * After the last write, how long the crash waits for the task to be caught mid-flight: records of the phase on
     * the target (at-least-once), or a transaction that stays open while the worker is frozen (exactly-once: with
     * {@code transaction.boundary=interval} every interval of replication has one).
     */
    private static final Duration MID_FLIGHT_TIMEOUT = Duration.ofSeconds(60);
    /** How long a worker stays frozen before its transaction is checked again: far longer than a commit in flight. */
    private static final Duration FROZEN_CHECK = Duration.ofMillis(500);
    /**
     * How long the target is read until every committed record is there: long enough for a source task that failed
     * after the kill to be restarted by the operator's {@code autoRestart} at its next periodic reconcile (every
     * 120 s in Strimzi) and catch up. An exactly-once task restarted by the kill asks the Connect leader to fence
     * zombies first, and a leader that has just joined refuses that until it has read the session key, which leaves
     * the task FAILED ({@code DistributedHerder.fenceZombieSourceTasks}).
     */
    private static final Duration COUNT_TIMEOUT = Duration.ofSeconds(240);
    /** Longer than the real runtime's offset.flush.interval.ms (10 s). */
    private static final Duration FLUSH_WAIT = Duration.ofSeconds(11);

    private final RealKafka kafka;
    private final Flow flow;
    private final Consumer<String> crash;
    private final ProveHooks hooks;
    private final Sleeper sleeper;

    /**
     * @param kafka   the real Kafka behind the embedded cluster
     * @param flow    where the flow reads and writes, and which connector runs it
     * @param crash   crashes the worker of a pod ({@code namespace/podName}) and restarts its container
     * @param hooks   where progress and the summary go
     * @param sleeper every pause of the proof
     */
    ExactlyOnceProof(RealKafka kafka, Flow flow, Consumer<String> crash, ProveHooks hooks, Sleeper sleeper) {
        this.kafka = kafka;
        this.flow = flow;
        this.crash = crash;
        this.hooks = hooks;
        this.sleeper = sleeper;
    }

    /**
     * Runs the phases; {@code rollout} runs between the at-least-once and the exactly-once phases.
     *
     * @param rollout runs flowform's plan and apply; returns false when they failed (the proof stops)
     * @return the counts of every phase, or null when the rollout failed
     */
    Report run(BooleanSupplier rollout) {
        hooks.phase("Phase 1: at-least-once flow, 13 transactions of 100 records (3 aborted) on " + flow.sourceAlias()
                + "/" + flow.topic());
        RealKafka.Produced p1 = kafka.write(flow.sourceAlias(), flow.topic(), "p1", 13, 100, 4, tx -> { });
        RealKafka.Counted t1 = count("p1", p1, true);
        hooks.counted("p1", p1, t1);
        hooks.awaitingOffsetCommit(FLUSH_WAIT);
        pause(FLUSH_WAIT);

        hooks.phase("Phase 2: at-least-once flow, 50 transactions of 50 records (10 aborted), the worker running the "
                + "source task killed (SIGKILL) from transaction " + KILL_AFTER + " on, once records of the phase "
                + "reached the target");
        RealKafka.Produced p2 = writeWithCrash("p2", false);
        RealKafka.Counted t2 = count("p2", p2, true);
        hooks.counted("p2", p2, t2);

        hooks.phase("Phase 3: flowform plan and apply");
        if (!rollout.getAsBoolean()) {
            return null;
        }
        hooks.phase("Phase 4: the moment apply returned, 100 transactions of 10 records (50 aborted), no pause");
        RealKafka.Produced now = kafka.write(flow.sourceAlias(), flow.topic(), "p4", 100, 10, 2, Duration.ZERO, tx -> { });
        RealKafka.Counted tNow = count("p4", now, true);
        hooks.counted("p4", now, tNow);

        hooks.phase("Phase 5: exactly-once flow, the same writes as phase 2; the worker is killed inside an open "
                + "transaction of a source task");
        RealKafka.Produced p3 = writeWithCrash("p5", true);
        RealKafka.Counted t3 = count("p5", p3, true);
        hooks.counted("p5", p3, t3);
        RealKafka.Counted t3u = kafka.count(flow.targetAlias(), flow.targetTopic(), "p5", p3.committed(), false,
                Duration.ofSeconds(10));
        hooks.countedUncommitted(t3u);

        RealKafka.Counted t1again = count("p1", p1, true);
        hooks.countedAgain(t1again);
        Report r = new Report(p1, t1, p2, t2, now, tNow, p3, t3, t3u, t1again);
        hooks.summary(r);
        return r;
    }

    /** Sleeps; returns false when interrupted (the interrupt flag is set again). */
    private boolean pause(Duration d) {
        try {
            sleeper.sleep(d);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Writes the crash phase's transactions; from transaction {@link #KILL_AFTER} on, after each one, kills the
     * worker running the source task as soon as it is caught mid-flight, and after the last one waits up to
     * {@link #MID_FLIGHT_TIMEOUT} for that.
     */
    private RealKafka.Produced writeWithCrash(String phase, boolean exactlyOnce) {
        long before = kafka.endOffset(flow.targetAlias(), flow.targetTopic());
        String[] killed = {null};
        RealKafka.Produced produced = kafka.write(flow.sourceAlias(), flow.topic(), phase, CRASH_TRANSACTIONS, 50, 5, tx -> {
            if (tx < KILL_AFTER || killed[0] != null) {
                return;
            }
            long deadline = System.nanoTime() + (tx == CRASH_TRANSACTIONS ? MID_FLIGHT_TIMEOUT.toNanos() : 0);
            do {
                killed[0] = exactlyOnce ? killInsideTransaction() : killAfterReplication(before);
            } while (killed[0] == null && System.nanoTime() < deadline && pause(Duration.ofMillis(20)));
        });
        if (killed[0] == null) {
            throw new IllegalStateException("the source task of " + flow.sourceConnector() + " was not seen "
                    + (exactlyOnce ? "with an open transaction" : "replicating") + " within "
                    + MID_FLIGHT_TIMEOUT.toSeconds() + " s of the last write, so the crash could not be staged");
        }
        return produced;
    }

    /** Kills the task's worker if records written since {@code before} are on the target; returns its pod or null. */
    private String killAfterReplication(long before) {
        long now = kafka.endOffset(flow.targetAlias(), flow.targetTopic());
        if (now <= before) {
            return null;
        }
        String pod = kafka.podOfTask(flow.cluster(), flow.sourceConnector(), 0);
        crash.accept(pod);
        killedAt(pod, (now - before) + " records of the phase on the target");
        return pod;
    }

    /**
     * Kills a task's worker inside an open transaction: once the target topic has one, freezes the worker of the task
     * whose transactional id it is ({@code <group.id>-<connector>-<task>}, KIP-618), and kills it if that transaction
     * is still open after {@link #FROZEN_CHECK}, otherwise thaws it. Returns the pod or null.
     */
    private String killInsideTransaction() {
        Optional<String> open = kafka.openTransaction(flow.targetAlias(), flow.targetTopic());
        if (open.isEmpty()) {
            return null;
        }
        String pod = kafka.podOfTask(flow.cluster(), flow.sourceConnector(), taskOf(open.get()));
        kafka.freezeWorker(pod, true);
        pause(FROZEN_CHECK);
        if (!kafka.ongoing(flow.targetAlias(), open.get())) {
            kafka.freezeWorker(pod, false);
            return null;
        }
        // killed here, not by the kubelet: a frozen worker holds any REST call the simulated operator makes to it
        // (and so the kubelet's crash, which runs on the operator's thread) until that call's 60 s timeout
        kafka.runtime().stopWorker(pod, true);
        crash.accept(pod);
        killedAt(pod, "transaction " + open.get() + " still open after " + FROZEN_CHECK.toMillis()
                + " ms frozen (SIGSTOP)");
        return pod;
    }

    /** @return the task number at the end of a source task's transactional id ({@code <group.id>-<connector>-<task>}) */
    static int taskOf(String transactionalId) {
        return Integer.parseInt(transactionalId.substring(transactionalId.lastIndexOf('-') + 1));
    }

    private void killedAt(String pod, String why) {
        hooks.killed(pod, LocalTime.now().truncatedTo(ChronoUnit.MILLIS), why);
    }

    private RealKafka.Counted count(String phase, RealKafka.Produced produced, boolean readCommitted) {
        return kafka.count(flow.targetAlias(), flow.targetTopic(), phase, produced.committed(), readCommitted, COUNT_TIMEOUT);
    }

    /**
     * Where the flow under test reads and writes.
     *
     * @param cluster         {@code namespace/KafkaConnect name}
     * @param sourceConnector the MirrorSourceConnector's name
     * @param sourceAlias     source cluster alias
     * @param targetAlias     target cluster alias
     * @param topic           the source topic
     */
    public record Flow(String cluster, String sourceConnector, String sourceAlias, String targetAlias, String topic) {
        /** @return the replicated topic under MirrorMaker 2's {@code DefaultReplicationPolicy}: {@code <source>.<topic>} */
        public String targetTopic() {
            return sourceAlias + "." + topic;
        }
    }

    /**
     * The counts of every phase.
     *
     * @param p1      phase 1 produced
     * @param t1      phase 1 on the target
     * @param p2      phase 2 produced
     * @param t2      phase 2 on the target
     * @param pNow    phase 4 (the moment apply returned) produced
     * @param tNow    phase 4 on the target
     * @param p3      phase 5 produced
     * @param t3      phase 5 on the target, read_committed
     * @param t3u     phase 5 on the target, read_uncommitted
     * @param t1again phase 1 on the target at the end
     */
    public record Report(RealKafka.Produced p1, RealKafka.Counted t1, RealKafka.Produced p2, RealKafka.Counted t2,
                  RealKafka.Produced pNow, RealKafka.Counted tNow, RealKafka.Produced p3, RealKafka.Counted t3,
                  RealKafka.Counted t3u, RealKafka.Counted t1again) {
        /**
         * @return true when both exactly-once phases have every committed record once, no aborted one, no duplicate,
         *         and the switch replicated nothing of phase 1 again
         */
        public boolean holds() {
            return exact(pNow, tNow) && exact(p3, t3) && t1again.equals(t1);
        }

        /**
         * @return true when the contrast phases show what they are for: at-least-once copied aborted records, its crash
         *         made duplicates, and the exactly-once crash cut an open transaction (copies under read_uncommitted)
         */
        public boolean contrastShown() {
            return t1.aborted() > 0 && t2.duplicates() > 0 && t3u.duplicates() > 0;
        }

        private static boolean exact(RealKafka.Produced p, RealKafka.Counted t) {
            return t.committed() == p.committed() && t.duplicates() == 0 && t.aborted() == 0;
        }
    }
}
