package dev.flowform.kafka;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RealKafka;
import dev.flowform.model.KafkaAcl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The {@link RealKafka} of an embedded environment: {@link KafkaClusters} plus a {@link KafkaConnectRuntime}
 * on them, and the producer, consumer and crash tools of the exactly-once proof.
 */
public final class KafkaEnvironment implements RealKafka {
    private static final Duration QUIET = Duration.ofSeconds(3);
    private static final long ADMIN_TIMEOUT_MS = 10_000;

    private final KafkaClusters clusters;
    private final KafkaConnectRuntime runtime;
    /** One admin client per cluster alias, for the checks the proof makes many times a second. */
    private final Map<String, Admin> admins = new ConcurrentHashMap<>();

    /**
     * Starts the clusters, some of them secured (SASL/SCRAM and {@code StandardAuthorizer},
     * {@link KafkaBroker#startSecured}), creates the topics and prepares the runtime (no worker runs yet).
     *
     * @param addresses  alias to the bootstrap addresses that cluster answers for
     * @param topics     alias to topics to create
     * @param partitions alias to the number of partitions of its topics (absent: 1)
     * @param secured    the aliases to start secured
     * @param dir        working folder
     * @throws IllegalStateException when a broker does not start or a topic cannot be created
     */
    public KafkaEnvironment(Map<String, List<String>> addresses, Map<String, List<String>> topics,
                            Map<String, Integer> partitions, Set<String> secured, Path dir) {
        this.clusters = KafkaClusters.start(addresses, secured, dir);
        try {
            topics.forEach((alias, names) -> names.forEach(t -> clusters.createTopic(alias, t,
                    partitions.getOrDefault(alias, 1))));
        } catch (RuntimeException e) {
            clusters.close();
            throw e;
        }
        this.runtime = new KafkaConnectRuntime(clusters, dir.resolve("workers"), true);
    }

    @Override
    public void applyUser(String alias, String user, String password, List<KafkaAcl> acls) {
        KafkaContext.run(() -> adminCall(alias, admin -> {
            UserAcls.apply(admin, user, password, acls, ADMIN_TIMEOUT_MS);
            return null;
        }));
    }

    @Override
    public ConnectRuntime runtime() {
        return runtime;
    }

    @Override
    public String bootstrapServers(String alias) {
        return clusters.bootstrapServers(alias);
    }

    @Override
    public Path workerLogDir() {
        return runtime.dir();
    }

    @Override
    public Produced write(String alias, String topic, String phase, int transactions, int perTransaction, int abortEvery,
                          Duration pause, IntConsumer afterEach) {
        return KafkaContext.call(() -> writeIn(alias, topic, phase, transactions, perTransaction, abortEvery,
                pause.toMillis(), afterEach));
    }

