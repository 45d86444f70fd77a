package dev.flowform.kafka;

import dev.flowform.model.KafkaAcl;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

/**
 * A KafkaUser applied to a Kafka cluster through the Admin API, as Strimzi's User Operator does for
 * {@code scram-sha-512} authentication and {@code simple} authorization ({@code ScramCredentialsOperator},
 * {@code SimpleAclOperator}): the SCRAM-SHA-512 credential (4096 iterations, Strimzi's default) and exactly the
 * KafkaUser's ACLs for principal {@code User:<name>}.
 */
final class UserAcls {
    private static final long POLL_MS = 100;

    private UserAcls() {
    }

    /**
     * Sets the credential, creates the ACLs the user lacks, deletes those it has beyond {@code acls}, and waits until
     * the broker describes exactly them (KRaft applies ACLs from the metadata log, a moment after the call returns).
     *
     * @param admin     an admin client of a super user
     * @param user      the user name
     * @param password  the SCRAM password
     * @param acls      the wanted ACLs ({@code KafkaUser.spec.authorization.acls})
     * @param timeoutMs how long each admin call may take, and how long to wait for the ACLs to show, in milliseconds
     * @throws ExecutionException   when the broker refuses a call
     * @throws TimeoutException     when a call does not finish in time, or the ACLs do not show in time
     * @throws InterruptedException when interrupted
     */
    static void apply(Admin admin, String user, String password, List<KafkaAcl> acls, long timeoutMs)
            throws ExecutionException, InterruptedException, TimeoutException {
        admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password)))
                .all().get(timeoutMs, TimeUnit.MILLISECONDS);
        String principal = "User:" + user;
        Set<AclBinding> wanted = new HashSet<>(bindings(principal, acls));
        AclBindingFilter mine = new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter(principal, null, AclOperation.ANY, AclPermissionType.ANY));
        Set<AclBinding> present = new HashSet<>(admin.describeAcls(mine).values().get(timeoutMs, TimeUnit.MILLISECONDS));
        List<AclBinding> create = wanted.stream().filter(b -> !present.contains(b)).toList();
        List<AclBindingFilter> delete = present.stream().filter(b -> !wanted.contains(b)).map(AclBinding::toFilter).toList();
        if (!create.isEmpty()) {
            admin.createAcls(create).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        }
        if (!delete.isEmpty()) {
            admin.deleteAcls(delete).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!new HashSet<>(admin.describeAcls(mine).values().get(timeoutMs, TimeUnit.MILLISECONDS)).equals(wanted)) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("the ACLs of " + principal + " did not show within " + timeoutMs + " ms");
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MS);
        }
    }

    /**
     * @param principal {@code User:<name>}
     * @param acls      KafkaUser ACL rules
     * @return one Kafka ACL binding per rule and operation
     * @throws IllegalArgumentException for a resource type or operation Kafka does not know
     */
    static List<AclBinding> bindings(String principal, List<KafkaAcl> acls) {
        List<AclBinding> out = new ArrayList<>();
        for (KafkaAcl a : acls) {
            ResourceType type = switch (a.resourceType()) {
                case "topic" -> ResourceType.TOPIC;
                case "group" -> ResourceType.GROUP;
                case "cluster" -> ResourceType.CLUSTER;
                case "transactionalId" -> ResourceType.TRANSACTIONAL_ID;
                default -> throw new IllegalArgumentException("unknown ACL resource type " + a.resourceType());
            };
            String name = type == ResourceType.CLUSTER ? "kafka-cluster" : a.name();
            PatternType pattern = a.prefixed() ? PatternType.PREFIXED : PatternType.LITERAL;
            for (String op : a.operations()) {
                AclOperation operation = AclOperation.fromString(op.replaceAll("([a-z])([A-Z])", "$1_$2")
                        .toUpperCase(Locale.ROOT));
                if (operation == AclOperation.UNKNOWN) {
                    throw new IllegalArgumentException("unknown ACL operation " + op);
                }
                out.add(new AclBinding(new ResourcePattern(type, name, pattern), new AccessControlEntry(principal, a.host(),
                        operation, a.deny() ? AclPermissionType.DENY : AclPermissionType.ALLOW)));
            }
        }
        return out;
    }
}
