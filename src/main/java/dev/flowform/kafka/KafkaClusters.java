package dev.flowform.kafka;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * The Kafka clusters that stand in for the ones a configuration names: one embedded single-node cluster per alias,
 * answering for the bootstrap addresses written in the resources ({@code dc1-kafka-bootstrap.kafka-dc1.svc:9092} becomes
 * {@code 127.0.0.1:<port>}); other addresses pass unchanged.
 */
public final class KafkaClusters implements AutoCloseable {
    private final Map<String, KafkaBroker> byAlias;
    private final Map<String, KafkaBroker> byAddress;

    private KafkaClusters(Map<String, KafkaBroker> byAlias, Map<String, KafkaBroker> byAddress) {
        this.byAlias = byAlias;
        this.byAddress = byAddress;
    }

    /**
     * Starts one broker per alias, one after another.
     *
     * @param addresses alias to the bootstrap addresses it answers for ({@code host:port}), in order
     * @param dir       folder under which each cluster gets {@code <alias>/}
     * @return the running clusters
     * @throws IllegalStateException when a broker does not start (those already started are stopped)
     */
    public static KafkaClusters start(Map<String, List<String>> addresses, Path dir) {
        return start(addresses, Set.of(), dir);
    }

    /**
     * Like {@link #start(Map, Path)}, with some clusters secured ({@link KafkaBroker#startSecured}: SASL/SCRAM and
     * {@code StandardAuthorizer}).
     *
     * @param secured the aliases to start secured
     * @see #start(Map, Path) the other parameters, the result and the errors
     */
    public static KafkaClusters start(Map<String, List<String>> addresses, Set<String> secured, Path dir) {
        return KafkaContext.call(() -> startAll(addresses, secured, dir));
    }

    private static KafkaClusters startAll(Map<String, List<String>> addresses, Set<String> secured, Path dir) {
        Map<String, KafkaBroker> byAlias = new LinkedHashMap<>();
        Map<String, KafkaBroker> byAddress = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, List<String>> e : addresses.entrySet()) {
                KafkaBroker b = secured.contains(e.getKey()) ? KafkaBroker.startSecured(e.getKey(), dir.resolve(e.getKey()))
                        : KafkaBroker.start(e.getKey(), dir.resolve(e.getKey()));
                byAlias.put(e.getKey(), b);
                for (String a : e.getValue()) {
                    byAddress.put(a.strip(), b);
                }
            }
        } catch (RuntimeException e) {
            byAlias.values().forEach(KafkaBroker::close);
            throw e;
        }
        return new KafkaClusters(byAlias, byAddress);
    }

    /**
     * @param alias a cluster alias
     * @return {@code 127.0.0.1:<port>} of that cluster
     * @throws IllegalArgumentException when there is no such alias
     */
    public String bootstrapServers(String alias) {
        KafkaBroker b = byAlias.get(alias);
        if (b == null) {
            throw new IllegalArgumentException("no embedded Kafka cluster \"" + alias + "\"; there are " + byAlias.keySet());
        }
        return b.bootstrapServers();
    }

    /**
     * @param alias a cluster alias
     * @return the broker of that cluster
     * @throws IllegalArgumentException when there is no such alias
     */
    public KafkaBroker broker(String alias) {
        KafkaBroker b = byAlias.get(alias);
        if (b == null) {
            throw new IllegalArgumentException("no embedded Kafka cluster \"" + alias + "\"; there are " + byAlias.keySet());
        }
        return b;
    }

    /** @return the aliases, in start order */
    public Collection<String> aliases() {
        return List.copyOf(byAlias.keySet());
    }

    /**
     * Maps a {@code bootstrap.servers} value: each address an embedded cluster answers for becomes that
     * cluster's address (once); others stay.
     *
     * @param value comma-separated {@code host:port} list, or null
     * @return the mapped list, or null for null
     */
    public String map(String value) {
        return map(value, false);
    }

    /**
     * Like {@link #map(String)}, for a client that authenticates with SASL: a secured cluster answers it on its
     * {@code SASL_PLAINTEXT} listener, any other cluster on its only one.
     *
     * @param value comma-separated {@code host:port} list, or null
     * @param sasl  true for a client whose {@code security.protocol} is {@code SASL_*}
     * @return the mapped list, or null for null
     */
    public String map(String value, boolean sasl) {
        if (value == null) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String a : value.split(",")) {
            String t = a.strip();
            if (t.isEmpty()) {
                continue;
            }
            KafkaBroker b = byAddress.get(t);
            out.add(b == null ? t : sasl && b.secured() ? b.saslBootstrapServers() : b.bootstrapServers());
        }
        return String.join(",", out);
    }

    /**
     * Creates a topic unless it exists (replication factor 1).
     *
     * @param alias      the cluster
     * @param topic      the topic name
     * @param partitions number of partitions
     * @throws IllegalStateException when the broker refuses or does not answer within 30 s
     */
    public void createTopic(String alias, String topic, int partitions) {
        KafkaContext.run(() -> createTopicNow(alias, topic, partitions));
    }

    private void createTopicNow(String alias, String topic, int partitions) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(alias)))) {
            if (!admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic)) {
                admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("topic " + topic + " could not be created on Kafka cluster \"" + alias
                    + "\": " + e.getMessage(), e);
        }
    }

    /** Stops every broker, last started first. */
    @Override
    public void close() {
        KafkaContext.run(this::closeAll);
    }

    private void closeAll() {
        List<KafkaBroker> all = new ArrayList<>(byAlias.values());
        java.util.Collections.reverse(all);
        for (KafkaBroker b : all) {
            try {
                b.close();
            } catch (RuntimeException ignored) {
                // shutting down: the next broker still gets its turn
            }
        }
    }
}