    private Produced writeIn(String alias, String topic, String phase, int transactions, int perTransaction, int abortEvery,
                             long pauseMs, IntConsumer afterEach) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, clusters.bootstrapServers(alias));
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "flowform-proof-" + phase);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        int committed = 0;
        int aborted = 0;
        KafkaProducer<byte[], byte[]> producer = transactional(p);
        try {
            int partitions = Math.max(1, producer.partitionsFor(topic).size());
            int sent = 0;
            for (int tx = 1; tx <= transactions; tx++) {
                boolean abort = abortEvery > 0 && tx % abortEvery == 0;
                int first = abort ? aborted : committed;
                for (int attempt = 1; ; attempt++) {
                    try {
                        transaction(producer, topic, phase, abort, first, perTransaction, sent, partitions);
                        break;
                    } catch (KafkaException e) {
                        // the broker refused the transaction as in an invalid state (back-to-back transactions on a
                        // loaded machine): its records are not committed, so a new producer (initTransactions aborts
                        // what is open) writes the same records again
                        if (attempt == 3 || !(e instanceof InvalidTxnStateException
                                || e.getCause() instanceof InvalidTxnStateException)) {
                            throw e;
                        }
                        System.err.println("writer " + phase + ": transaction " + tx + " written again after " + e);
                        producer.close(Duration.ZERO);
                        producer = transactional(p);
                    }
                }
                sent += perTransaction;
                if (abort) {
                    aborted += perTransaction;
                } else {
                    committed += perTransaction;
                }
                afterEach.accept(tx);
                if (pauseMs > 0) {
                    sleep(pauseMs);
                }
            }
        } finally {
            producer.close();
        }
        return new Produced(committed, aborted);
    }

    private static KafkaProducer<byte[], byte[]> transactional(Properties p) {
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
        return producer;
    }

    /** One transaction of {@code count} records, values {@code <phase>-c-<n>} (or {@code -a-} and aborted) from {@code first}. */
    private static void transaction(KafkaProducer<byte[], byte[]> producer, String topic, String phase, boolean abort,
                                    int first, int count, int sent, int partitions) {
        producer.beginTransaction();
        for (int i = 0; i < count; i++) {
            String value = phase + (abort ? "-a-" : "-c-") + (first + i);
            producer.send(new ProducerRecord<>(topic, (sent + i) % partitions, null, value.getBytes(StandardCharsets.UTF_8)));
        }
        if (abort) {
            producer.flush();
            producer.abortTransaction();
        } else {
            producer.commitTransaction();
        }
    }

    @Override
    public Counted count(String alias, String topic, String phase, int expected, boolean readCommitted, Duration timeout) {
        return KafkaContext.call(() -> countIn(alias, topic, phase, expected, readCommitted, timeout));
    }

    private Counted countIn(String alias, String topic, String phase, int expected, boolean readCommitted, Duration timeout) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, clusters.bootstrapServers(alias));
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        String prefix = phase + "-";
        Map<String, Integer> seen = new HashMap<>();
        int records = 0;
        long deadline = System.nanoTime() + timeout.toNanos();
        long lastNew = System.nanoTime();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = List.of();
            while (partitions.isEmpty() && System.nanoTime() < deadline) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
                partitions = infos == null ? List.of()
                        : infos.stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
                if (partitions.isEmpty()) {
                    sleep(500);
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (System.nanoTime() < deadline) {
                int before = records;
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    String v = r.value() == null ? "" : new String(r.value(), StandardCharsets.UTF_8);
                    if (v.startsWith(prefix)) {
                        records++;
                        seen.merge(v, 1, Integer::sum);
                    }
                }
                if (records != before) {
                    lastNew = System.nanoTime();
                }
                long committed = seen.keySet().stream().filter(v -> v.startsWith(phase + "-c-")).count();
                if (committed >= expected && System.nanoTime() - lastNew >= QUIET.toNanos()) {
                    break;
                }
            }
        }
        int committed = 0;
        int duplicates = 0;
        int aborted = 0;
        for (Map.Entry<String, Integer> e : seen.entrySet()) {
            if (e.getKey().startsWith(phase + "-c-")) {
                committed++;
                duplicates += e.getValue() - 1;
            } else {
                aborted += e.getValue();
            }
        }
        return new Counted(records, committed, duplicates, aborted);
    }

    @Override
    public long endOffset(String alias, String topic) {
        return KafkaContext.call(() -> adminCall(alias, admin -> {
            List<TopicPartition> partitions;
            try {
                partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                        .get(topic).partitions().stream().map(p -> new TopicPartition(topic, p.partition())).toList();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    return 0L;
                }
                throw e;
            }
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
            return admin.listOffsets(latest).all().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS).values().stream()
                    .mapToLong(ListOffsetsResultInfo::offset).sum();
        }));
    }

    @Override
    public Optional<String> openTransaction(String alias, String topic) {
        return KafkaContext.call(() -> adminCall(alias, admin -> {
            List<String> ongoing = admin.listTransactions(new ListTransactionsOptions()
                            .filterStates(Set.of(TransactionState.ONGOING)))
                    .all().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS).stream()
                    .map(TransactionListing::transactionalId).toList();
            if (ongoing.isEmpty()) {
                return Optional.empty();
            }
            Map<String, TransactionDescription> described = admin.describeTransactions(ongoing).all()
                    .get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            return described.entrySet().stream()
                    .filter(e -> e.getValue().state() == TransactionState.ONGOING
                            && e.getValue().topicPartitions().stream().anyMatch(tp -> tp.topic().equals(topic)))
                    .map(Map.Entry::getKey).sorted().findFirst();
        }));
    }

    @Override
    public boolean ongoing(String alias, String transactionalId) {
        return KafkaContext.call(() -> adminCall(alias, admin -> admin.describeTransactions(List.of(transactionalId)).all()
                .get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS).get(transactionalId).state() == TransactionState.ONGOING));
    }

    @Override
    public Optional<List<Map<String, String>>> taskConfigs(String cluster, String connector) {
        return runtime.taskConfigs(cluster, connector);
    }

    @Override
    public void freezeWorker(String pod, boolean frozen) {
        runtime.signal(pod, frozen ? "STOP" : "CONT");
    }

    private interface AdminWork<T> {
        T call(Admin admin) throws ExecutionException, InterruptedException, TimeoutException;
    }

    private <T> T adminCall(String alias, AdminWork<T> work) {
        Admin admin = admins.computeIfAbsent(alias, a -> Admin.create(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, clusters.bootstrapServers(a))));
        try {
            return work.call(admin);
        } catch (ExecutionException | TimeoutException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new IllegalStateException("Kafka cluster \"" + alias + "\" did not answer an admin request: "
                    + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking Kafka cluster \"" + alias + "\"", e);
        }
    }

    @Override
    public String podOfTask(String cluster, String connector, int task) {
        ConnectorStatus status = runtime.status(cluster, connector)
                .orElseThrow(() -> new IllegalStateException("connector " + connector + " has no status"));
        String workerId = status.tasks().stream().filter(t -> t.id() == task).map(ConnectorStatus.TaskStatus::workerId)
                .findFirst().orElseThrow(() -> new IllegalStateException("connector " + connector + " has no task " + task));
        for (String pod : runtime.workerPods(cluster)) {
            if (workerId.equals(runtime.workerId(pod))) {
                return pod;
            }
        }
        throw new IllegalStateException("task " + task + " of " + connector + " runs on " + workerId
                + ", which is no worker of " + cluster);
    }

    @Override
    public void close() {
        KafkaContext.run(() -> admins.values().forEach(a -> a.close(Duration.ofSeconds(5))));
        runtime.close();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
