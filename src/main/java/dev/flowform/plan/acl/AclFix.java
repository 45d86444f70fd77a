package dev.flowform.plan.acl;

import dev.flowform.plan.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What to add for missing ACLs, in the two forms an operator uses: {@code kafka-acls.sh} commands (Kafka's
 * {@code AclCommand}: {@code --add --allow-principal --allow-host --operation --transactional-id|--topic
 * --resource-pattern-type literal}) and one JSON patch of the KafkaUser appending to {@code spec.authorization.acls}
 * (Strimzi {@code AclRule}: {@code resource {type, name, patternType}}, {@code operations}, {@code host}). Every ACL is
 * literal: the exact names the plan checked, nothing wider. Pure.
 */
public final class AclFix {

    private AclFix() {
    }

    /** The operations missing on one resource. */
    record Missing(String resourceType, String kafkaType, String name, List<String> operations, String why) {
    }

    /** @return the missing ACLs grouped by resource, resources and operations in the order the plan lists them */
    static List<Missing> group(List<AclNeed> needs) {
        Map<String, Missing> byResource = new LinkedHashMap<>();
        for (AclNeed n : needs) {
            Missing m = byResource.computeIfAbsent(n.resourceType() + "\u0000" + n.name(),
                    k -> new Missing(n.resourceType(), n.kafkaType(), n.name(), new ArrayList<>(), n.why()));
            if (!m.operations().contains(n.operation())) {
                m.operations().add(n.operation());
            }
        }
        return List.copyOf(byResource.values());
    }

    /** @return one {@code kafka-acls.sh} command per resource (a placeholder stands for a null {@code bootstrap}) */
    static List<String> commands(List<Missing> missing, Principal principal, String bootstrap) {
        List<String> out = new ArrayList<>();
        for (Missing m : missing) {
            StringBuilder sb = new StringBuilder("kafka-acls.sh --bootstrap-server ")
                    .append(bootstrap == null ? "<bootstrap>" : bootstrap)
                    .append(" --command-config <admin.properties> --add --allow-principal '")
                    .append(principal.kafkaPrincipal()).append("' --allow-host '*'");
            m.operations().forEach(o -> sb.append(" --operation ").append(o));
            sb.append("transactionalId".equals(m.resourceType()) ? " --transactional-id '" : " --topic '")
                    .append(m.name()).append("' --resource-pattern-type literal");
            out.add(sb.toString());
        }
        return out;
    }

    /** @return a {@code kubectl patch} of KafkaUser {@code namespace/user} appending one ACL rule per resource */
    static String patch(List<Missing> missing, String namespace, String user) {
        List<Object> ops = new ArrayList<>();
        for (Missing m : missing) {
            Map<String, Object> resource = new LinkedHashMap<>();
            resource.put("type", m.resourceType());
            resource.put("name", m.name());
            resource.put("patternType", "literal");
            Map<String, Object> rule = new LinkedHashMap<>();
            rule.put("resource", resource);
            rule.put("operations", m.operations());
            rule.put("host", "*");
            Map<String, Object> op = new LinkedHashMap<>();
            op.put("op", "add");
            op.put("path", "/spec/authorization/acls/-");
            op.put("value", rule);
            ops.add(op);
        }
        return "kubectl -n " + namespace + " patch kafkauser " + user + " --type json -p '" + Json.render(ops) + "'";
    }
}
