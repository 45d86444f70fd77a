package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.sim.StrimziCrds;
import dev.flowform.testing.Sim;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The ACL check of {@code plan} (docs/domain-rules.md, rule 10) end to end: the quickstart KafkaConnect, which
 * authenticates with SCRAM as {@code mm2-connect}, and its KafkaUser are read from an API server through a kubeconfig;
 * {@code plan --json} reports a missing ACL as an error on the resource and writes nothing, {@code --accept-missing-acls}
 * as a warning with the {@code kafka-acls} commands, and with the ACLs in the KafkaUser the plan says nothing of them.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class AclCheckCliTest {

    @TempDir
    Path tmp;

    private EmbeddedCluster cluster;
    private Path dir;
    private final CliRunner cli = CliRunner.fast();

    @BeforeEach
    void start() {
        cluster = Sim.start("existing-v1beta2", tmp, SimSettings.fast());
        dir = CliFiles.kubeconfigConfig(tmp.resolve("conf"), cluster, "");
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private String[] args(String command, String... more) {
        return CliFiles.args(command, dir, tmp.resolve("state"), more);
    }

    /** Writes KafkaUser replication/mm2-connect with these {@code simple} ACLs, through the API server's admission. */
    private void kafkaUser(List<Map<String, Object>> acls) {
        GenericKubernetesResource user = new GenericKubernetesResource();
        user.setApiVersion(cluster.api().kafkaApiVersion());
        user.setKind("KafkaUser");
        user.setMetadata(new ObjectMetaBuilder().withName("mm2-connect").withNamespace("replication").build());
        user.setAdditionalProperty("spec", Map.of("authentication", Map.of("type", "scram-sha-512"),
                "authorization", Map.of("type", "simple", "acls", acls)));
        cluster.client().genericKubernetesResources(StrimziCrds.kafkaUser(cluster.api())).inNamespace("replication")
                .resource(user).createOr(r -> r.update());
    }

    private static Map<String, Object> acl(String name, String patternType, String... operations) {
        return Map.of("resource", Map.of("type", "transactionalId", "name", name, "patternType", patternType),
                "operations", List.of(operations));
    }

    private static final Map<String, Object> TOPICS = Map.of("resource", Map.of("type", "topic", "name", "*",
            "patternType", "literal"), "operations", List.of("Read", "Write"));

    @Test
    void a_missing_acl_is_an_error_in_the_json_plan_and_the_flag_turns_it_into_commands() {
        kafkaUser(List.of(acl("mm2-connect-", "prefix", "Write", "Describe"), TOPICS));

        CliRunner.Result refused = cli.run(args("plan", "--json"));
        assertThat(refused.exitCode()).as("%s", refused).isEqualTo(1);
        JsonNode doc = JsonMapper.builder().build().readTree(refused.out());
        JsonNode error = doc.get("diagnostics").get(0);
        assertThat(error.get("severity").asString()).isEqualTo("error");
        assertThat(error.get("summary").asString()).isEqualTo("Missing ACLs for exactly-once");
        assertThat(error.get("address").asString()).isEqualTo("connect_cluster.mm2-connect");
        assertThat(error.get("detail").asString()).contains("KafkaUser replication/mm2-connect",
                "TransactionalId \"connect-cluster-mm2-connect\" (literal): Write, Describe",
                "kubectl -n replication patch kafkauser mm2-connect --type json");
        assertThat(doc.get("applyable").asBoolean()).isFalse();
        assertThat(doc.get("steps")).isEmpty();

        CliRunner.Result accepted = cli.run(args("plan", "--json", "--accept-missing-acls"));
        assertThat(accepted.exitCode()).as("%s", accepted).isZero();
        JsonNode warned = JsonMapper.builder().build().readTree(accepted.out());
        assertThat(warned.get("applyable").asBoolean()).isTrue();
        assertThat(warned.get("diagnostics").toString()).contains("ACLs for exactly-once missing from the KafkaUser",
                "kafka-acls.sh --bootstrap-server dc2-kafka-bootstrap.kafka-dc2.svc:9093",
                "--transactional-id 'connect-cluster-mm2-connect' --resource-pattern-type literal");

        kafkaUser(List.of(acl("mm2-connect-", "prefix", "Write", "Describe"), acl("connect-cluster-mm2-connect", "literal",
                "Write"), TOPICS));
        CliRunner.Result checked = cli.run(args("plan", "--json"));
        assertThat(checked.exitCode()).as("%s", checked).isZero();
        assertThat(checked.out()).doesNotContain("eos-acls");
    }
}
