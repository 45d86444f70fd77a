package dev.flowform.model;

import java.util.Locale;

/**
 * The three MirrorMaker 2 connectors a replication flow runs as, in Connect mode.
 *
 * <p>Only {@link #SOURCE} implements KIP-618's preflight API ({@code exactlyOnceSupport}); Kafka rejects
 * {@code exactly.once.support: required} on the other two (apache/kafka MirrorSourceConnector,
 * KAFKA-14021).
 */
public enum ConnectorRole {
    /** Replicates records: {@code MirrorSourceConnector}. */
    SOURCE("org.apache.kafka.connect.mirror.MirrorSourceConnector"),
    /** Translates consumer group offsets: {@code MirrorCheckpointConnector}. */
    CHECKPOINT("org.apache.kafka.connect.mirror.MirrorCheckpointConnector"),
    /** Emits heartbeats: {@code MirrorHeartbeatConnector}. */
    HEARTBEAT("org.apache.kafka.connect.mirror.MirrorHeartbeatConnector");

    private final String connectorClass;

    ConnectorRole(String connectorClass) {
        this.connectorClass = connectorClass;
    }

    /** @return the fully qualified connector class */
    public String connectorClass() {
        return connectorClass;
    }

    /** @return {@code source}, {@code checkpoint} or {@code heartbeat}: the connector name suffix */
    public String suffix() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the role whose class is {@code className}, or null for a non-MM2 connector */
    public static ConnectorRole ofClass(String className) {
        if (className == null) {
            return null;
        }
        for (ConnectorRole r : values()) {
            if (r.connectorClass.equals(className) || r.connectorClass.endsWith("." + className)) {
                return r;
            }
        }
        return null;
    }
}
