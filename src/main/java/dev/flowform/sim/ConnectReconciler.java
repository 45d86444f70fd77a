package dev.flowform.sim;

import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.sim.OperatorLoop.Task;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reconciles KafkaConnect resources as Strimzi's {@code KafkaConnectAssemblyOperator} does: after
 * {@link SimSettings#reconcileDelay()}, a paused resource only gets {@code ReconciliationPaused}; otherwise the
 * {@link PodSetController} writes the workers' configuration and PodSet, the pods roll one at a time in
 * {@link RollOrder}, and only when all are Ready is {@code status} written for the generation read at the start (a pod
 * not Ready in time ends it {@code NotReady}). With {@code strimzi.io/use-connector-resources} a successful reconcile
 * also reconciles the cluster's connectors. Runs on the operator thread.
 */
final class ConnectReconciler {
    private static final Logger LOG = Logger.getLogger(ConnectReconciler.class.getName());
    /** Strimzi's default {@code operationTimeoutMs}, which its timeout message names. */
    private static final long STRIMZI_OPERATION_TIMEOUT_MS = 300_000;
    /** Strimzi's default {@code spec.replicas} ({@code KafkaConnectCluster.fromSpec}). */
    private static final int DEFAULT_REPLICAS = 3;

    private final SimContext ctx;
    private final PodSetController podSets;
    private final Kubelet kubelet;
    private final ConnectorReconciler connectors;
    private final Map<String, ConnectState> connects = new HashMap<>();
    private final AtomicLong reconciles = new AtomicLong();

    ConnectReconciler(SimContext ctx, PodSetController podSets, Kubelet kubelet, ConnectorReconciler connectors) {
        this.ctx = ctx;
        this.podSets = podSets;
        this.kubelet = kubelet;
        this.connectors = connectors;
    }

    /** @return reconciles finished (successful, failed, paused or timed out); thread-safe */
    long reconcileCount() {
        return reconciles.get();
    }

    /** An informer delivered a KafkaConnect ({@code old} is null for an add). */
    void onEvent(GenericKubernetesResource old, GenericKubernetesResource kc) {
        if (ctx.faults().operatorPaused()) {
            return;
        }
        ConnectState st = state(kc.getMetadata().getNamespace(), kc.getMetadata().getName());
        boolean changed = changed(old, kc);
        if (st.running) {
            if (changed) {
                st.again = true;
            }
            return;
        }
        if (changed || !SimContext.settled(kc)) {
            requestReconcile(st, ctx.settings().reconcileDelay());
        }
    }

    /**
     * @return true when {@code obj} is an update of {@code old} that changed its generation, annotations or labels
     *         (not only its status)
     */
    static boolean changed(GenericKubernetesResource old, GenericKubernetesResource obj) {
        return old != null && !Objects.equals(old.getMetadata().getResourceVersion(), obj.getMetadata().getResourceVersion())
                && (!Objects.equals(old.getMetadata().getGeneration(), obj.getMetadata().getGeneration())
                        || !Objects.equals(old.getMetadata().getAnnotations(), obj.getMetadata().getAnnotations())
                        || !Objects.equals(old.getMetadata().getLabels(), obj.getMetadata().getLabels()));
    }

    /** A KafkaConnect was deleted: stop its work, delete what it owned, forget its connectors. */
    void onDeleted(GenericKubernetesResource kc) {
        String ns = kc.getMetadata().getNamespace();
        String name = kc.getMetadata().getName();
        ConnectState st = connects.remove(ns + "/" + name);
        if (st != null) {
            if (st.scheduled != null) {
                st.scheduled.cancel();
            }
            if (st.roll != null) {
                st.roll.stop();
            }
        }
        podSets.deleteAll(ns, name);
        String cluster = ns + "/" + name;
        for (String c : ctx.runtime().connectors(cluster)) {
            ctx.runtime().deleteConnector(cluster, c);
        }
        ctx.memory().adoptions.remove(cluster);
        connectors.scheduleAllOf(ns, name);
    }

    /** A worker pod was deleted: unless a roll of its cluster is running (which re-creates it), re-create it. */
    void onPodDeleted(Pod pod) {
        String cluster = SimContext.label(pod, Strimzi.CLUSTER_LABEL);
        if (cluster == null || ctx.faults().operatorPaused()) {
            return;
        }
        ConnectState st = connects.get(pod.getMetadata().getNamespace() + "/" + cluster);
        if (st != null && st.running) {
            return;
        }
        podSets.recreate(pod);
    }

    /** Reconciles {@code ns/name} after {@code delay} (or after the running reconcile). */
    void requestReconcile(String ns, String name, Duration delay) {
        requestReconcile(state(ns, name), delay);
    }

    /**
     * Defers a KafkaConnector reconcile while its cluster's reconcile runs (Strimzi reconciles connectors under
     * the KafkaConnect lock); it is scheduled when that reconcile ends.
     *
     * @return true when deferred
     */
    boolean deferConnector(String ns, String cluster, String connector) {
        ConnectState st = connects.get(ns + "/" + cluster);
        if (st != null && st.running) {
            st.waitingConnectors.add(connector);
            return true;
        }
        return false;
    }

    /** A worker pod became Ready: the roll waiting for it goes on. */
    void onPodReady(String ns, String cluster, String podName) {
        ConnectState st = connects.get(ns + "/" + cluster);
        if (st == null || st.roll == null || !podName.equals(st.roll.waitingPod)) {
            return;
        }
        Roll roll = st.roll;
        roll.waitingPod = null;
        if (roll.timeout != null) {
            roll.timeout.cancel();
        }
        ctx.loop().execute(() -> rollNext(roll));
    }

    /** The operator was paused: drop every scheduled and running reconcile. */
    void abandonAll() {
        for (ConnectState st : connects.values()) {
            if (st.scheduled != null) {
                st.scheduled.cancel();
                st.scheduled = null;
            }
            abandon(st);
            st.again = false;
            st.waitingConnectors.clear();
        }
        connectors.cancelAll();
    }

    /** The operator resumed: reconcile every KafkaConnect and every unsettled KafkaConnector. */
    void resync() {
        if (ctx.faults().operatorPaused()) {
            return;
        }
        try {
            for (GenericKubernetesResource kc : ctx.kc().inAnyNamespace().list().getItems()) {
                requestReconcile(state(kc.getMetadata().getNamespace(), kc.getMetadata().getName()), ctx.settings().reconcileDelay());
            }
            connectors.scheduleUnsettled();
        } catch (KubernetesClientException e) {
            LOG.log(Level.WARNING, "operator resync failed", e);
        }
    }

    /**
     * Strimzi's start-up and periodic reconciliation: reconciles every KafkaConnect with nothing scheduled whose status
     * is behind its generation or whose pods do not run what its spec renders, and every unsettled KafkaConnector.
     */
    void reconcileUnsettled() {
        if (ctx.faults().operatorPaused()) {
            return;
        }
        try {
            for (GenericKubernetesResource kc : ctx.kc().inAnyNamespace().list().getItems()) {
                ConnectState st = state(kc.getMetadata().getNamespace(), kc.getMetadata().getName());
                if (st.running || st.scheduled != null) {
                    continue;
                }
                if (!SimContext.settled(kc) || !SimContext.paused(kc) && podsBehind(kc)) {
                    LOG.fine(() -> "KafkaConnect " + SimContext.key(kc) + " is not reconciled at generation "
                            + SimContext.generation(kc) + ", or its pods are behind, and nothing is scheduled: reconciling it");
                    requestReconcile(st, ctx.settings().reconcileDelay());
                }
            }
            connectors.scheduleUnsettled();
        } catch (KubernetesClientException e) {
            LOG.log(Level.FINE, "periodic reconciliation could not list the resources", e);
        }
    }

    /** @return true when a worker pod of {@code kc} is missing or surplus, or does not run what its spec renders */
    private boolean podsBehind(GenericKubernetesResource kc) {
        PodSetController.Target target = podSets.targetFor(kc);
        java.util.List<Pod> pods = ctx.workerPods(kc.getMetadata().getNamespace(), kc.getMetadata().getName());
        return pods.size() != replicas(SimContext.spec(kc)) || !pods.stream().allMatch(target::runs);
    }

    private void requestReconcile(ConnectState st, Duration delay) {
        if (st.running) {
            st.again = true;
            return;
        }
        if (st.scheduled != null) {
            return;
        }
        st.scheduled = ctx.loop().schedule(delay, () -> {
            st.scheduled = null;
            reconcile(st);
        });
    }

    private void reconcile(ConnectState st) {
        if (ctx.faults().operatorPaused() || ctx.loop().closed()) {
            return;
        }
        if (st.running) {
            st.again = true;
            return;
        }
        GenericKubernetesResource kc;
        try {
            kc = ctx.kc().inNamespace(st.ns).withName(st.name).get();
        } catch (KubernetesClientException e) {
            retryLater(st, e);
            return;
        }
        if (kc == null) {
            return;
        }
        st.running = true;
        long generation = SimContext.generation(kc);
        try {
            if (SimContext.paused(kc)) {
                ctx.writeConnectStatus(kc, StatusDocuments.paused(kc, ctx.now()));
                finish(st, generation);
                return;
            }
            String failure = ctx.faults().takeReconcileFailure();
            if (failure != null) {
                ctx.writeConnectStatus(kc, StatusDocuments.connectNotReady(kc, generation, "RuntimeException", failure, ctx.now()));
                finish(st, generation);
                return;
            }
            int replicas = replicas(SimContext.spec(kc));
            PodSetController.Target target = podSets.targetFor(kc);
            podSets.apply(kc, replicas, target);
            st.roll = new Roll(st, kc, generation, target, replicas);
            rollNext(st.roll);
        } catch (KubernetesClientException e) {
            st.running = false;
            st.roll = null;
            retryLater(st, e);
        }
    }

    private void retryLater(ConnectState st, Exception e) {
        if (ctx.loop().closed()) {
            return;
        }
        LOG.log(Level.FINE, "reconcile of KafkaConnect " + st.ns + "/" + st.name + " failed, retrying", e);
        requestReconcile(st, SimContext.max(ctx.settings().reconcileDelay(), SimContext.MIN_RETRY));
    }

    private void rollNext(Roll roll) {
        ConnectState st = roll.st;
        if (roll.stopped || ctx.loop().closed()) {
            return;
        }
        if (ctx.faults().operatorPaused()) {
            abandon(st);
            return;
        }
        try {
            Map<Integer, Pod> byOrdinal = new TreeMap<>();
            Map<Integer, RollOrder.Pod> seen = new TreeMap<>();
            for (Pod p : ctx.workerPods(st.ns, st.name)) {
                Integer ordinal = Strimzi.podOrdinal(st.name, p.getMetadata().getName());
                if (ordinal != null) {
                    byOrdinal.put(ordinal, p);
                    seen.put(ordinal, new RollOrder.Pod(SimContext.ready(p), roll.target.runs(p)));
                }
            }
            Optional<RollOrder.Step> next = RollOrder.next(roll.replicas, seen);
            if (next.isEmpty()) {
                GenericKubernetesResource fresh = ctx.kc().inNamespace(st.ns).withName(st.name).get();
                if (fresh == null) {
                    abandon(st);
                } else {
                    succeed(roll, fresh);
                }
                return;
            }
            int ordinal = next.get().ordinal();
            String podName = Strimzi.podName(st.name, ordinal);
            Pod existing = byOrdinal.get(ordinal);
            if (next.get().waitForReady()) {
                if (!kubelet.starting(st.ns + "/" + podName)) {
                    kubelet.start(st.ns, podName, existing.getMetadata().getUid());
                }
            } else {
                podSets.replacePod(roll.kc, ordinal, existing, roll.target);
            }
            roll.waitingPod = podName;
            Duration patience = ctx.settings().podReadyDelay().plus(ctx.faults().slowRollExtra()).plus(ctx.settings().stuckTimeout());
            roll.timeout = ctx.loop().schedule(patience, () -> rollTimedOut(roll, podName));
        } catch (KubernetesClientException e) {
            abandon(st);
            retryLater(st, e);
        }
    }

    private void rollTimedOut(Roll roll, String podName) {
        if (roll.stopped || !podName.equals(roll.waitingPod)) {
            return;
        }
        ConnectState st = roll.st;
        try {
            GenericKubernetesResource kc = ctx.kc().inNamespace(st.ns).withName(st.name).get();
            if (kc != null) {
                ctx.writeConnectStatus(kc, StatusDocuments.connectNotReady(kc, roll.generation, "TimeoutException",
                        "Exceeded timeout of " + STRIMZI_OPERATION_TIMEOUT_MS + "ms while waiting for Pods resource "
                                + podName + " in namespace " + st.ns + " to be ready", ctx.now()));
            }
        } catch (KubernetesClientException e) {
            LOG.log(Level.WARNING, "could not write the timeout status of " + st.ns + "/" + st.name, e);
        }
        roll.stop();
        finish(st, roll.generation);
    }

    private void succeed(Roll roll, GenericKubernetesResource kc) {
        ConnectState st = roll.st;
        roll.stop();
        podSets.updateStatus(st.ns, st.name);
        Instant readyAt = ctx.loop().clock().instant();
        ctx.writeConnectStatus(kc, StatusDocuments.connectReady(kc, roll.generation, roll.replicas,
                podSets.kafkaVersion(SimContext.spec(kc)), SimulatedConnectRuntime.PLUGINS, ctx.now()));
        ctx.loop().reportReady(StrimziCrds.KAFKA_CONNECT, st.ns, st.name, roll.generation, readyAt);
        if (SimContext.useResources(kc)) {
            connectors.deleteUnmanaged(st.ns, st.name);
            connectors.scheduleAllOf(st.ns, st.name);
        }
        finish(st, roll.generation, kc);
    }

    private void finish(ConnectState st, long generation) {
        GenericKubernetesResource kc;
        try {
            kc = ctx.kc().inNamespace(st.ns).withName(st.name).get();
        } catch (KubernetesClientException e) {
            kc = null;
            st.again = true;
        }
        finish(st, generation, kc);
    }

    /** Ends a reconcile; {@code kc} is a read taken after the reconcile's last write (or null when gone). */
    private void finish(ConnectState st, long generation, GenericKubernetesResource kc) {
        reconciles.incrementAndGet();
        st.running = false;
        st.roll = null;
        for (String c : st.waitingConnectors) {
            connectors.schedule(st.ns, c);
        }
        st.waitingConnectors.clear();
        boolean again = st.again || (kc != null && SimContext.generation(kc) > generation && !SimContext.paused(kc));
        st.again = false;
        if (again && !ctx.loop().closed()) {
            requestReconcile(st, ctx.settings().reconcileDelay());
        }
    }

    private void abandon(ConnectState st) {
        if (st.roll != null) {
            st.roll.stop();
        }
        st.roll = null;
        st.running = false;
    }

    private ConnectState state(String ns, String name) {
        return connects.computeIfAbsent(ns + "/" + name, k -> new ConnectState(ns, name));
    }

    /** @return {@code spec.replicas}, or Strimzi's default of 3 when absent, unparsable or negative */
    private static int replicas(Map<String, Object> spec) {
        Object r = spec.get("replicas");
        int value = DEFAULT_REPLICAS;
        if (r instanceof Number n) {
            value = n.intValue();
        } else if (r != null) {
            try {
                value = Integer.parseInt(r.toString().trim());
            } catch (NumberFormatException e) {
                value = DEFAULT_REPLICAS;
            }
        }
        return value >= 0 ? value : DEFAULT_REPLICAS;
    }

    /** Reconcile bookkeeping of one KafkaConnect. */
    private static final class ConnectState {
        final String ns;
        final String name;
        Task scheduled;
        boolean running;
        boolean again;
        Roll roll;
        final Set<String> waitingConnectors = new TreeSet<>();

        ConnectState(String ns, String name) {
            this.ns = ns;
            this.name = name;
        }
    }

    /** One in-flight roll. */
    private static final class Roll {
        final ConnectState st;
        final GenericKubernetesResource kc;
        final long generation;
        final PodSetController.Target target;
        final int replicas;
        String waitingPod;
        Task timeout;
        boolean stopped;

        Roll(ConnectState st, GenericKubernetesResource kc, long generation, PodSetController.Target target, int replicas) {
            this.st = st;
            this.kc = kc;
            this.generation = generation;
            this.target = target;
            this.replicas = replicas;
        }

        void stop() {
            stopped = true;
            waitingPod = null;
            if (timeout != null) {
                timeout.cancel();
            }
        }
    }
}
