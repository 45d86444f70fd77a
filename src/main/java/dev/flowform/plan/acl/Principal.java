package dev.flowform.plan.acl;

import java.util.Map;

/**
 * The Kafka principal a Strimzi client authenticates as, read from its {@code authentication} block (Strimzi
 * {@code KafkaClientAuthentication*}): {@code scram-sha-512}, {@code scram-sha-256} and {@code plain} name their
 * {@code username} ({@code User:<username>}); {@code tls} names {@code certificateAndKey.secretName}, the Secret Strimzi's
 * User Operator writes under the KafkaUser's name ({@code User:CN=<name>}); {@code oauth} and {@code custom} name no
 * KafkaUser.
 *
 * @param type  the {@code authentication.type}
 * @param user  the KafkaUser's name, or null when the type names none
 * @param where the block in the resource, e.g. {@code spec.authentication}
 */
public record Principal(String type, String user, String where) {

    /**
     * @return the principal of an {@code authentication} block found at {@code where}, or null when there is no block
     *         (an anonymous client, which no KafkaUser describes)
     */
    public static Principal of(Map<?, ?> authentication, String where) {
        if (authentication == null || authentication.isEmpty()) {
            return null;
        }
        String type = String.valueOf(authentication.get("type"));
        String user = switch (type) {
            case "scram-sha-512", "scram-sha-256", "plain" -> str(authentication.get("username"));
            case "tls" -> authentication.get("certificateAndKey") instanceof Map<?, ?> c ? str(c.get("secretName")) : null;
            default -> null;
        };
        return new Principal(type, user, where);
    }

    /** @return Kafka's principal name: {@code User:CN=<user>} for {@code tls}, else {@code User:<user>} */
    public String kafkaPrincipal() {
        return "tls".equals(type) ? "User:CN=" + user : "User:" + user;
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }
}
