package dev.flowform.model;

import java.util.List;
import java.util.Locale;

/**
 * One ACL rule of a KafkaUser's {@code spec.authorization.acls[]} (Strimzi {@code AclRule}), as Kafka stores it
 * for the user's principal.
 *
 * @param permission   {@code allow} or {@code deny} (Strimzi's {@code type}, default {@code allow})
 * @param resourceType {@code topic}, {@code group}, {@code cluster} or {@code transactionalId}
 * @param name         the resource name, {@code *} for every resource of the type; null for {@code cluster}
 * @param prefixed     true for {@code patternType: prefix} (Kafka's {@code PREFIXED}), false for {@code literal}
 * @param host         the client host it applies to, {@code *} for every host (Strimzi's default)
 * @param operations   Kafka's operation names as Strimzi spells them ({@code Read}, {@code Write}, {@code Describe},
 *                     {@code All}, ...): {@code operations}, or the deprecated single {@code operation}
 */
public record KafkaAcl(String permission, String resourceType, String name, boolean prefixed, String host,
                       List<String> operations) {

    /** Fills Strimzi's defaults ({@code allow}, host {@code *}) and copies the operations. */
    public KafkaAcl {
        permission = permission == null ? "allow" : permission.toLowerCase(Locale.ROOT);
        host = host == null ? "*" : host;
        operations = operations == null ? List.of() : List.copyOf(operations);
    }

    /** @return true for a {@code deny} rule */
    public boolean deny() {
        return "deny".equals(permission);
    }
}
