package dev.flowform.plan;

import dev.flowform.model.ObjectRef;
import java.util.List;

/**
 * What a plan does to one Kubernetes object (Terraform's resource change).
 *
 * @param address    resource address, e.g. {@code connect_cluster.west} or {@code kafka_connector.orders-source}
 * @param object     the Kubernetes object
 * @param action     create, update, delete
 * @param attributes the attribute differences, in display order
 * @param reason     why, for the human rendering only (never used to decide anything during apply)
 */
public record Change(String address, ObjectRef object, Action action, List<AttributeChange> attributes, String reason) {
    public Change {
        attributes = List.copyOf(attributes);
    }
}
