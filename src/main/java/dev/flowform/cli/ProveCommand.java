package dev.flowform.cli;

import dev.flowform.config.ConfigLoader;
import dev.flowform.config.KubernetesTarget;
import dev.flowform.config.LoadResult;
import dev.flowform.connect.ConnectRuntimeException;
import dev.flowform.connect.RealKafka;
import dev.flowform.diag.Diagnostics;
import dev.flowform.live.LiveMapper;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.ConnectorCheck;
import dev.flowform.run.ClusterConnection;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code flowform prove}: runs a configuration's rollout on real Kafka and shows with data what it achieves.
 *
 * <p>For an environment on the embedded cluster with {@code kafka} clusters declared: starts those Kafka
 * clusters and one real Connect worker per worker pod, seeds the embedded cluster, waits until every
 * connector runs (KafkaConnectors, and every KafkaMirrorMaker2's: {@link MirrorMakerFlows}), then runs
 * {@link ExactlyOnceProof} on the first flow found: records written and counted before the rollout
 * (at-least-once: aborted records and duplicates reach the target), flowform's own {@code plan} and
 * {@code apply} (real rolling restarts, with progress), and the same writes with a worker crash after it.
 * Everything runs in this process, in a fresh folder, and is stopped at the end.
 *
 * <p>Exit 0 when every phase shows what it claims (the at-least-once phases copied aborted records and made
 * duplicates, the exactly-once phases neither), 1 otherwise or on error.
 */
@Command(name = "prove", mixinStandardHelpOptions = true,
        description = "Run the rollout on real Kafka (an embedded environment with \"kafka\" clusters) and prove "
                + "exactly-once with data: records produced, replicated, aborted records seen, duplicates.")
public final class ProveCommand implements Callable<Integer> {
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(4);
    private static final String SOURCE_CLASS = "org.apache.kafka.connect.mirror.MirrorSourceConnector";

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    /** The counts of the last run, for tests; null before a run or when the rollout failed. */
    ExactlyOnceProof.Report report;

    /**
     * Loads the configuration, starts real Kafka and the embedded cluster, and runs the proof.
     *
     * @return 0 when every phase shows what it claims, 1 otherwise or on error
     */
    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        CliContext ctx = parent.context();
        LoadResult loaded = new ConfigLoader().loadWith(common.dir(), common.environment, common.variableInputs(ctx.env()));
        term.addSources(loaded.sources());
        Diagnostics diags = new Diagnostics().addAll(loaded.diagnostics());
        if (diags.hasErrors() || loaded.configuration() == null) {
            term.diagnostics(diags);
            return 1;
        }
        String env = loaded.configuration().environment().name();
        if (!(loaded.configuration().environment().kubernetes() instanceof KubernetesTarget.Embedded e) || e.kafka().isEmpty()) {
            term.error("No real Kafka in environment \"" + env + "\"",
                    "prove needs an environment on the embedded cluster that declares its Kafka clusters: \"kubernetes\": "
                            + "{\"embedded\": {\"seed\": \"./seed\", \"kafka\": {\"<alias>\": {\"bootstrap_servers\": [...]}}}}. "
                            + "See examples/real-kafka.");
            return 1;
        }
        Path work;
        try {
            work = Files.createTempDirectory("flowform-prove-");
        } catch (IOException ex) {
            term.error("Cannot create a working folder", String.valueOf(ex.getMessage()));
            return 1;
        }
        return prove(term, ctx, e, env, loaded.configuration().environment().namespace(), work);
    }

    /** Starts the Kafka clusters of {@code e} and the embedded cluster in front of them, then runs the proof. */
    private int prove(Terminal term, CliContext ctx, KubernetesTarget.Embedded e, String env, String ns, Path work) {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        Map<String, List<String>> topics = new LinkedHashMap<>();
        Map<String, Integer> partitions = new LinkedHashMap<>();
        e.kafka().forEach(k -> {
            addresses.put(k.alias(), k.bootstrapServers());
            topics.put(k.alias(), k.topics());
            partitions.put(k.alias(), k.partitions());
        });
        out.println("Starting Kafka clusters " + String.join(", ", addresses.keySet()) + " (working folder " + work + ")");
        out.flush();
        long t0 = System.nanoTime();
        try (RealKafka kafka = RealKafka.start(addresses, topics, partitions, work.resolve("kafka"));
             EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                     .seedDir(e.seedDir())
                     .settings(ClusterConnection.embeddedSettings(e, ctx.simSettings(), ctx.env()))
                     .connectRuntime(kafka::runtime)
                     .build())) {
            out.printf("Kafka up in %.1f s; the embedded operator starts the Connect workers (logs in %s)%n",
                    seconds(t0), kafka.workerLogDir());
            out.flush();
            if (!awaitConnectorsRunning(cluster, ns, out)) {
                term.error("The seeded connectors did not all run", "Waited " + SETTLE_TIMEOUT.toMinutes()
                        + " minutes. The worker logs are in " + kafka.workerLogDir() + ".");
                return 1;
            }
            out.printf("Every connector runs (%.1f s since start)%n", seconds(t0));
            Optional<ExactlyOnceProof.Flow> flow = flowOf(cluster, ns)
                    .or(() -> MirrorMakerFlows.flowOf(ns, MirrorMakerFlows.list(cluster, ns)));
            if (flow.isEmpty()) {
                term.error("No MirrorMaker 2 flow to prove", "No KafkaConnector of class " + SOURCE_CLASS
                        + " with a single literal topic in \"topics\", and no KafkaMirrorMaker2 mirror with one in "
                        + "\"topicsPattern\", in namespace " + ns + ".");
                return 1;
            }
            report = new ExactlyOnceProof(kafka, flow.get(), pod -> crash(cluster, pod), out)
                    .run(() -> rollout(ctx.withAttachedCluster(cluster), env, work));
            out.printf("Done in %.1f s.%n", seconds(t0));
            out.flush();
            return report != null && report.holds() && report.contrastShown() ? 0 : 1;
        } catch (ConnectRuntimeException | IllegalStateException ex) {
            term.error("Real Kafka could not run", String.valueOf(ex.getMessage()));
            return 1;
        }
    }

    /** Runs flowform's own {@code plan}, then {@code apply --auto-approve}, against the attached cluster. */
    private boolean rollout(CliContext attached, String env, Path work) {
        List<String> base = new ArrayList<>(List.of("--dir", common.dir().toString(), "-e", env,
                "--state-dir", work.resolve("state").toString()));
        if (common.noColor) {
            base.add("--no-color");
        }
        int plan = run(attached, "plan", base);
        if (plan != 0) {
            return false;
        }
        List<String> apply = new ArrayList<>(base);
        apply.add("--auto-approve");
        return run(attached, "apply", apply) == 0;
    }

    /** Crashes the worker of {@code namespace/podName} through the embedded cluster's kubelet. */
    static void crash(EmbeddedCluster cluster, String pod) {
        int slash = pod.indexOf('/');
        cluster.simulator().crashWorker(pod.substring(0, slash), pod.substring(slash + 1));
    }

    private int run(CliContext ctx, String command, List<String> args) {
        CommandLine cl = Main.commandLine(ctx);
        cl.setOut(spec.commandLine().getOut());
        cl.setErr(spec.commandLine().getErr());
        List<String> all = new ArrayList<>();
        all.add(command);
        all.addAll(args);
        return cl.execute(all.toArray(String[]::new));
    }

    /**
     * Waits until every KafkaConnector of the namespace is Ready with its connector and all its tasks RUNNING, and
     * every KafkaMirrorMaker2 runs all its connectors ({@link MirrorMakerFlows#running}).
     *
     * @param cluster the embedded cluster
     * @param ns     the namespace
     * @param out    where a progress line goes every 10 s
     * @return true when they all run; false after 4 minutes
     */
    static boolean awaitConnectorsRunning(EmbeddedCluster cluster, String ns, PrintWriter out) {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        long nextNote = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            List<GenericKubernetesResource> items = connectors(cluster, ns);
            List<GenericKubernetesResource> mm2s = MirrorMakerFlows.list(cluster, ns);
            long running = items.stream().filter(ProveCommand::running).count();
            long mm2Running = mm2s.stream().filter(MirrorMakerFlows::running).count();
            if (items.size() + mm2s.size() > 0 && running == items.size() && mm2Running == mm2s.size()) {
                return true;
            }
            if (System.nanoTime() > nextNote) {
                out.printf("  %d of %d connectors running%s%n", running, items.size(), mm2s.isEmpty() ? ""
                        : ", " + mm2Running + " of " + mm2s.size() + " KafkaMirrorMaker2s with every connector running");
                items.stream().filter(c -> !running(c)).forEach(c -> out.println("    " + c.getMetadata().getName()
                        + ": " + check(c).detail()));
                mm2s.stream().filter(m -> !MirrorMakerFlows.running(m))
                        .forEach(m -> out.println("    " + MirrorMakerFlows.describe(m)));
                out.flush();
                nextNote = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** The planner's own rule for a settled connector: Ready, connector and every task RUNNING. */
    private static boolean running(GenericKubernetesResource c) {
        return check(c) instanceof Readiness.Complete;
    }

    private static Readiness check(GenericKubernetesResource c) {
        return ConnectorCheck.evaluate(LiveMapper.connector(c), c.getMetadata().getGeneration(), "RUNNING");
    }

    @SuppressWarnings("unchecked")
    private static Optional<ExactlyOnceProof.Flow> flowOf(EmbeddedCluster cluster, String ns) {
        for (GenericKubernetesResource c : connectors(cluster, ns)) {
            Object spec = c.getAdditionalProperties().get("spec");
            if (!(spec instanceof Map<?, ?> s) || !SOURCE_CLASS.equals(s.get("class"))
                    || !(s.get("config") instanceof Map<?, ?> config)) {
                continue;
            }
            String topic = String.valueOf(config.get("topics"));
            Map<String, String> labels = c.getMetadata().getLabels();
            String connect = labels == null ? null : labels.get(Strimzi.CLUSTER_LABEL);
            if (connect == null || !topic.matches("[A-Za-z0-9._-]+")) {
                continue;
            }
            return Optional.of(new ExactlyOnceProof.Flow(ns + "/" + connect, c.getMetadata().getName(),
                    String.valueOf(config.get("source.cluster.alias")), String.valueOf(config.get("target.cluster.alias")),
                    topic));
        }
        return Optional.empty();
    }

    /** @return the KafkaConnectors of {@code ns}, read with the Strimzi API version the cluster serves */
    private static List<GenericKubernetesResource> connectors(EmbeddedCluster cluster, String ns) {
        return cluster.client().genericKubernetesResources(cluster.api().kafkaApiVersion(), "KafkaConnector")
                .inNamespace(ns).list().getItems();
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
