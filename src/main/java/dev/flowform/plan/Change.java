package dev.flowform.plan;

import dev.flowform.model.ObjectRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a plan does to one Kubernetes object (Terraform's resource change).
 *
 * @param address    resource address, e.g. {@code connect_cluster.west} or {@code kafka_connector.orders-source}
 * @param action     create, update, delete
 * @param attributes the attribute differences, in display order
 * @param reasons    why, in the order the plan states them (for the human rendering only: never used to decide
 *                   anything during apply)
 */
public record Change(String address, ObjectRef object, Action action, List<AttributeChange> attributes,
                     List<Reason> reasons) {

    /**
     * One reason with its words.
     *
     * @param code  which reason
     * @param words what the plan says, e.g. {@code KafkaConnector kafka/orders-source does not exist}
     */
    public record Reason(ChangeReason code, String words) {
        /** Requires both. */
        public Reason {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(words, "words");
        }
    }

    /** Copies the lists. */
    public Change {
        attributes = List.copyOf(attributes);
        reasons = List.copyOf(reasons);
    }

    /** A change with one reason; the other components are the record's. */
    public Change(String address, ObjectRef object, Action action, List<AttributeChange> attributes, Reason reason) {
        this(address, object, action, attributes, List.of(reason));
    }

    /** @return the reasons' words joined by {@code "; "}, as the plan document stores them; null without a reason */
    public String reason() {
        return reasons.isEmpty() ? null : String.join("; ", reasons.stream().map(Reason::words).toList());
    }

    /** @return the reasons' codes, in order */
    public List<ChangeReason> codes() {
        return reasons.stream().map(Reason::code).toList();
    }

    /** @return a copy with {@code more} attribute differences and a {@code reason} (null: none) added after its own */
    public Change plus(List<AttributeChange> more, Reason reason) {
        List<AttributeChange> all = new ArrayList<>(attributes);
        all.addAll(more);
        List<Reason> why = new ArrayList<>(reasons);
        if (reason != null) {
            why.add(reason);
        }
        return new Change(address, object, action, all, why);
    }
}
