package dev.flowform.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * One single-node Kafka cluster (KRaft, combined roles) in this JVM on 127.0.0.1, formatted fresh, started with the
 * entry points of {@code kafka-storage format} and {@code kafka-server-start}, sized for one node.
 */
public final class KafkaBroker implements AutoCloseable {
    private final String name;
    private final Path dir;
    private final int port;
    private final int saslPort;
    private final KafkaRaftServer server;

    private KafkaBroker(String name, Path dir, int port, int saslPort, KafkaRaftServer server) {
        this.name = name;
        this.dir = dir;
        this.port = port;
        this.saslPort = saslPort;
        this.server = server;
    }

    /**
     * Formats {@code dir} and starts a broker in it; returns once the broker is unfenced and serves clients.
     *
     * @param name a name for messages ("source", "target")
     * @param dir  an empty or missing folder for the log and metadata
     * @return the running broker
     * @throws IllegalStateException when the folder cannot be prepared or the broker does not start
     */
    public static KafkaBroker start(String name, Path dir) {
        return start(name, dir, false);
    }

    /**
     * Like {@link #start(String, Path)}, but authorizing as a secured production cluster does: a second listener
     * {@code SASL_PLAINTEXT} with {@code SCRAM-SHA-512} ({@link #saslBootstrapServers()}; users are created with
     * {@code Admin.alterUserScramCredentials}, as Strimzi's User Operator does) and KRaft's {@code StandardAuthorizer}
     * with {@code allow.everyone.if.no.acl.found=false}. The PLAINTEXT and controller listeners stay for the broker
     * itself and the test's own clients, whose principal {@code User:ANONYMOUS} is a super user.
     *
     * @param name a name for messages
     * @param dir  an empty or missing folder
     * @return the running broker
     * @throws IllegalStateException when the folder cannot be prepared or the broker does not start
     */
    public static KafkaBroker startSecured(String name, Path dir) {
        return start(name, dir, true);
    }

    private static KafkaBroker start(String name, Path dir, boolean secured) {
        ExitGuard.install();
        try {
            Files.createDirectories(dir);
            int port = freePort();
            int controllerPort = freePort();
            int saslPort = secured ? freePort() : -1;
            Properties p = new Properties();
            p.put("process.roles", "broker,controller");
            p.put("node.id", "1");
            p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
            String sasl = secured ? ",SASL_PLAINTEXT://127.0.0.1:" + saslPort : "";
            p.put("listeners", "PLAINTEXT://127.0.0.1:" + port + sasl + ",CONTROLLER://127.0.0.1:" + controllerPort);
            p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port + sasl);
            p.put("controller.listener.names", "CONTROLLER");
            p.put("inter.broker.listener.name", "PLAINTEXT");
            p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"
                    + (secured ? ",SASL_PLAINTEXT:SASL_PLAINTEXT" : ""));
            if (secured) {
                p.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
                p.put("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config",
                        "org.apache.kafka.common.security.scram.ScramLoginModule required;");
                p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
                p.put("allow.everyone.if.no.acl.found", "false");
                p.put("super.users", "User:ANONYMOUS");
            }
            p.put("log.dirs", dir.toString());
            p.putAll(singleNodeSettings());
            KafkaConfig cfg = KafkaConfig.fromProps(p);
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(1)
                    .setClusterId(Uuid.randomUuid().toString())
                    .addDirectory(dir.toString())
                    .setMetadataLogDirectory(dir.toString())
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setControllerListenerName("CONTROLLER")
                    .run();
            KafkaRaftServer server = new KafkaRaftServer(cfg, Time.SYSTEM);
            server.startup();
            return new KafkaBroker(name, dir, port, saslPort, server);
        } catch (Exception e) {
            throw new IllegalStateException("Kafka cluster \"" + name + "\" did not start in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The settings of a one-node cluster on a small machine: replication factor 1, few threads, small buffers. */
    private static Properties singleNodeSettings() {
        Properties p = new Properties();
        p.put("num.partitions", "1");
        p.put("default.replication.factor", "1");
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "1");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("transaction.state.log.num.partitions", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("group.min.session.timeout.ms", "1000");
        p.put("log.cleaner.dedupe.buffer.size", "2097152");
        p.put("log.segment.bytes", "1048576");
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("num.replica.fetchers", "1");
        return p;
    }

    /** @return the name given at start */
    public String name() {
        return name;
    }

    /** @return {@code 127.0.0.1:<port>}, the PLAINTEXT listener */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /**
     * @return {@code 127.0.0.1:<port>} of the {@code SASL_PLAINTEXT} listener (SCRAM-SHA-512, authorized)
     * @throws IllegalStateException when the broker was started without it
     */
    public String saslBootstrapServers() {
        if (saslPort < 0) {
            throw new IllegalStateException("Kafka cluster \"" + name + "\" was started without a SASL listener");
        }
        return "127.0.0.1:" + saslPort;
    }

    /** @return true when started with {@link #startSecured}: SASL/SCRAM and an authorizer */
    public boolean secured() {
        return saslPort >= 0;
    }

    /** @return the folder holding the log and metadata */
    public Path dir() {
        return dir;
    }

    /** Shuts the broker down and waits for it. */
    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }

    /** @return a port free a moment ago on 127.0.0.1 (KRaft needs the controller port before formatting) */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}
