package dev.flowform.run;

import dev.flowform.connect.RealKafka;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;

/**
 * What {@link ProveOperation} and {@link ExactlyOnceProof} tell their view while they work; the view prints, the
 * operation does not. Durations are measured from the start of the operation.
 */
public interface ProveHooks {

    /**
     * The Kafka clusters are about to start.
     *
     * @param aliases the cluster aliases, in declaration order
     * @param work    the working folder of this run
     */
    void kafkaStarting(List<String> aliases, Path work);

    /**
     * The Kafka clusters run; the embedded operator now starts the Connect workers.
     *
     * @param elapsed    since the start
     * @param workerLogs where the worker logs are written
     */
    void kafkaUp(Duration elapsed, Path workerLogs);

    /**
     * Not every connector runs yet (reported every 10 s while waiting).
     *
     * @param running    KafkaConnectors running
     * @param connectors KafkaConnectors in the namespace
     * @param mm2Running KafkaMirrorMaker2s with every connector running
     * @param mm2s       KafkaMirrorMaker2s in the namespace
     * @param waiting    one line per resource that does not run yet, saying why
     */
    void settling(long running, int connectors, long mm2Running, int mm2s, List<String> waiting);

    /**
     * Every connector runs.
     *
     * @param elapsed since the start
     */
    void connectorsRunning(Duration elapsed);

    /**
     * A phase of the proof begins.
     *
     * @param headline what the phase does, e.g. {@code Phase 3: flowform plan and apply}
     */
    void phase(String headline);

    /**
     * The proof waits for the at-least-once task to commit its offsets before the crash.
     *
     * @param wait how long
     */
    void awaitingOffsetCommit(Duration wait);

    /**
     * A worker was killed (SIGKILL); its container restarts.
     *
     * @param pod {@code namespace/podName}
     * @param at  the local time of the kill
     * @param why what the kill waited for
     */
    void killed(String pod, LocalTime at, String why);

    /**
     * A phase's records were counted on the target (read_committed).
     *
     * @param phase    the phase's record prefix, e.g. {@code p1}
     * @param produced what was written on the source
     * @param counted  what the target holds
     */
    void counted(String phase, RealKafka.Produced produced, RealKafka.Counted counted);

    /**
     * The exactly-once crash phase read with read_uncommitted.
     *
     * @param counted what the target holds, copies from the killed task's unfinished transaction as duplicates
     */
    void countedUncommitted(RealKafka.Counted counted);

    /**
     * Phase 1 counted again at the end.
     *
     * @param counted what the target holds of it now
     */
    void countedAgain(RealKafka.Counted counted);

    /**
     * The proof ran to the end.
     *
     * @param report the counts of every phase
     */
    void summary(ExactlyOnceProof.Report report);

    /**
     * The operation is over (also after a failed rollout).
     *
     * @param elapsed since the start
     */
    void done(Duration elapsed);
}
