package dev.flowform.model;

import dev.flowform.diag.SourceRange;
import java.util.Map;

/**
 * What a KafkaConnect and a KafkaMirrorMaker2 declare alike: one group of Kafka Connect workers, their exactly-once
 * mode, size, Kafka version and worker configuration. The planner reads these through one path for both kinds
 * (docs/architecture.md, "The planner").
 */
public interface DesiredWorkers {

    /** @return the resource address, e.g. {@code connect_cluster.west} or {@code mirrormaker2.mm2} */
    String address();

    /** @return the object's {@code metadata.name} */
    String name();

    /** @return its namespace (derived) */
    String namespace();

    /** @return own or adopt */
    ManageMode manage();

    /** @return the workers' {@code exactly.once.source.support} (derived) */
    EosMode eos();

    /** @return {@code spec.replicas}, or null when not declared */
    Integer replicas();

    /** @return {@code spec.version}, or null when not declared */
    String version();

    /** @return the declared worker configuration, without the exactly-once key */
    Map<String, String> config();

    /** @return the block in the configuration, for diagnostics; may be null */
    SourceRange range();

    /**
     * @param key a worker configuration key
     * @return true when its value must be masked
     */
    boolean isSensitive(String key);
}
