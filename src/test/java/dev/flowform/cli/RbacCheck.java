package dev.flowform.cli;

import dev.flowform.sim.ApiRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Kubernetes RBAC evaluation of recorded requests against a Role, as the API server's RBAC authorizer decides
 * (Kubernetes docs, "Using RBAC Authorization"): a request is allowed when one rule lists its API group, its
 * resource (with the subresource, e.g. {@code kafkaconnects/status}) and its verb ({@code *} matching anything),
 * and, when the rule names {@code resourceNames}, the object's name. A Role grants only in its own namespace.
 * Non-resource URLs are checked against what the default {@code system:discovery} ClusterRole grants every
 * authenticated user ({@code /version}, {@code /api}, {@code /api/*}, {@code /apis}, {@code /apis/*}).
 */
final class RbacCheck {
    /** The non-resource URLs of Kubernetes' default {@code system:discovery} ClusterRole. */
    private static final Pattern DISCOVERY = Pattern.compile("^/(version/?|api(/.*)?|apis(/.*)?|healthz|livez|readyz)$");

    private RbacCheck() {
    }

    /** @return every document of the multi-document YAML file {@code file}, parsed by fabric8 */
    static List<HasMetadata> read(Path file) {
        try {
            String text = Files.readString(file);
            List<HasMetadata> out = new ArrayList<>();
            KubernetesSerialization ser = new KubernetesSerialization();
            for (String doc : text.split("(?m)^---\\s*$")) {
                if (!doc.replaceAll("(?m)^\\s*#.*$", "").isBlank()) {
                    out.add(ser.unmarshal(doc));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the Role named {@code name} in {@code docs} */
    static Role role(List<HasMetadata> docs, String name) {
        return docs.stream().filter(d -> d instanceof Role && name.equals(d.getMetadata().getName())).map(Role.class::cast)
                .findFirst().orElseThrow(() -> new AssertionError("no Role " + name));
    }

    /**
     * @param namespace the namespace the Role is bound in
     * @return each request {@code role} does not allow, with the reason, as {@code verb group/resource (why)}
     */
    static Set<String> missing(Role role, String namespace, Collection<ApiRequest> requests) {
        Set<String> out = new TreeSet<>();
        for (ApiRequest r : requests) {
            if (r.nonResource()) {
                if (!DISCOVERY.matcher(r.path()).matches()) {
                    out.add(r.verb() + " " + r.path() + " (non-resource URL outside system:discovery)");
                }
            } else if (!namespace.equals(r.namespace())) {
                out.add(key(r.verb(), r.group(), r.resource()) + " (outside namespace " + namespace
                        + ": a Role cannot grant it)");
            } else if (role.getRules().stream().noneMatch(rule -> allows(rule, r))) {
                out.add(key(r.verb(), r.group(), r.resource()));
            }
        }
        return out;
    }

    /** @return every (verb, group, resource) {@code role} grants that no request used, as {@code verb group/resource} */
    static Set<String> unused(Role role, String namespace, Collection<ApiRequest> requests) {
        Set<String> out = new TreeSet<>();
        for (String granted : grants(role)) {
            boolean used = requests.stream().anyMatch(r -> !r.nonResource() && namespace.equals(r.namespace())
                    && granted.equals(key(r.verb(), r.group(), r.resource())));
            if (!used) {
                out.add(granted);
            }
        }
        return out;
    }

    /** @return every (verb, group, resource) the Role's rules spell out, as {@code verb group/resource} */
    static Set<String> grants(Role role) {
        Set<String> out = new TreeSet<>();
        for (PolicyRule rule : role.getRules()) {
            for (String g : rule.getApiGroups()) {
                for (String res : rule.getResources()) {
                    for (String v : rule.getVerbs()) {
                        out.add(key(v, g, res));
                    }
                }
            }
        }
        return out;
    }

    /** @return a copy of {@code role} without the one grant {@code grant} ({@code verb group/resource}) */
    static Role without(Role role, String grant) {
        List<PolicyRule> rules = new ArrayList<>();
        for (PolicyRule rule : role.getRules()) {
            for (String g : rule.getApiGroups()) {
                for (String res : rule.getResources()) {
                    List<String> verbs = rule.getVerbs().stream().filter(v -> !grant.equals(key(v, g, res))).toList();
                    if (!verbs.isEmpty()) {
                        rules.add(new PolicyRule(List.of(g), List.of(), rule.getResourceNames(), List.of(res), verbs));
                    }
                }
            }
        }
        return new RoleBuilder(role).withRules(rules).build();
    }

    /** @return {@code verb group/resource}, the core group shown as {@code core} */
    static String key(String verb, String group, String resource) {
        return verb + " " + (group.isEmpty() ? "core" : group) + "/" + resource;
    }

    /** @return the requests grouped by {@link #key}, for messages */
    static Map<String, Integer> summary(Collection<ApiRequest> requests) {
        Map<String, Integer> out = new LinkedHashMap<>();
        requests.stream().filter(r -> !r.nonResource()).map(r -> key(r.verb(), r.group(), r.resource())).sorted()
                .forEach(k -> out.merge(k, 1, Integer::sum));
        return out;
    }

    private static boolean allows(PolicyRule rule, ApiRequest r) {
        return matches(rule.getApiGroups(), r.group()) && matches(rule.getResources(), r.resource())
                && matches(rule.getVerbs(), r.verb())
                && (rule.getResourceNames() == null || rule.getResourceNames().isEmpty()
                        || r.name() != null && rule.getResourceNames().contains(r.name()));
    }

    private static boolean matches(List<String> listed, String value) {
        return listed != null && (listed.contains("*") || listed.contains(value));
    }
}
