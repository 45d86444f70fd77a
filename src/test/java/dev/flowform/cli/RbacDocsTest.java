package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The permissions the documentation lists are the ones {@code deploy/rbac.yaml} grants, which {@link RbacTest} proves
 * against every request flowform sends: the permission table (one row per API group and resource, the verbs of the
 * plan-only and the apply Role) and the lease paragraph's verbs.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class RbacDocsTest {

    /** The page holding the permission table. */
    static final Path TABLE = Path.of("docs", "kubernetes.md");
    /** The page holding the lease paragraph. */
    static final Path LEASES = Path.of("docs", "operations.md");
    private static final Path RBAC = Path.of("deploy", "rbac.yaml");
    private static final Pattern ROW = Pattern.compile(
            "(?m)^\\| (`[^`]+`|\\(core\\)) \\| `([a-z0-9]+)` \\| ([^|]+) \\| ([^|]+) \\|");
    private static final Pattern LEASE_VERBS = Pattern.compile("needs only ((?:`[a-z]+`(?:, | and )?)+) on `leases`");

    @Test
    void the_permission_table_lists_exactly_what_each_role_grants() throws IOException {
        String doc = Files.readString(TABLE);
        Set<String> plan = new TreeSet<>();
        Set<String> apply = new TreeSet<>();
        Matcher m = ROW.matcher(doc);
        while (m.find()) {
            String group = m.group(1).equals("(core)") ? "" : m.group(1).replace("`", "");
            verbs(m.group(3)).forEach(v -> plan.add(RbacCheck.key(v, group, m.group(2))));
            verbs(m.group(4)).forEach(v -> apply.add(RbacCheck.key(v, group, m.group(2))));
        }
        List<HasMetadata> roles = RbacCheck.read(RBAC);

        assertThat(apply).as("the table's flowform-apply column, in %s", TABLE)
                .isEqualTo(RbacCheck.grants(RbacCheck.role(roles, "flowform-apply")));
        assertThat(plan).as("the table's flowform-plan column, in %s", TABLE)
                .isEqualTo(RbacCheck.grants(RbacCheck.role(roles, "flowform-plan")));
    }

    @Test
    void the_lease_paragraph_names_the_verbs_the_apply_role_grants_on_leases() throws IOException {
        Matcher m = LEASE_VERBS.matcher(Files.readString(LEASES).replaceAll("\\s+", " "));
        assertThat(m.find()).as("the lease paragraph's verbs in %s", LEASES).isTrue();
        Set<String> documented = new TreeSet<>(List.of(m.group(1).replaceAll("`|,| and", " ").trim().split("\\s+")));

        Set<String> granted = new TreeSet<>();
        RbacCheck.grants(RbacCheck.role(RbacCheck.read(RBAC), "flowform-apply")).stream()
                .filter(g -> g.endsWith(" coordination.k8s.io/leases")).forEach(g -> granted.add(g.split(" ")[0]));
        assertThat(documented).isEqualTo(granted).doesNotContain("delete");
    }

    /** @return the verbs of a table cell ({@code get, list, watch}; {@code -} for none) */
    private static List<String> verbs(String cell) {
        String c = cell.trim();
        return c.equals("-") ? List.of() : List.of(c.split(",\\s*"));
    }
}
