package dev.flowform.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A KafkaUser ({@code kafka.strimzi.io} {@code v1beta2} or {@code v1}) as read from the cluster: the user a KafkaConnect
 * or KafkaMirrorMaker2 authenticates as, and the ACLs Strimzi's User Operator keeps for it (Strimzi
 * {@code KafkaUserSpec}, {@code KafkaUserAuthorizationSimple}, {@code AclRule}).
 *
 * @param authentication    {@code spec.authentication.type} ({@code tls}, {@code scram-sha-512}, ...), or null
 * @param authorization     {@code spec.authorization.type} ({@code simple}), or null when the KafkaUser has none: its
 *                          ACLs, if any, are not managed through it
 * @param acls              {@code spec.authorization.acls[]}, in spec order; empty without authorization
 */
public record LiveKafkaUser(ObjectRef ref, String authentication, String authorization, List<KafkaAcl> acls)
        implements LiveObject {

    /** Kind of Strimzi's user resource. */
    public static final String KIND = "KafkaUser";

    /** Copies the ACLs. */
    public LiveKafkaUser {
        acls = List.copyOf(acls);
    }

    /** @return the KafkaUser with this {@code spec}; ACL entries without a {@code resource} (the CRD needs one) left out */
    public static LiveKafkaUser of(ObjectRef ref, Map<String, Object> spec) {
        Map<?, ?> authn = spec.get("authentication") instanceof Map<?, ?> m ? m : Map.of();
        Map<?, ?> authz = spec.get("authorization") instanceof Map<?, ?> m ? m : null;
        List<KafkaAcl> acls = new ArrayList<>();
        if (authz != null && authz.get("acls") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> rule && rule.get("resource") instanceof Map<?, ?> res) {
                    acls.add(new KafkaAcl(str(rule.get("type")), str(res.get("type")), str(res.get("name")),
                            "prefix".equals(res.get("patternType")), str(rule.get("host")), operations(rule)));
                }
            }
        }
        return new LiveKafkaUser(ref, str(authn.get("type")), authz == null ? null : str(authz.get("type")), acls);
    }

    private static List<String> operations(Map<?, ?> rule) {
        List<String> ops = new ArrayList<>();
        if (rule.get("operations") instanceof List<?> l) {
            l.forEach(o -> ops.add(String.valueOf(o)));
        }
        if (rule.get("operation") != null) {
            ops.add(String.valueOf(rule.get("operation")));
        }
        return ops;
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }
}
