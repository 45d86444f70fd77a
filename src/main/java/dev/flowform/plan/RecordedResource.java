package dev.flowform.plan;

import dev.flowform.model.Maps;
import java.util.Map;
import java.util.Objects;

/**
 * The state's snapshot of one managed object as flowform last applied or accepted it: what drift is
 * measured against. Secret values in {@code body} are the environment's salted hashes.
 *
 * @param address resource address, e.g. {@code kafka_connector.orders-source}
 * @param kind    {@code KafkaConnect}, {@code KafkaConnector} or {@code KafkaMirrorMaker2}
 * @param body    the object as JSON-like maps
 * @param serial  the state serial that wrote the snapshot
 */
public record RecordedResource(String address, String kind, String namespace, String name, Map<String, Object> body,
                               long serial) {
    public RecordedResource {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        body = Maps.copy(body);
    }
}
