package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Sim;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An environment on a kubeconfig ({@code "kubernetes": {"kubeconfig": ..., "context": ...}}) goes through
 * fabric8's kubeconfig handling exactly as against a real cluster; the API server here is the
 * embedded one, started by the test and reached over HTTP.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class KubeconfigCliTest {

    @TempDir
    Path tmp;

    @Test
    void plan_and_apply_through_a_kubeconfig_context() throws IOException {
        try (EmbeddedCluster cluster = Sim.start("existing-v1", tmp, SimSettings.fast())) {
            Path kubeconfig = cluster.writeKubeconfig(tmp.resolve("kubeconfig.yaml"));
            Path dir = tmp.resolve("conf");
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("main.flow.json"), """
                    {
                      "environment": {
                        "prod": {
                          "kubernetes": { "kubeconfig": "%s", "context": "%s" },
                          "namespace": "replication"
                        }
                      },
                      "connect_cluster": { "mm2-connect": { "manage": "adopt" } },
                      "replication_flow": {
                        "dc1-to-dc2": { "manage": "adopt", "connect_cluster": "mm2-connect" }
                      }
                    }
                    """.formatted(kubeconfig.toString().replace("\\", "\\\\"), EmbeddedCluster.CONTEXT));
            CliRunner cli = CliRunner.fast();
            String[] common = {"--dir", dir.toString(), "--state-dir", tmp.resolve("state").toString(), "--no-color"};

            CliRunner.Result plan = cli.run(join("plan", "--detailed-exitcode", common));
            assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
            assertThat(plan.out()).contains("KafkaConnect replication/mm2-connect", "2 rolling restarts");

            CliRunner.Result apply = cli.run(join("apply", "--auto-approve", common));
            assertThat(apply.exitCode()).as("%s", apply).isEqualTo(0);

            assertThat(cli.run(join("plan", "--detailed-exitcode", common)).exitCode()).isZero();
        }
    }

    private static String[] join(String cmd, String flag, String[] rest) {
        String[] all = new String[rest.length + 2];
        all[0] = cmd;
        all[1] = flag;
        System.arraycopy(rest, 0, all, 2, rest.length);
        return all;
    }
}
