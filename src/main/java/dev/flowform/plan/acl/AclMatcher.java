package dev.flowform.plan.acl;

import dev.flowform.model.KafkaAcl;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides whether a KafkaUser's ACLs allow one operation on one resource, as Kafka's KRaft {@code StandardAuthorizer}
 * does ({@code StandardAuthorizerData}, {@code ResourceAcls}): an ACL applies when its resource type is the resource's
 * and its name is the resource's ({@code literal}), the wildcard {@code *} ({@code literal}), or a prefix of it
 * ({@code prefix}); an {@code allow} of {@code All} or of the operation allows it, and so does an {@code allow} of
 * {@code Read}, {@code Write}, {@code Delete} or {@code Alter} for {@code Describe} ({@code IMPLIES_DESCRIBE}) and of
 * {@code AlterConfigs} for {@code DescribeConfigs}; a {@code deny} of {@code All} or of the operation denies it and wins.
 * Only ACLs for every host ({@code *}) count: a worker pod's address is not known at plan time. Pure.
 */
public final class AclMatcher {

    private static final Set<String> IMPLIES_DESCRIBE = Set.of("read", "write", "delete", "alter");

    private AclMatcher() {
    }

    /** @return true when the user's {@code acls} allow the operation on a resource that {@code need} names */
    public static boolean allows(List<KafkaAcl> acls, AclNeed need) {
        boolean allowed = false;
        for (KafkaAcl a : acls) {
            if (!"*".equals(a.host()) || !a.resourceType().equalsIgnoreCase(need.resourceType())
                    || !nameMatches(a, need.name())) {
                continue;
            }
            if (a.deny() && a.operations().stream().anyMatch(o -> is(o, "All") || is(o, need.operation()))) {
                return false;
            }
            if (!a.deny() && a.operations().stream().anyMatch(o -> grants(o, need.operation()))) {
                allowed = true;
            }
        }
        return allowed;
    }

    /** @return true when {@code acl}'s resource pattern matches {@code name} (a {@code cluster} ACL matches any) */
    static boolean nameMatches(KafkaAcl acl, String name) {
        if ("cluster".equalsIgnoreCase(acl.resourceType())) {
            return true;
        }
        if (acl.name() == null) {
            return false;
        }
        return acl.prefixed() ? name.startsWith(acl.name()) : acl.name().equals(name) || acl.name().equals("*");
    }

    private static boolean grants(String granted, String wanted) {
        String g = granted.toLowerCase(Locale.ROOT);
        String w = wanted.toLowerCase(Locale.ROOT);
        return g.equals("all") || g.equals(w) || w.equals("describe") && IMPLIES_DESCRIBE.contains(g)
                || w.equals("describeconfigs") && g.equals("alterconfigs");
    }

    private static boolean is(String op, String name) {
        return op.equalsIgnoreCase(name);
    }
}
