package dev.flowform.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.KafkaAcl;
import dev.flowform.plan.acl.AclMatcher;
import dev.flowform.plan.acl.AclNeed;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ACL check of {@code plan} ({@link AclMatcher}, docs/domain-rules.md rule 10) against a real authorizing Kafka
 * 4.3.1: one KRaft broker with {@code StandardAuthorizer} and a {@code SASL_PLAINTEXT}/{@code SCRAM-SHA-512} listener;
 * for each ACL set of the golden cases, a SCRAM user of its own gets the set through the Admin API (as Strimzi's User
 * Operator writes a KafkaUser's {@code simple} ACLs), and every ACL exactly-once needs is then exercised as that user
 * the way Connect uses it: {@code initTransactions} with the transactional ID (Write: {@code InitProducerId}, after
 * {@code FindCoordinator}, Describe), {@code describeTransactions} (Describe) and {@code describeTopics} of the offsets
 * topic (Describe). Kafka's verdict must be the matcher's, for each of them.
 */
@Tag("kafka")
class AclsOnRealKafkaTest {

    private static final String GROUP = "mm2-connect";
    private static final String OFFSETS = "mm2-connect-offsets";
    private static final String PASSWORD = "scram-password-1";

    @TempDir
    static Path dir;
    private static KafkaBroker broker;
    private static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = KafkaBroker.startSecured("secured", dir.resolve("broker"));
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
        admin.createTopics(List.of(new NewTopic(OFFSETS, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    /** What the quickstart's plan to {@code enabled} needs: the workers' and three tasks' IDs, the offsets topic. */
    private static List<AclNeed> needs() {
        List<AclNeed> needs = new ArrayList<>();
        for (String id : List.of("connect-cluster-" + GROUP, GROUP + "-dc1-to-dc2-source-0", GROUP + "-dc1-to-dc2-source-1",
                GROUP + "-dc1-to-dc2-checkpoint-0")) {
            needs.add(new AclNeed("transactionalId", id, "Write", id));
            needs.add(new AclNeed("transactionalId", id, "Describe", id));
        }
        needs.add(new AclNeed("topic", OFFSETS, "Describe", "offsets"));
        return needs;
    }

    private static KafkaAcl allow(String type, String name, boolean prefixed, String... ops) {
        return new KafkaAcl("allow", type, name, prefixed, "*", List.of(ops));
    }

    @Test
    void kafka_authorizes_exactly_what_the_plan_check_says_for_every_acl_set() throws Exception {
        Map<String, List<KafkaAcl>> sets = new LinkedHashMap<>();
        sets.put("all-present", List.of(allow("transactionalId", "connect-cluster-" + GROUP, false, "Write", "Describe"),
                allow("transactionalId", GROUP + "-dc1-to-dc2-", true, "Write"), allow("topic", "*", false, "Read", "Write")));
        sets.put("missing-literal", List.of(allow("transactionalId", "connect-cluster-mm2", false, "Write", "Describe"),
                allow("transactionalId", GROUP + "-", true, "All"), allow("topic", OFFSETS, false, "Read", "Write")));
        sets.put("missing-prefixed", List.of(allow("transactionalId", "connect-cluster-" + GROUP, false, "Write"),
                allow("transactionalId", GROUP + "-dc1-to-dc2-source-", true, "Write", "Describe"),
                allow("topic", OFFSETS, false, "Describe")));
        sets.put("describe-only-and-deny", List.of(allow("transactionalId", "*", false, "Describe"),
                allow("transactionalId", GROUP + "-", true, "All"),
                new KafkaAcl("deny", "transactionalId", GROUP + "-dc1-to-dc2-checkpoint", true, "*", List.of("Write")),
                allow("topic", "mm2-", true, "Write")));
        Map<String, Integer> refusedByKafka = new LinkedHashMap<>();
        for (Map.Entry<String, List<KafkaAcl>> set : sets.entrySet()) {
            String user = "u-" + set.getKey();
            grant(user, set.getValue());
            int refused = 0;
            for (AclNeed need : needs()) {
                boolean kafka = allowedByKafka(user, need);
                assertThat(kafka).as("%s: %s %s %s", set.getKey(), need.kafkaType(), need.name(), need.operation())
                        .isEqualTo(AclMatcher.allows(set.getValue(), need));
                refused += kafka ? 0 : 1;
            }
            refusedByKafka.put(set.getKey(), refused);
        }
        System.out.println("ACLs exactly-once needs that Kafka refused, per ACL set (of " + needs().size() + "): "
                + refusedByKafka);
        assertThat(refusedByKafka).containsEntry("all-present", 0).containsEntry("missing-literal", 2)
                .containsEntry("missing-prefixed", 2).containsEntry("describe-only-and-deny", 2);
    }

    /** Creates the SCRAM user and its ACLs, as the User Operator does for a KafkaUser. */
    private static void grant(String user, List<KafkaAcl> acls) throws Exception {
        admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), PASSWORD))).all().get(30, TimeUnit.SECONDS);
        List<AclBinding> bindings = new ArrayList<>();
        for (KafkaAcl a : acls) {
            ResourceType type = a.resourceType().equals("topic") ? ResourceType.TOPIC : ResourceType.TRANSACTIONAL_ID;
            for (String op : a.operations()) {
                bindings.add(new AclBinding(new ResourcePattern(type, a.name(), a.prefixed() ? PatternType.PREFIXED
                        : PatternType.LITERAL), new AccessControlEntry("User:" + user, a.host(), AclOperation.fromString(op),
                        a.deny() ? AclPermissionType.DENY : AclPermissionType.ALLOW)));
            }
        }
        admin.createAcls(bindings).all().get(30, TimeUnit.SECONDS);
        // StandardAuthorizer applies ACLs from the metadata log; wait until the broker answers with them
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (admin.describeAcls(new AclBindingFilter(ResourcePatternFilter.ANY,
                new AccessControlEntryFilter("User:" + user, null, AclOperation.ANY, AclPermissionType.ANY)))
                .values().get(30, TimeUnit.SECONDS).size() < bindings.size() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    private static Properties client(String user) {
        Properties p = new Properties();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.saslBootstrapServers());
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        p.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-512");
        p.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                + user + "\" password=\"" + PASSWORD + "\";");
        return p;
    }

    /** @return whether Kafka lets {@code user} do what Connect does with {@code need} */
    private static boolean allowedByKafka(String user, AclNeed need) throws Exception {
        if (need.resourceType().equals("transactionalId") && need.operation().equals("Write")) {
            Properties p = client(user);
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, need.name());
            p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                producer.initTransactions();
                return true;
            } catch (TransactionalIdAuthorizationException e) {
                System.out.println(user + " " + need.name() + ": " + e);
                return false;
            }
        }
        try (Admin as = Admin.create(client(user))) {
            if (need.resourceType().equals("transactionalId")) {
                as.describeTransactions(List.of(need.name())).all().get(30, TimeUnit.SECONDS);
            } else {
                as.describeTopics(List.of(need.name())).allTopicNames().get(30, TimeUnit.SECONDS);
            }
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TransactionalIdAuthorizationException
                    || e.getCause() instanceof TopicAuthorizationException) {
                return false;
            }
            if (e.getCause() instanceof org.apache.kafka.common.errors.TransactionalIdNotFoundException) {
                return true;
            }
            throw e;
        }
    }
}
