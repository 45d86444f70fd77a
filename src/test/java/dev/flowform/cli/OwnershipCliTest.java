package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Sim;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two environments, each with its own state, reach the same Connect cluster through one kubeconfig. What
 * {@code staging} applied carries its marks, so {@code prod} is refused until it takes the objects over with
 * {@code --transfer-ownership}; the run history of {@code prod} records the transfer, and from then on
 * {@code staging} is the one refused.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class OwnershipCliTest {

    private static final Pattern LINEAGE = Pattern.compile("\\(lineage ([0-9a-f-]{36}),");

    @TempDir
    Path tmp;

    @Test
    void another_environment_is_refused_until_it_takes_the_objects_over_and_history_records_it() throws IOException {
        try (EmbeddedCluster cluster = Sim.start("existing-v1", tmp, SimSettings.fast())) {
            Path kubeconfig = cluster.writeKubeconfig(tmp.resolve("kubeconfig.yaml"));
            Path dir = tmp.resolve("conf");
            Files.createDirectories(dir);
            String target = "\"kubernetes\": { \"kubeconfig\": \"%s\", \"context\": \"%s\" }, \"namespace\": \"replication\""
                    .formatted(kubeconfig.toString().replace("\\", "\\\\"), EmbeddedCluster.CONTEXT);
            Files.writeString(dir.resolve("main.flow.json"), """
                    {
                      "environment": {
                        "staging": { %s },
                        "prod": { %s }
                      },
                      "connect_cluster": { "mm2-connect": { "manage": "adopt" } },
                      "replication_flow": {
                        "dc1-to-dc2": { "manage": "adopt", "connect_cluster": "mm2-connect" }
                      }
                    }
                    """.formatted(target, target));
            CliRunner cli = CliRunner.fast();
            String stateDir = tmp.resolve("state").toString();

            CliRunner.Result staging = cli.run(args("apply", "staging", dir, stateDir, "--auto-approve"));
            assertThat(staging.exitCode()).as("%s", staging).isZero();
            String stagingLineage = lineage(cli.run(args("history", "staging", dir, stateDir)));

            CliRunner.Result refused = cli.run(args("plan", "prod", dir, stateDir, "--detailed-exitcode"));
            String prodLineage = lineage(cli.run(args("history", "prod", dir, stateDir)));
            System.out.println("=== plan -e prod (refused) ===\n" + refused);
            assertThat(refused.exitCode()).as("%s", refused).isEqualTo(1);
            assertThat(flat(refused.err())).contains("Object is managed by another flowform state",
                    "KafkaConnect replication/mm2-connect carries the ownership marks of environment \"staging\" (lineage "
                            + stagingLineage + ")",
                    "this plan is for environment \"prod\" (lineage " + prodLineage + ")",
                    "--transfer-ownership connect_cluster.mm2-connect", "--transfer-ownership kafka_connector.dc1-to-dc2-source");
            assertThat(cli.run(args("apply", "prod", dir, stateDir, "--auto-approve")).exitCode())
                    .as("apply is refused the same way").isEqualTo(1);

            CliRunner.Result transfer = cli.run(args("apply", "prod", dir, stateDir, "--auto-approve",
                    "--transfer-ownership", "connect_cluster.mm2-connect", "--transfer-ownership", "replication_flow.dc1-to-dc2"));
            System.out.println("=== apply -e prod --transfer-ownership ... ===\n" + transfer);
            assertThat(transfer.exitCode()).as("%s", transfer).isZero();
            assertThat(flat(transfer.out())).contains("TRANSFER_OWNERSHIP", "0 rolling restarts",
                    "Ownership transferred: connect_cluster.mm2-connect (take over from environment \"staging\" (lineage "
                            + stagingLineage + "))");

            CliRunner.Result history = cli.run(args("history", "prod", dir, stateDir));
            System.out.println("=== history -e prod ===\n" + history);
            assertThat(history.exitCode()).isZero();
            assertThat(flat(history.out())).contains("TRANSFER_OWNERSHIP", "connect_cluster.mm2-connect",
                    "ownership of KafkaConnect replication/mm2-connect: take over from environment \"staging\" (lineage "
                            + stagingLineage + ")",
                    "Ownership transferred: connect_cluster.mm2-connect (take over from environment \"staging\"");

            assertThat(cli.run(args("plan", "prod", dir, stateDir, "--detailed-exitcode")).exitCode())
                    .as("prod owns the objects now: nothing to do").isZero();
            CliRunner.Result back = cli.run(args("plan", "staging", dir, stateDir, "--detailed-exitcode"));
            assertThat(back.exitCode()).as("%s", back).isEqualTo(1);
            assertThat(flat(back.err())).contains("carries the ownership marks of environment \"prod\" (lineage " + prodLineage + ")");
        }
    }

    static String[] args(String command, String env, Path dir, String stateDir, String... more) {
        List<String> all = new ArrayList<>(List.of(command, "-e", env, "--dir", dir.toString(), "--state-dir", stateDir,
                "--no-color"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    /** @return {@code text} on one line: the terminal wraps diagnostics at its width */
    static String flat(String text) {
        return text.replaceAll("\\s+", " ");
    }

    static String lineage(CliRunner.Result history) {
        Matcher m = LINEAGE.matcher(history.out());
        assertThat(m.find()).as("%s", history).isTrue();
        return m.group(1);
    }
}
