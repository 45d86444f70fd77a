package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static dev.flowform.cli.OwnershipCliTest.args;
import static dev.flowform.cli.OwnershipCliTest.flat;
import static dev.flowform.cli.OwnershipCliTest.lineage;

/**
 * Ownership of a KafkaMirrorMaker2 through the CLI on one embedded cluster (examples/mirrormaker2's seed) that two
 * environments point at: the first apply marks the resource (annotations); the other environment's plan and apply are
 * refused naming the owner; {@code apply --transfer-ownership mirrormaker2.mm2} takes it over with a
 * {@code TRANSFER_OWNERSHIP} step that {@code history} records, after which the first environment is refused.
 */
@Tag("slow")
class MirrorMakerOwnershipCliTest {
    // args, flat and lineage: OwnershipCliTest's, the same commands for a KafkaConnect

    @TempDir
    Path tmp;

    @Test
    void another_environment_is_refused_until_it_takes_the_mirror_maker_over() throws IOException {
        Path seed = CliFiles.copy(Path.of("examples", "mirrormaker2", "seed"), tmp.resolve("seed"));
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder().seedDir(seed)
                .settings(SimSettings.fast()).build())) {
            Path kubeconfig = cluster.writeKubeconfig(tmp.resolve("kubeconfig.yaml"));
            Path dir = Files.createDirectories(tmp.resolve("conf"));
            String target = "\"kubernetes\": { \"kubeconfig\": \"%s\", \"context\": \"%s\" }, \"namespace\": \"mirror\""
                    .formatted(kubeconfig.toString().replace("\\", "\\\\"), EmbeddedCluster.CONTEXT);
            Files.writeString(dir.resolve("main.flow.json"), """
                    {
                      "environment": { "staging": { %s }, "prod": { %s } },
                      "mirrormaker2": {
                        "mm2": { "manage": "adopt", "target": { "alias": "dc2" },
                                 "mirror": [{ "source": { "alias": "dc1" }, "exactly_once": true }] }
                      }
                    }
                    """.formatted(target, target));
            CliRunner cli = CliRunner.fast();
            String stateDir = tmp.resolve("state").toString();

            CliRunner.Result staging = cli.run(args("apply", "staging", dir, stateDir, "--auto-approve"));
            assertThat(staging.exitCode()).as("%s", staging).isZero();
            String stagingLineage = lineage(cli.run(args("history", "staging", dir, stateDir)));
            assertThat(annotations(cluster)).containsEntry("flowform.dev/environment", "staging")
                    .containsEntry("flowform.dev/lineage", stagingLineage);

            CliRunner.Result refused = cli.run(args("plan", "prod", dir, stateDir, "--detailed-exitcode"));
            String prodLineage = lineage(cli.run(args("history", "prod", dir, stateDir)));
            assertThat(refused.exitCode()).as("%s", refused).isEqualTo(1);
            assertThat(flat(refused.err())).contains("Object is managed by another flowform state",
                    "KafkaMirrorMaker2 mirror/mm2 carries the ownership marks of environment \"staging\" (lineage "
                            + stagingLineage + ")", "this plan is for environment \"prod\" (lineage " + prodLineage + ")",
                    "--transfer-ownership mirrormaker2.mm2");
            assertThat(cli.run(args("apply", "prod", dir, stateDir, "--auto-approve")).exitCode())
                    .as("apply is refused the same way").isEqualTo(1);

            CliRunner.Result transfer = cli.run(args("apply", "prod", dir, stateDir, "--auto-approve",
                    "--transfer-ownership", "mirrormaker2.mm2"));
            assertThat(transfer.exitCode()).as("%s", transfer).isZero();
            assertThat(flat(transfer.out())).contains("TRANSFER_OWNERSHIP", "0 rolling restarts",
                    "Ownership transferred: mirrormaker2.mm2 (take over from environment \"staging\" (lineage "
                            + stagingLineage + "))");
            assertThat(annotations(cluster)).containsEntry("flowform.dev/environment", "prod")
                    .containsEntry("flowform.dev/lineage", prodLineage);

            CliRunner.Result history = cli.run(args("history", "prod", dir, stateDir));
            assertThat(flat(history.out())).contains("TRANSFER_OWNERSHIP", "mirrormaker2.mm2",
                    "ownership of KafkaMirrorMaker2 mirror/mm2: take over from environment \"staging\"");
            assertThat(cli.run(args("plan", "prod", dir, stateDir, "--detailed-exitcode")).exitCode())
                    .as("prod owns the resource now: nothing to do").isZero();
            CliRunner.Result back = cli.run(args("plan", "staging", dir, stateDir, "--detailed-exitcode"));
            assertThat(back.exitCode()).as("%s", back).isEqualTo(1);
            assertThat(flat(back.err())).contains("carries the ownership marks of environment \"prod\" (lineage "
                    + prodLineage + ")");
        }
    }

    private static Map<String, String> annotations(EmbeddedCluster cluster) {
        return cluster.client().genericKubernetesResources("kafka.strimzi.io/v1beta2", "KafkaMirrorMaker2")
                .inNamespace("mirror").withName("mm2").get().getMetadata().getAnnotations();
    }
}
