package dev.flowform.plan;

import dev.flowform.model.LiveKafkaUser;
import dev.flowform.model.ObjectRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * KafkaUsers and {@code authentication} blocks as Strimzi writes them (Strimzi {@code KafkaUserSpec}, {@code AclRule},
 * {@code KafkaClientAuthenticationScramSha512}, {@code KafkaClientAuthenticationTls}), for the golden cases and planner
 * tests of the ACLs exactly-once needs (docs/domain-rules.md, rule 10).
 */
final class SecuredWorlds {

    static final String NS = "replication";

    private SecuredWorlds() {
    }

    /** @return a {@code scram-sha-512} authentication block naming {@code user} */
    static Map<String, Object> scram(String user) {
        return new LinkedHashMap<>(Map.of("type", "scram-sha-512", "username", user,
                "passwordSecret", Map.of("secretName", user, "password", "password")));
    }

    /** @return a {@code tls} authentication block whose certificate is in the Secret {@code user} */
    static Map<String, Object> tls(String user) {
        return new LinkedHashMap<>(Map.of("type", "tls",
                "certificateAndKey", Map.of("secretName", user, "certificate", "user.crt", "key", "user.key")));
    }

    /** @return an ACL rule of a KafkaUser ({@code patternType} literal or prefix, host {@code *} unless given) */
    static Map<String, Object> acl(String type, String name, String patternType, String... operations) {
        Map<String, Object> resource = new LinkedHashMap<>();
        resource.put("type", type);
        if (name != null) {
            resource.put("name", name);
        }
        resource.put("patternType", patternType);
        Map<String, Object> rule = new LinkedHashMap<>();
        rule.put("resource", resource);
        rule.put("operations", List.of(operations));
        return rule;
    }

    /**
     * @param name the KafkaUser's name
     * @param acls its {@code simple} ACLs; null for a KafkaUser without {@code spec.authorization}
     * @return the KafkaUser as the reader maps it
     */
    static LiveKafkaUser user(String name, List<Map<String, Object>> acls) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("authentication", Map.of("type", "scram-sha-512"));
        if (acls != null) {
            spec.put("authorization", Map.of("type", "simple", "acls", new ArrayList<>(acls)));
        }
        return LiveKafkaUser.of(new ObjectRef("kafka.strimzi.io/v1beta2", LiveKafkaUser.KIND, NS, name), spec);
    }
}
