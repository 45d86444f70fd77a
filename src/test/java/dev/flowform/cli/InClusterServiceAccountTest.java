package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.ApiRequest;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * flowform in a pod: an environment with {@code "kubernetes": {}} and no kubeconfig anywhere uses the pod's
 * service account. The child JVM gets exactly what the kubelet gives a container: {@code KUBERNETES_SERVICE_HOST}
 * and {@code KUBERNETES_SERVICE_PORT}, and a token, CA certificate and namespace file. Those files live under
 * {@code /var/run/secrets/kubernetes.io/serviceaccount/} in a pod; here their paths are given through the
 * environment variables fabric8's {@code Config} reads before falling back to that folder
 * ({@code KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN}, {@code KUBERNETES_CERTS_CA_FILE}, {@code KUBENAMESPACE}, the
 * environment forms of its {@code kubernetes.auth.serviceAccount.token}, {@code kubernetes.certs.ca.file} and
 * {@code kubenamespace} properties). In-cluster configuration is always HTTPS, so the embedded API server serves
 * HTTPS with its self-signed certificate, which is the CA file; a CA that does not sign the server's certificate
 * makes the plan fail, so TLS is really verified. {@code user.home} points at an empty folder, so no
 * {@code ~/.kube/config} can be picked up instead. Slow tier: two child JVMs.
 */
@Tag("slow")
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class InClusterServiceAccountTest {

    private static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.in-cluster-test-token";

    @TempDir
    Path tmp;

    @Test
    void plan_in_a_pod_uses_the_service_account_token_over_verified_https() throws Exception {
        Path dir = CliFiles.quickstart(tmp.resolve("conf"));
        String text = Files.readString(dir.resolve("main.flow.json"));
        String embedded = "\"embedded\": {\n          \"seed\": \"./seed\"\n        }";
        assertThat(text).contains(embedded);
        Files.writeString(dir.resolve("main.flow.json"), text.replace(embedded, ""));
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                .seedDir(dir.resolve("seed")).settings(SimSettings.fast()).https(true).build())) {
            assertThat(cluster.url()).startsWith("https://");
            Path sa = Files.createDirectories(tmp.resolve("serviceaccount"));
            Files.writeString(sa.resolve("token"), TOKEN);
            Files.copy(cluster.certificateFile(), sa.resolve("ca.crt"));
            Files.writeString(sa.resolve("namespace"), "replication");
            cluster.audit().clear();

            CliRunner.Result plan = plan(dir, pod(cluster, sa, sa.resolve("ca.crt")));
            assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
            assertThat(plan.out() + plan.err()).contains("service account of this pod", "KafkaConnect replication/mm2-connect");

            List<ApiRequest> seen = cluster.audit().drain();
            assertThat(seen).as("the plan's requests").isNotEmpty()
                    .allSatisfy(r -> assertThat(r.bearer()).as("%s", r).isEqualTo(ApiRequest.tokenFingerprint(TOKEN)));
            assertThat(seen).extracting(ApiRequest::toString)
                    .contains("list kafka.strimzi.io/kafkaconnects in replication");

            Path otherCa = Files.writeString(tmp.resolve("other-ca.crt"), otherCertificate());
            CliRunner.Result untrusted = plan(dir, pod(cluster, sa, otherCa));
            assertThat(untrusted.exitCode()).as("%s", untrusted).isEqualTo(1);
            assertThat(cluster.audit().drain()).as("nothing got through TLS").isEmpty();
        }
    }

    /** @return the environment of a container running as the service account in {@code sa}, trusting {@code ca} */
    private Map<String, String> pod(EmbeddedCluster cluster, Path sa, Path ca) throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("KUBERNETES_SERVICE_HOST", "localhost");
        env.put("KUBERNETES_SERVICE_PORT", cluster.url().replaceAll("^https://127\\.0\\.0\\.1:(\\d+)/$", "$1"));
        env.put("KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN", sa.resolve("token").toString());
        env.put("KUBERNETES_CERTS_CA_FILE", ca.toString());
        env.put("KUBENAMESPACE", sa.resolve("namespace").toString());
        env.put("KUBECONFIG", "");
        env.put("JAVA_TOOL_OPTIONS", "-Duser.home=" + Files.createDirectories(tmp.resolve("home")));
        return env;
    }

    private CliRunner.Result plan(Path dir, Map<String, String> env) throws InterruptedException {
        try (ChildFlowform child = ChildFlowform.start(tmp, env, "plan", "--detailed-exitcode", "--no-color", "--dir",
                dir.toString(), "--state-dir", tmp.resolve("state").toString())) {
            int code = child.waitFor(Duration.ofSeconds(120));
            return new CliRunner.Result(code, child.out(), child.err());
        }
    }

    /** A CA certificate that did not sign the server's: a second HTTPS cluster's own self-signed one. */
    private static String otherCertificate() throws IOException {
        try (EmbeddedCluster other = EmbeddedCluster.start(EmbeddedClusterOptions.builder().https(true).build())) {
            return Files.readString(other.certificateFile());
        }
    }
}
