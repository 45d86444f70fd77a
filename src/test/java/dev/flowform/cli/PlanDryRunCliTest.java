package dev.flowform.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.sim.StrimziCrds;
import dev.flowform.testing.Sim;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan} and {@code apply} send every planned write to the API server as a server-side dry run before anything
 * is written: a refusal (an admission policy, Strimzi's schema) is an error on the resource and the apply runs no step,
 * a dry run RBAC does not allow is a warning, and {@code --no-dry-run} sends none. The API server is an embedded
 * cluster reached through a kubeconfig, as a real one would be, told by {@code SimFaults} what to refuse.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PlanDryRunCliTest {

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

    private GenericKubernetesResource connect() {
        return cluster.client().genericKubernetesResources(StrimziCrds.kafkaConnect(cluster.api())).inNamespace("replication")
                .withName("mm2-connect").get();
    }

    private static String flat(String s) {
        return s.replaceAll("\\s+", " ");
    }

    @Test
    void an_admission_policy_refusal_is_an_error_on_the_resource_and_the_apply_writes_nothing() {
        cluster.faults().denyField("KafkaConnect", "/spec/config/exactly.once.source.support",
                "exactly-once changes need a change ticket");
        String before = connect().getMetadata().getResourceVersion();

        CliRunner.Result plan = cli.run(args("plan", "--detailed-exitcode"));
        System.out.println("=== plan (an admission policy refuses the first write) ===\n" + plan);
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(1);
        assertThat(flat(plan.out() + plan.err())).contains("The API server refuses this change", "connect_cluster.mm2-connect",
                "A server-side dry run (dryRun=All) of step 1 (SET_WORKER_EOS KafkaConnect replication/mm2-connect) was refused",
                "admission webhook \"policy.flowform.dev\" denied the request: exactly-once changes need a change ticket");

        CliRunner.Result apply = cli.run(args("apply", "--auto-approve"));
        assertThat(apply.exitCode()).as("%s", apply).isEqualTo(1);
        assertThat(flat(apply.out() + apply.err())).contains("The API server refuses this change")
                .doesNotContain("SET_WORKER_EOS KafkaConnect replication/mm2-connect ... done", "Apply complete!");
        assertThat(connect().getMetadata().getResourceVersion()).as("nothing written").isEqualTo(before);
        assertThat(cli.run(args("history")).out()).doesNotContain("apply");

        CliRunner.Result unchecked = cli.run(args("plan", "--detailed-exitcode", "--no-dry-run"));
        assertThat(unchecked.exitCode()).as("%s", unchecked).isEqualTo(2);
        assertThat(unchecked.out() + unchecked.err()).doesNotContain("refuses");
    }

    @Test
    void a_declared_spec_field_strimzis_schema_refuses_is_named_with_its_field() throws IOException {
        Path main = dir.resolve("main.flow.json");
        Files.writeString(main, Files.readString(main).replace("\"mm2-connect\": { \"manage\": \"adopt\" }",
                "\"mm2-connect\": { \"manage\": \"adopt\", \"spec\": { \"jvmOptions\": { \"-Xmx\": \"lots\" } } }"));
        CliRunner.Result plan = cli.run(args("plan"));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(1);
        assertThat(flat(plan.out() + plan.err())).contains("The API server refuses this change",
                "KafkaConnect.kafka.strimzi.io \"mm2-connect\" is invalid: spec.jvmOptions.-Xmx: Invalid value: \"lots\": "
                        + "spec.jvmOptions.-Xmx in body should match '^[0-9]+[mMgG]?$'");

        Files.writeString(main, Files.readString(main).replace("\"jvmOptions\"", "\"jvmOption\""));
        CliRunner.Result typo = cli.run(args("plan"));
        assertThat(typo.exitCode()).as("%s", typo).isEqualTo(1);
        assertThat(flat(typo.out() + typo.err())).contains("strict decoding error: unknown field \"spec.jvmOption\"");
    }

    @Test
    void rbac_denying_the_dry_run_is_a_warning_and_the_plan_goes_on() {
        cluster.faults().forbid("update", "kafkaconnects");
        CliRunner.Result plan = cli.run(args("plan", "--detailed-exitcode"));
        assertThat(plan.exitCode()).as("%s", plan).isEqualTo(2);
        assertThat(flat(plan.out() + plan.err())).contains("This change could not be checked with a dry run",
                "cannot update resource \"kafkaconnects\" in API group \"kafka.strimzi.io\"",
                "RBAC authorizes a dry run as the write itself")
                .doesNotContain("The API server refuses this change");
        assertThat(List.of(plan.out())).isNotEmpty();
    }
}
