package dev.flowform.model.strimzi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/** Every place a KafkaMirrorMaker2 (either layout) or a KafkaConnect keeps credentials is encoded, nothing else. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class SecretFieldsTest {

    private static final String JAAS = "ScramLoginModule required username=\"u\" password=\"pw-1\";";

    private static Map<String, Object> v1beta2() {
        return Map.of("apiVersion", "kafka.strimzi.io/v1beta2", "kind", "KafkaMirrorMaker2",
                "metadata", Map.of("name", "mm2", "annotations", Map.of("note.password", "not a config map")),
                "spec", Map.of("connectCluster", "dc2",
                        "clusters", List.of(
                                Map.of("alias", "dc1", "config", Map.of("sasl.jaas.config", JAAS, "acks", "all")),
                                Map.of("alias", "dc2", "config", Map.of("ssl.truststore.password", "pw-2"),
                                        "authentication", Map.of("type", "custom", "sasl", true,
                                                "config", Map.of("oauth.client.id", "pw-3")))),
                        "mirrors", List.of(Map.of("sourceCluster", "dc1",
                                "sourceConnector", Map.of("config", Map.of("ssl.key.password", "pw-4", "replication.factor", 3)),
                                "checkpointConnector", Map.of("config", Map.of("x.token", "pw-5")),
                                "heartbeatConnector", Map.of("config", Map.of("y.secret", "pw-6"))))));
    }

    private static Map<String, Object> v1() {
        return Map.of("spec", Map.of(
                "target", Map.of("alias", "dc2", "config", Map.of("sasl.jaas.config", JAAS),
                        "authentication", Map.of("type", "scram-sha-512", "username", "mm2",
                                "passwordSecret", Map.of("secretName", "mm2-user", "password", "password"))),
                "mirrors", List.of(Map.of("source", Map.of("alias", "dc1", "config", Map.of("sasl.jaas.config", JAAS),
                        "authentication", Map.of("type", "oauth", "clientSecret", Map.of("secretName", "s", "key", "k"),
                                "refreshToken", "pw-7"))))));
    }

    @Test
    void every_config_map_and_authentication_block_of_a_v1beta2_resource_is_encoded() {
        String out = Json.render(SecretFields.encode(v1beta2(), k -> false, v -> "MASKED"));
        assertThat(out).doesNotContain("pw-1", "pw-2", "pw-3", "pw-4", "pw-5", "pw-6")
                .contains("\"acks\":\"all\"", "\"replication.factor\":3", "not a config map", "\"type\":\"custom\"");
    }

    @Test
    void the_v1_target_and_source_are_encoded_and_secret_references_are_kept() {
        String out = Json.render(SecretFields.encode(v1(), k -> false, v -> "MASKED"));
        assertThat(out).doesNotContain("pw-1", "pw-7")
                .contains("\"secretName\":\"mm2-user\"", "\"password\":\"password\"", "\"key\":\"k\"", "\"username\":\"mm2\"");
    }

    @Test
    void a_key_from_a_sensitive_variable_is_encoded_in_any_config_map_and_a_piece_at_its_path_too() {
        Map<String, Object> entry = Map.of("alias", "dc3", "config", Map.of("client.rack", "rack-secret"));
        Object out = SecretFields.encodeAt(List.of("spec", "clusters", "[alias=dc3]"), entry, "client.rack"::equals,
                v -> "MASKED");
        assertThat(Json.render(out)).doesNotContain("rack-secret").contains("MASKED");
        assertThat(SecretFields.isSensitive(List.of("spec", "mirrors", "[source.alias=dc1]", "source", "config",
                "sasl.jaas.config"), k -> false)).isTrue();
        assertThat(SecretFields.isSensitive(List.of("spec", "mirrors", "[source.alias=dc1]", "topicsPattern"), k -> true))
                .isFalse();
    }

    @Test
    void a_created_resource_shows_its_lists_with_the_secrets_masked() {
        List<AttributeChange> attrs = AttributeChange.ofManifest(v1beta2(), k -> false);
        assertThat(attrs).extracting(AttributeChange::after).noneMatch(a -> a.contains("pw-"))
                .anyMatch(a -> a.contains("(sensitive value)") && a.contains("\"acks\":\"all\""));
    }
}
