package dev.flowform.plan.acl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.KafkaAcl;
import dev.flowform.model.LiveKafkaUser;
import dev.flowform.model.LiveState;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The matching of StandardAuthorizer (StandardAuthorizerData, ResourceAcls) and what the check says. */
class AclMatcherTest {

    private static final AclNeed WRITE = new AclNeed("transactionalId", "g-orders-0", "Write", "task 0");
    private static final AclNeed DESCRIBE = new AclNeed("transactionalId", "g-orders-0", "Describe", "task 0");

    private static KafkaAcl allow(String name, boolean prefixed, String... ops) {
        return new KafkaAcl(null, "transactionalId", name, prefixed, null, List.of(ops));
    }

    @Test
    void literal_names_match_exactly_or_by_the_wildcard() {
        assertThat(AclMatcher.allows(List.of(allow("g-orders-0", false, "Write")), WRITE)).isTrue();
        assertThat(AclMatcher.allows(List.of(allow("g-orders", false, "Write")), WRITE)).isFalse();
        assertThat(AclMatcher.allows(List.of(allow("*", false, "Write")), WRITE)).isTrue();
    }

    @Test
    void prefixed_names_match_every_name_starting_with_them() {
        assertThat(AclMatcher.allows(List.of(allow("g-ord", true, "Write")), WRITE)).isTrue();
        assertThat(AclMatcher.allows(List.of(allow("g-orders-1", true, "Write")), WRITE)).isFalse();
        assertThat(AclMatcher.allows(List.of(allow("*", true, "Write")), WRITE)).as("* is a literal wildcard only")
                .isFalse();
    }

    @Test
    void all_allows_every_operation_and_write_implies_describe_but_not_the_reverse() {
        assertThat(AclMatcher.allows(List.of(allow("g-orders-0", false, "All")), WRITE)).isTrue();
        assertThat(AclMatcher.allows(List.of(allow("g-orders-0", false, "Write")), DESCRIBE)).isTrue();
        assertThat(AclMatcher.allows(List.of(allow("g-orders-0", false, "Describe")), WRITE)).isFalse();
        assertThat(AclMatcher.allows(List.of(new KafkaAcl(null, "topic", "g-orders-0", false, null, List.of("All"))),
                WRITE)).as("another resource type").isFalse();
    }

    @Test
    void a_deny_wins_and_is_not_widened_and_only_acls_for_every_host_count() {
        KafkaAcl deny = new KafkaAcl("deny", "transactionalId", "g-", true, "*", List.of("Write"));
        assertThat(AclMatcher.allows(List.of(allow("*", false, "All"), deny), WRITE)).isFalse();
        assertThat(AclMatcher.allows(List.of(allow("*", false, "All"), deny), DESCRIBE)).isTrue();
        assertThat(AclMatcher.allows(List.of(new KafkaAcl(null, "transactionalId", "*", false, "10.0.0.1",
                List.of("All"))), WRITE)).isFalse();
    }

    @Test
    void a_tls_principal_is_its_certificate_secret_and_oauth_names_no_user() {
        Principal tls = Principal.of(Map.of("type", "tls", "certificateAndKey", Map.of("secretName", "mm2")), "spec.authentication");
        assertThat(tls.user()).isEqualTo("mm2");
        assertThat(tls.kafkaPrincipal()).isEqualTo("User:CN=mm2");
        assertThat(Principal.of(Map.of("type", "oauth"), "spec.authentication").user()).isNull();
        assertThat(Principal.of(null, "spec.authentication")).isNull();
    }

    @Test
    void the_check_refuses_accepts_or_says_what_it_did_not_check() {
        Principal p = Principal.of(Map.of("type", "scram-sha-512", "username", "u"), "spec.authentication");
        AclCheck.Subject s = new AclCheck.Subject("connect_cluster.c", "KafkaConnect ns/c", p, "ns", null, List.of(WRITE, DESCRIBE));
        LiveKafkaUser none = LiveKafkaUser.of(new ObjectRef("kafka.strimzi.io/v1", "KafkaUser", "ns", "u"),
                Map.of("authorization", Map.of("type", "simple", "acls", List.of())));
        LiveState live = LiveState.empty(StrimziApi.V1).withKafkaUsers(List.of(none));
        List<Diagnostic> refused = AclCheck.check(s, live, false);
        assertThat(refused).singleElement().satisfies(d -> {
            assertThat(d.isError()).isTrue();
            assertThat(d.detail()).contains("TransactionalId \"g-orders-0\" (literal): Write, Describe", "KafkaUser ns/u");
        });
        assertThat(AclCheck.check(s, live, true)).singleElement().satisfies(d -> {
            assertThat(d.isError()).isFalse();
            assertThat(d.detail()).contains("kafka-acls.sh --bootstrap-server <bootstrap>",
                    "--operation Write --operation Describe --transactional-id 'g-orders-0' --resource-pattern-type literal");
        });
        assertThat(AclCheck.check(s, LiveState.empty(StrimziApi.V1), false)).as("no User Operator").isEmpty();
        assertThat(AclCheck.check(s, LiveState.empty(StrimziApi.V1).withKafkaUsers(List.of()), false)).singleElement()
                .satisfies(d -> assertThat(d.detail()).contains("holds no KafkaUser u"));
        assertThat(AclCheck.check(new AclCheck.Subject("connect_cluster.c", "KafkaConnect ns/c", null, "ns", null,
                List.of(WRITE)), live, false)).as("no authentication block").isEmpty();
    }
}
