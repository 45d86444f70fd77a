package dev.flowform.state;

import java.time.Instant;
import java.util.Objects;

/**
 * The last applied body of one managed object; {@code bodyJson} already has its secrets hashed.
 *
 * @param address       resource address, e.g. {@code kafka_connector.orders-source}; the key
 * @param kind          Kubernetes kind, e.g. {@code KafkaConnector}
 * @param namespace     Kubernetes namespace
 * @param name          {@code metadata.name}
 * @param bodyJson      the object as JSON
 * @param updatedSerial the environment serial produced by the save; 0 on a snapshot not saved yet
 * @param updatedAt     when it was saved; null on a snapshot not saved yet
 */
public record ResourceSnapshot(String address, String kind, String namespace, String name, String bodyJson,
                               long updatedSerial, Instant updatedAt) {

    /** @throws NullPointerException when a required component is null */
    public ResourceSnapshot {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(bodyJson, "bodyJson");
    }

    /**
     * A snapshot to pass to {@link SnapshotTable#save(ResourceSnapshot)}, which fills in the
     * serial and time.
     *
     * @param address   resource address
     * @param kind      Kubernetes kind
     * @param namespace Kubernetes namespace
     * @param name      {@code metadata.name}
     * @param bodyJson  the object as JSON, secrets already hashed
     * @return an unsaved snapshot ({@code updatedSerial} 0, {@code updatedAt} null)
     */
    public static ResourceSnapshot of(String address, String kind, String namespace, String name, String bodyJson) {
        return new ResourceSnapshot(address, kind, namespace, name, bodyJson, 0, null);
    }
}
