package dev.flowform.run;

import dev.flowform.config.KubernetesTarget;
import dev.flowform.connect.ConnectRuntimeException;
import dev.flowform.connect.RealKafka;
import dev.flowform.live.LiveMapper;
import dev.flowform.locking.Sleeper;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.ConnectorCheck;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.EmbeddedClusterOptions;
import dev.flowform.sim.SimSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * {@code flowform prove}'s operation: starts the Kafka clusters an embedded environment declares and the embedded
 * cluster in front of them (one real Connect worker per worker pod), waits until every seeded connector runs, then
 * runs {@link ExactlyOnceProof} on the first flow found, with the rollout passed in between its phases. Reports
 * through {@link ProveHooks}; pauses through the {@link Sleeper}.
 */
public final class ProveOperation {
    private static final Duration SETTLE_TIMEOUT = Duration.ofMinutes(4);
    private static final Duration SETTLE_NOTE_EVERY = Duration.ofSeconds(10);
    private static final Duration SETTLE_POLL = Duration.ofMillis(500);
    private static final String SOURCE_CLASS = "org.apache.kafka.connect.mirror.MirrorSourceConnector";

    private final ProveHooks hooks;
    private final Sleeper sleeper;

    /**
     * @param hooks   the view
     * @param sleeper every pause
     */
    public ProveOperation(ProveHooks hooks, Sleeper sleeper) {
        this.hooks = hooks;
        this.sleeper = sleeper;
    }

    /**
     * How a run ended.
     *
     * @param report  the counts of every phase, or null when the proof did not run to the end
     * @param failure why the proof could not run (a one-line summary), or null
     * @param detail  the failure's detail, or null
     */
    public record Outcome(ExactlyOnceProof.Report report, String failure, String detail) {
        /** @return true when every phase shows what it claims */
        public boolean proven() {
            return failure == null && report != null && report.holds() && report.contrastShown();
        }

        private static Outcome failed(String failure, String detail) {
            return new Outcome(null, failure, detail);
        }
    }

    /**
     * Runs the proof.
     *
     * @param target    the embedded environment, with its {@code kafka} clusters
     * @param settings  the simulated operator's timings
     * @param namespace the environment's namespace
     * @param work      a fresh working folder (Kafka data and worker logs under {@code kafka/})
     * @param rollout   runs flowform's plan and apply against the given cluster; false when they failed
     * @return the counts, or why the proof could not run
     */
    public Outcome run(KubernetesTarget.Embedded target, SimSettings settings, String namespace, Path work,
                       Predicate<EmbeddedCluster> rollout) {
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        Map<String, List<String>> topics = new LinkedHashMap<>();
        Map<String, Integer> partitions = new LinkedHashMap<>();
        target.kafka().forEach(k -> {
            addresses.put(k.alias(), k.bootstrapServers());
            topics.put(k.alias(), k.topics());
            partitions.put(k.alias(), k.partitions());
        });
        hooks.kafkaStarting(List.copyOf(addresses.keySet()), work);
        long t0 = System.nanoTime();
        try (RealKafka kafka = RealKafka.start(addresses, topics, partitions, work.resolve("kafka"));
             EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.builder()
                     .seedDir(target.seedDir()).settings(settings).connectRuntime(kafka::runtime).build())) {
            hooks.kafkaUp(since(t0), kafka.workerLogDir());
            if (!awaitConnectorsRunning(cluster, namespace, hooks, sleeper)) {
                return Outcome.failed("The seeded connectors did not all run", "Waited " + SETTLE_TIMEOUT.toMinutes()
                        + " minutes. The worker logs are in " + kafka.workerLogDir() + ".");
            }
            hooks.connectorsRunning(since(t0));
            Optional<ExactlyOnceProof.Flow> flow = flowOf(cluster, namespace)
                    .or(() -> MirrorMakerFlows.flowOf(namespace, MirrorMakerFlows.list(cluster, namespace)));
            if (flow.isEmpty()) {
                return Outcome.failed("No MirrorMaker 2 flow to prove", "No KafkaConnector of class " + SOURCE_CLASS
                        + " with a single literal topic in \"topics\", and no KafkaMirrorMaker2 mirror with one in "
                        + "\"topicsPattern\", in namespace " + namespace + ".");
            }
            ExactlyOnceProof.Report report = new ExactlyOnceProof(kafka, flow.get(), pod -> crash(cluster, pod), hooks,
                    sleeper).run(() -> rollout.test(cluster));
            hooks.done(since(t0));
            return new Outcome(report, null, null);
        } catch (ConnectRuntimeException | IllegalStateException ex) {
            return Outcome.failed("Real Kafka could not run", String.valueOf(ex.getMessage()));
        }
    }

    /**
     * Crashes the worker of a pod through the embedded cluster's kubelet; its container restarts.
     *
     * @param cluster the embedded cluster
     * @param pod     {@code namespace/podName}
     */
    public static void crash(EmbeddedCluster cluster, String pod) {
        int slash = pod.indexOf('/');
        cluster.simulator().crashWorker(pod.substring(0, slash), pod.substring(slash + 1));
    }

    /**
     * Waits until every KafkaConnector of the namespace is Ready with its connector and all its tasks RUNNING
     * ({@link ConnectorCheck}), and every KafkaMirrorMaker2 runs all its connectors; reports progress every 10 s.
     *
     * @param cluster the embedded cluster
     * @param ns      the namespace
     * @param hooks   where progress goes ({@link ProveHooks#settling})
     * @param sleeper the pause between polls (0.5 s)
     * @return true when they all run; false after 4 minutes or when interrupted
     */
    public static boolean awaitConnectorsRunning(EmbeddedCluster cluster, String ns, ProveHooks hooks, Sleeper sleeper) {
        long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
        long nextNote = System.nanoTime() + SETTLE_NOTE_EVERY.toNanos();
        while (System.nanoTime() < deadline) {
            List<GenericKubernetesResource> items = connectors(cluster, ns);
            List<GenericKubernetesResource> mm2s = MirrorMakerFlows.list(cluster, ns);
            long running = items.stream().filter(ProveOperation::running).count();
            long mm2Running = mm2s.stream().filter(MirrorMakerFlows::running).count();
            if (items.size() + mm2s.size() > 0 && running == items.size() && mm2Running == mm2s.size()) {
                return true;
            }
            if (System.nanoTime() > nextNote) {
                List<String> waiting = new ArrayList<>();
                items.stream().filter(c -> !running(c)).forEach(c -> waiting.add(c.getMetadata().getName() + ": "
                        + check(c).detail()));
                mm2s.stream().filter(m -> !MirrorMakerFlows.running(m)).forEach(m -> waiting.add(MirrorMakerFlows.describe(m)));
                hooks.settling(running, items.size(), mm2Running, mm2s.size(), waiting);
                nextNote = System.nanoTime() + SETTLE_NOTE_EVERY.toNanos();
            }
            try {
                sleeper.sleep(SETTLE_POLL);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static boolean running(GenericKubernetesResource c) {
        return check(c) instanceof Readiness.Complete;
    }

    private static Readiness check(GenericKubernetesResource c) {
        return ConnectorCheck.evaluate(LiveMapper.connector(c), c.getMetadata().getGeneration(), "RUNNING");
    }

    /** The first MirrorSourceConnector KafkaConnector whose {@code topics} is one literal topic name. */
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

    private static Duration since(long t0) {
        return Duration.ofNanos(System.nanoTime() - t0);
    }
}
