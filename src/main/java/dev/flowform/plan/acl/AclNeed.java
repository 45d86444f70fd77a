package dev.flowform.plan.acl;

/**
 * One ACL a resource's principal needs for exactly-once (docs/domain-rules.md, rule 10; Kafka's Connect documentation,
 * "ACL requirements").
 *
 * @param resourceType the resource type as Strimzi's {@code AclRule} spells it: {@code transactionalId} or {@code topic}
 * @param name         the literal resource name, e.g. {@code connect-cluster-mm2}
 * @param operation    Kafka's operation as Strimzi spells it: {@code Write} or {@code Describe}
 * @param why          who needs it and from which mode, e.g. {@code the workers' leader, from preparing}
 */
public record AclNeed(String resourceType, String name, String operation, String why) {

    /** @return the resource type as Kafka's tools name it: {@code TransactionalId}, {@code Topic} */
    public String kafkaType() {
        return Character.toUpperCase(resourceType.charAt(0)) + resourceType.substring(1);
    }
}
