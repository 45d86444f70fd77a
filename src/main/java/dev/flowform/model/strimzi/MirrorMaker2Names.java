package dev.flowform.model.strimzi;

/**
 * The names Strimzi gives a KafkaMirrorMaker2's objects and connectors ({@code KafkaMirrorMaker2Resources},
 * {@code KafkaMirrorMaker2Connectors.generateConnectorDefinitions}). Pure.
 */
public final class MirrorMaker2Names {

    /** Suffix of the source connector's name. */
    public static final String SOURCE_CONNECTOR = ".MirrorSourceConnector";
    /** Suffix of the checkpoint connector's name. */
    public static final String CHECKPOINT_CONNECTOR = ".MirrorCheckpointConnector";
    /** Suffix of the heartbeat connector's name. */
    public static final String HEARTBEAT_CONNECTOR = ".MirrorHeartbeatConnector";

    private MirrorMaker2Names() {
    }

    /** @return {@code <name>-mirrormaker2}: the StrimziPodSet of KafkaMirrorMaker2 {@code name}, its component */
    public static String podSetName(String name) {
        return name + Strimzi.MIRROR_MAKER_2_SUFFIX;
    }

    /** @return {@code <name>-mirrormaker2-config}: the ConfigMap holding the worker configuration (Strimzi 0.46+) */
    public static String configMapName(String name) {
        return name + Strimzi.MIRROR_MAKER_2_SUFFIX + "-config";
    }

    /** @return {@code <name>-mirrormaker2-<ordinal>}: worker pod {@code ordinal} (from 0) of {@code name} */
    public static String podName(String name, int ordinal) {
        return name + Strimzi.MIRROR_MAKER_2_SUFFIX + "-" + ordinal;
    }

    /** @return {@code <source>-><target>.MirrorSourceConnector}, for the source and target cluster aliases */
    public static String sourceConnector(String source, String target) {
        return source + "->" + target + SOURCE_CONNECTOR;
    }

    /** @return {@code <source>-><target>.MirrorCheckpointConnector}, for the source and target cluster aliases */
    public static String checkpointConnector(String source, String target) {
        return source + "->" + target + CHECKPOINT_CONNECTOR;
    }

    /** @return {@code <source>-><target>.MirrorHeartbeatConnector}, for the source and target cluster aliases */
    public static String heartbeatConnector(String source, String target) {
        return source + "->" + target + HEARTBEAT_CONNECTOR;
    }
}
