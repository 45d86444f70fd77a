package dev.flowform.plan.acl;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.LiveKafkaUser;
import dev.flowform.model.LiveState;
import dev.flowform.plan.Rule;
import java.util.List;
import java.util.Optional;

/**
 * Checks the ACLs exactly-once needs against the KafkaUser of the principal that needs them (docs/domain-rules.md,
 * rule 10). A missing ACL is an error on the resource naming each ACL (resource type, name, pattern type, operation)
 * and the KafkaUser, with the patch that adds them; with {@code --accept-missing-acls} it is a warning listing them as
 * {@code kafka-acls.sh} commands and as that patch. What cannot be checked (no KafkaUser of that name, a KafkaUser
 * without {@code simple} authorization, an authentication type that names no user) is a warning saying what was not
 * checked. Where the API serves no KafkaUser at all (no User Operator: the ACLs live elsewhere) nothing is said beyond
 * the transactional IDs every plan lists. Pure.
 */
public final class AclCheck {

    private AclCheck() {
    }

    /**
     * What one principal is checked for.
     *
     * @param address   the resource's address, e.g. {@code connect_cluster.west}
     * @param who       the resource as messages name it, e.g. {@code KafkaConnect replication/west}
     * @param principal its principal, or null when it authenticates with no block (not checked, nothing said)
     * @param namespace the namespace the KafkaUser is looked up in (the resource's)
     * @param bootstrap the cluster's bootstrap servers, for the commands; may be null
     * @param needs     the ACLs it needs, in the order to list them; empty when exactly-once is off
     */
    public record Subject(String address, String who, Principal principal, String namespace, String bootstrap,
                          List<AclNeed> needs) {
    }

    /**
     * @param accept {@code --accept-missing-acls}
     * @return the diagnostics about {@code s} against the KafkaUsers of {@code live}: none when nothing is needed,
     *         there is no authentication block, the API serves no KafkaUser, or every ACL is there
     */
    public static List<Diagnostic> check(Subject s, LiveState live, boolean accept) {
        if (s.needs().isEmpty() || s.principal() == null || live.kafkaUsers() == null) {
            return List.of();
        }
        Principal p = s.principal();
        if (p.user() == null) {
            return notChecked(s, p.where() + " is of type " + p.type() + ", which names no KafkaUser");
        }
        Optional<LiveKafkaUser> found = live.kafkaUser(s.namespace(), p.user());
        if (found.isEmpty()) {
            return notChecked(s, "namespace " + s.namespace() + " holds no KafkaUser " + p.user() + " (named by "
                    + p.where() + "); a KafkaUser lives in its Kafka cluster's namespace, which may be another");
        }
        LiveKafkaUser user = found.get();
        if (!"simple".equals(user.authorization())) {
            return notChecked(s, user.ref() + (user.authorization() == null ? " has no spec.authorization"
                    : " has spec.authorization.type " + user.authorization()) + ", so its ACLs are not kept in it");
        }
        List<AclNeed> missing = s.needs().stream().filter(n -> !AclMatcher.allows(user.acls(), n)).toList();
        if (missing.isEmpty()) {
            return List.of();
        }
        List<AclFix.Missing> grouped = AclFix.group(missing);
        String list = list(grouped);
        String patch = AclFix.patch(grouped, user.namespace(), user.name());
        String intro = s.who() + " authenticates as " + p.kafkaPrincipal() + " (" + p.where() + ", " + p.type()
                + "), whose " + user.ref() + " lacks ACLs exactly-once needs:\n" + list;
        if (!accept) {
            return List.of(Rule.EOS_ACLS.error("Missing ACLs for exactly-once", intro + "\nWithout them the workers "
                    + "cannot start their transactional producers, or the tasks fail with a "
                    + "TransactionalIdAuthorizationException, in the middle of the rollout. Add them to the KafkaUser:\n"
                    + "  " + patch + "\nor, when this cluster's ACLs are managed elsewhere, plan with "
                    + "--accept-missing-acls to list them as kafka-acls commands instead.", s.address()));
        }
        StringBuilder sb = new StringBuilder(intro).append("\n--accept-missing-acls was given: make sure they exist "
                + "before applying, with kafka-acls:\n");
        AclFix.commands(grouped, p, s.bootstrap()).forEach(c -> sb.append("  ").append(c).append('\n'));
        sb.append("or as a patch of the KafkaUser:\n  ").append(patch);
        return List.of(Rule.EOS_ACLS.warning("ACLs for exactly-once missing from the KafkaUser", sb.toString(),
                s.address()));
    }

    /** @return the warning that the ACLs were not checked, saying why and which they are */
    private static List<Diagnostic> notChecked(Subject s, String why) {
        return List.of(Rule.EOS_ACLS.warning("ACLs for exactly-once not checked", "flowform did not check that "
                + s.who() + "'s principal may use what exactly-once needs: " + why + ". It needs:\n"
                + list(AclFix.group(s.needs())).stripTrailing(), s.address()));
    }

    /** @return one line per resource: type, quoted name, pattern type, operations, and who needs it */
    private static String list(List<AclFix.Missing> grouped) {
        StringBuilder sb = new StringBuilder();
        for (AclFix.Missing m : grouped) {
            sb.append("  - ").append(m.kafkaType()).append(" \"").append(m.name()).append("\" (literal): ")
                    .append(String.join(", ", m.operations())).append(", for ").append(m.why()).append('\n');
        }
        return sb.toString();
    }
}
