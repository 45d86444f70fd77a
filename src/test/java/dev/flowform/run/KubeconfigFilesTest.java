package dev.flowform.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubeconfig reader gives what fabric8's own parsing gives, extensions and relative paths included. */
class KubeconfigFilesTest {

    private static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            clusters:
            - name: prod
              cluster:
                server: https://prod.example:6443
                certificate-authority: certs/ca.crt
                extensions:
                - name: client.authentication.k8s.io/exec
                  extension: {audience: prod}
            - name: dev
              cluster:
                server: http://127.0.0.1:8001
            users:
            - name: alice
              user:
                token: alice-token
                client-key: keys/alice.key
            contexts:
            - name: prod
              context: {cluster: prod, user: alice, namespace: replication}
              extensions: []
            - name: dev
              context: {cluster: dev, user: alice}
            current-context: dev
            preferences: {extensions: []}
            """;

    @TempDir
    Path dir;

    @Test
    void reads_a_named_context_as_fabric8_does() throws Exception {
        Path file = dir.resolve("config");
        Files.writeString(file, KUBECONFIG);
        @SuppressWarnings("removal")
        Config expected = Config.fromKubeconfig("prod", KUBECONFIG, file.toString());

        Config actual = KubeconfigFiles.read("prod", List.of(file), false);

        assertThat(actual.getMasterUrl()).isEqualTo(expected.getMasterUrl()).isEqualTo("https://prod.example:6443/");
        assertThat(actual.getCaCertFile()).isEqualTo(expected.getCaCertFile())
                .isEqualTo(dir.resolve("certs/ca.crt").toString());
        assertThat(actual.getClientKeyFile()).isEqualTo(expected.getClientKeyFile())
                .isEqualTo(dir.resolve("keys/alice.key").toString());
        assertThat(actual.getNamespace()).isEqualTo(expected.getNamespace()).isEqualTo("replication");
        assertThat(actual.getAutoOAuthToken()).isEqualTo(expected.getAutoOAuthToken()).isEqualTo("alice-token");
        assertThat(actual.getCurrentContext().getName()).isEqualTo("prod");
        assertThat(actual.getContexts()).extracting("name").containsExactly("prod", "dev");
        assertThat(actual.getAutoConfigure()).isEqualTo(expected.getAutoConfigure());
    }

    @Test
    void takes_the_current_context_of_the_first_file_and_merges_the_others() throws Exception {
        Path first = dir.resolve("a");
        Path second = dir.resolve("b");
        Files.writeString(first, "apiVersion: v1\nkind: Config\ncurrent-context: dev\n");
        Files.writeString(second, KUBECONFIG.replace("current-context: dev", "current-context: prod"));

        Config actual = KubeconfigFiles.read(null, List.of(first, second), true);

        assertThat(actual.getCurrentContext().getName()).isEqualTo("dev");
        assertThat(actual.getMasterUrl()).isEqualTo("http://127.0.0.1:8001/");
        assertThat(actual.getAutoConfigure()).isTrue();
    }

    @Test
    void a_file_that_is_not_a_kubeconfig_is_a_located_error() throws Exception {
        Path file = dir.resolve("broken");
        Files.writeString(file, "clusters: [\n");

        assertThatThrownBy(() -> KubeconfigFiles.read(null, List.of(file), false))
                .isInstanceOf(KubeconfigTarget.Unusable.class)
                .hasMessageContaining("Kubeconfig \"" + file + "\" is not a kubeconfig file");
    }
}
