package dev.flowform.connect;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * Real Apache Kafka behind the embedded cluster: embedded single-node clusters, the real {@link ConnectRuntime} on
 * them, and the data-level tools of the proof (transactional writer, counting reader, where a task runs); implemented
 * in {@code dev.flowform.kafka}, loaded on demand ({@link #start(Map, Map, Path)}).
 */
public interface RealKafka extends AutoCloseable {

    /** {@link #start(Map, Map, Map, Path)} with one partition per topic. */
    static RealKafka start(Map<String, List<String>> addresses, Map<String, List<String>> topics, Path dir) {
        return start(addresses, topics, Map.of(), dir);
    }

    /**
     * Like {@link #start(Map, Map, Path)}, with the number of partitions of each cluster's topics.
     *
     * @param addresses  alias to the bootstrap addresses that cluster answers for ({@code host:port})
     * @param topics     alias to the topics to create
     * @param partitions alias to the number of partitions of its topics (absent: 1)
     * @param dir        working folder
     * @return the running environment; close it to stop everything
     * @throws ConnectRuntimeException when the Kafka libraries cannot be found or a broker does not start
     */
    static RealKafka start(Map<String, List<String>> addresses, Map<String, List<String>> topics,
                           Map<String, Integer> partitions, Path dir) {
        return start(addresses, topics, partitions, java.util.Set.of(), dir);
    }

    /**
     * Like {@link #start(Map, Map, Map, Path)}, with some clusters secured as production clusters are: a
     * {@code SASL_PLAINTEXT} listener with {@code SCRAM-SHA-512} and KRaft's {@code StandardAuthorizer} (no ACL, no
     * access). Workers that authenticate (Strimzi's {@code spec.authentication}) reach such a cluster on that listener;
     * connector configurations and this interface's own clients use its PLAINTEXT listener, whose anonymous principal
     * is a super user.
     *
     * @param secured the aliases to start secured
     * @see #start(Map, Map, Map, Path) the other parameters, the result and the errors
     */
    static RealKafka start(Map<String, List<String>> addresses, Map<String, List<String>> topics,
                           Map<String, Integer> partitions, java.util.Set<String> secured, Path dir) {
        return KafkaRuntimeLoader.newInstance("dev.flowform.kafka.KafkaEnvironment", RealKafka.class,
                new Class<?>[] {Map.class, Map.class, Map.class, java.util.Set.class, Path.class}, addresses, topics,
                partitions, secured, dir);
    }

    /**
     * Does on a secured cluster what Strimzi's User Operator does for a KafkaUser with {@code scram-sha-512}
     * authentication and {@code simple} authorization: sets the user's SCRAM-SHA-512 credential
     * ({@code Admin.alterUserScramCredentials}) and makes the user's ACLs exactly {@code acls} (creating the missing
     * ones, deleting the others), then waits until the broker's authorizer serves them.
     *
     * @param alias    a secured cluster
     * @param user     the user name (principal {@code User:<user>})
     * @param password the SCRAM password
     * @param acls     the KafkaUser's {@code spec.authorization.acls}
     * @throws IllegalStateException when the broker refuses or does not answer
     */
    void applyUser(String alias, String user, String password, List<dev.flowform.model.KafkaAcl> acls);

    /** @return the Connect runtime whose workers run against these clusters */
    ConnectRuntime runtime();

    /**
     * @param alias a cluster alias
     * @return {@code 127.0.0.1:<port>} of that embedded cluster
     */
    String bootstrapServers(String alias);

    /** @return the folder holding the worker logs */
    Path workerLogDir();

    /**
     * Writes transactions of records {@code <phase>-c-<n>} (committed) and {@code <phase>-a-<n>} (aborted)
     * with one transactional producer, about 100 ms apart; an aborted transaction is flushed before it is
     * aborted, so its records reach the log. The records of each transaction go to every partition in turn.
     *
     * @param alias         the source cluster
     * @param topic         the topic
     * @param phase         a prefix that tells this batch from others
     * @param transactions  how many transactions
     * @param perTransaction records per transaction
     * @param abortEvery    every n-th transaction (n, 2n, ...) is aborted; 0 for none
     * @param afterEach     called with the 1-based number of each finished transaction (for a crash mid-way)
     * @return what was committed and aborted
     */
    default Produced write(String alias, String topic, String phase, int transactions, int perTransaction, int abortEvery,
                           IntConsumer afterEach) {
        return write(alias, topic, phase, transactions, perTransaction, abortEvery, Duration.ofMillis(100), afterEach);
    }

    /**
     * {@link #write(String, String, String, int, int, int, IntConsumer)} with the given {@code pause} after each
     * transaction (zero for none).
     */
    Produced write(String alias, String topic, String phase, int transactions, int perTransaction, int abortEvery,
                   Duration pause, IntConsumer afterEach);

    /**
     * Reads a topic from the beginning until {@code expected} distinct committed records of {@code phase} were
     * seen and nothing new arrived for 3 s, or {@code timeout} passed.
     *
     * @param alias         the target cluster
     * @param topic         the replicated topic ({@code dc1.orders} under MirrorMaker 2's default policy)
     * @param phase         the phase prefix
     * @param expected      distinct committed records expected
     * @param readCommitted true for {@code isolation.level=read_committed}
     * @param timeout       how long to wait at most
     * @return the counts
     */
    Counted count(String alias, String topic, String phase, int expected, boolean readCommitted, Duration timeout);

    /**
     * The end offset of a topic as a {@code read_uncommitted} reader sees it (the high watermark), summed over its
     * partitions: grows as soon as a record is written, committed or not.
     *
     * @param alias the cluster
     * @param topic the topic
     * @return the sum of the partitions' high watermarks; 0 when the topic does not exist yet
     * @throws IllegalStateException when the broker does not answer within 10 s
     */
    long endOffset(String alias, String topic);

    /**
     * The transaction that is open ({@code ONGOING} on its transaction coordinator) and has written to a topic, as
     * the Admin API's {@code listTransactions} and {@code describeTransactions} report it (KIP-664).
     *
     * @param alias the cluster
     * @param topic the topic
     * @return the transactional id of such a transaction, or empty when none is open
     * @throws IllegalStateException when the broker does not answer within 10 s
     */
    Optional<String> openTransaction(String alias, String topic);

    /**
     * @param alias           the cluster
     * @param transactionalId a transactional id
     * @return true when that id's transaction is {@code ONGOING} on its coordinator (Admin {@code describeTransactions})
     * @throws IllegalStateException when the broker does not answer within 10 s
     */
    boolean ongoing(String alias, String transactionalId);

    /**
     * {@code GET /connectors/{name}/tasks}: the task configurations Kafka Connect has stored for a connector, from which
     * its tasks are started (a stopped connector has none, KIP-875).
     *
     * @param cluster   {@code namespace/KafkaConnect name}
     * @param connector the connector
     * @return each task's configuration by task id; empty when no worker answers or the connector does not exist
     */
    Optional<List<Map<String, String>>> taskConfigs(String cluster, String connector);

    /**
     * Freezes or thaws the worker process of a pod with SIGSTOP / SIGCONT: a frozen worker sends nothing, so a
     * transaction it has open stays open (until it is killed, or its {@code transaction.timeout.ms} passes).
     *
     * @param pod    {@code namespace/podName}
     * @param frozen true for SIGSTOP, false for SIGCONT
     * @throws IllegalStateException when the pod has no worker process or the signal cannot be sent
     */
    void freezeWorker(String pod, boolean frozen);

    /**
     * Finds the pod whose worker runs a task, as {@code GET /connectors/{name}/status} reports it.
     *
     * @param cluster   {@code namespace/KafkaConnect name}
     * @param connector the connector
     * @param task      the task id
     * @return the pod, {@code namespace/podName}
     * @throws IllegalStateException when the task is not running on a known worker
     */
    String podOfTask(String cluster, String connector, int task);

    /** Stops the workers and the Kafka clusters. */
    @Override
    void close();

    /**
     * What a writer produced.
     *
     * @param committed records in committed transactions
     * @param aborted   records in aborted transactions
     */
    record Produced(int committed, int aborted) {
    }

    /**
     * What a reader saw of one phase.
     *
     * @param records    records of the phase
     * @param committed  distinct committed records
     * @param duplicates committed records seen more than once (extra copies)
     * @param aborted    records of aborted transactions
     */
    record Counted(int records, int committed, int duplicates, int aborted) {
    }
}
