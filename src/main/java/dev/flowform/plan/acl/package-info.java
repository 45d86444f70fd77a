/**
 * The ACLs exactly-once needs (docs/domain-rules.md, rule 10): what each role needs ({@link AclNeed}), whose they are
 * ({@link Principal}, from a resource's Strimzi {@code authentication} block), how Kafka's {@code StandardAuthorizer}
 * matches a KafkaUser's ACLs against them ({@link AclMatcher}), and what the plan says ({@link AclCheck},
 * {@link AclFix}). Pure: no I/O.
 */
package dev.flowform.plan.acl;
