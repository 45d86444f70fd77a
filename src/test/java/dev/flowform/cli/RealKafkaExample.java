package dev.flowform.cli;

import dev.flowform.cli.view.ProveView;
import dev.flowform.connect.RealKafka;
import dev.flowform.locking.Sleeper;
import dev.flowform.run.ExactlyOnceProof;
import dev.flowform.run.ProveOperation;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * {@code examples/real-kafka} running for a test: its two Kafka clusters, real Connect workers behind an
 * embedded cluster seeded from the example, every connector running. Commands run in-process against it
 * (attached), or in a child JVM through a kubeconfig.
 */
final class RealKafkaExample implements AutoCloseable {
    static final Path DIR = Path.of("examples/real-kafka");
    static final String NS = "replication";
    /** Where the worker logs are kept when the seeded connectors do not run (the working folder is a temporary one). */
    private static final Path LOGS = Path.of("target/real-kafka-example-logs");

    final RealKafka kafka;
    final EmbeddedCluster cluster;
    final CliContext context;

    private RealKafkaExample(RealKafka kafka, EmbeddedCluster cluster) {
        this.kafka = kafka;
        this.cluster = cluster;
        this.context = CliRunner.unattended().withAttachedCluster(cluster);
    }

    /** Starts everything and waits until the seeded connectors run. */
    static RealKafkaExample start(Path work) {
        RealKafka kafka = RealKafka.start(
                Map.of("dc1", List.of("dc1-kafka-bootstrap.kafka-dc1.svc:9092"),
                        "dc2", List.of("dc2-kafka-bootstrap.kafka-dc2.svc:9092")),
                Map.of("dc1", List.of("orders")), work.resolve("kafka"));
        EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                .seedDir(DIR.resolve("seed"))
                .settings(SimSettings.demo())
                .connectRuntime(() -> kafka.runtime())
                .build());
        RealKafkaExample ex = new RealKafkaExample(kafka, cluster);
        StringWriter progress = new StringWriter();
        if (!ProveOperation.awaitConnectorsRunning(cluster, NS, new ProveView(new PrintWriter(progress, true)),
                Sleeper.SYSTEM)) {
            List<Path> logs = WorkerLogs.keep(kafka.workerLogDir(), LOGS);
            ex.close();
            throw new IllegalStateException("seeded connectors did not run: " + progress + "\nWorker logs kept in "
                    + LOGS + "; the relevant lines:\n" + WorkerLogs.relevant(logs));
        }
        return ex;
    }

    /**
     * Runs {@code flowform prove} in-process on a configuration folder, printing its output.
     *
     * @param dir the folder (an embedded environment with {@code kafka} clusters)
     * @return the exit code, the output and the proof's counts (null when the rollout did not run)
     */
    static Proved prove(Path dir) {
        CommandLine cl = Main.commandLine(CliRunner.unattended());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute("prove", "--dir", dir.toString(), "--no-color");
        System.out.println(out);
        System.out.println(err);
        ProveCommand prove = cl.getSubcommands().get("prove").getCommand();
        return new Proved(code, out.toString(), err.toString(), prove.report);
    }

    /**
     * One {@code flowform prove} run.
     *
     * @param code   its exit code
     * @param out    standard output
     * @param err    standard error
     * @param report the counts, or null when the rollout did not run
     */
    record Proved(int code, String out, String err, ExactlyOnceProof.Report report) {
    }

    KubernetesClient client() {
        return cluster.client();
    }

    Resource<GenericKubernetesResource> connect() {
        return client().genericKubernetesResources("kafka.strimzi.io/v1beta2", "KafkaConnect").inNamespace(NS)
                .withName("mm2-connect");
    }

    Resource<GenericKubernetesResource> connector(String name) {
        return client().genericKubernetesResources("kafka.strimzi.io/v1beta2", "KafkaConnector").inNamespace(NS)
                .withName(name);
    }

    /** Runs a flowform command in-process against the attached cluster, with the example's folder. */
    CliRunner.Result run(Path stateDir, String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("--dir", DIR.toString(), "--state-dir", stateDir.toString(), "--no-color", "-e", "real"));
        return new CliRunner(context).run(all.toArray(String[]::new));
    }

    @Override
    public void close() {
        cluster.close();
        kafka.close();
    }
}
