package dev.flowform.sim;

import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.sim.OperatorLoop.Task;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
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
final class ConnectReconciler extends ConnectFamilyReconciler<ConnectReconciler.ConnectState> {
    private static final Logger LOG = Logger.getLogger(ConnectReconciler.class.getName());
    /** Strimzi's default {@code operationTimeoutMs}, which its timeout message names. */
    private static final long STRIMZI_OPERATION_TIMEOUT_MS = 300_000;
    /** Strimzi's default {@code spec.replicas} ({@code KafkaConnectCluster.fromSpec}). */
    private static final int DEFAULT_REPLICAS = 3;

    private final PodSetController podSets;
    private final ConnectorReconciler connectors;
    private final AtomicLong reconciles = new AtomicLong();

    ConnectReconciler(SimContext ctx, PodSetController podSets, Kubelet kubelet, ConnectorReconciler connectors) {
        super(ctx, kubelet, Strimzi.KAFKA_CONNECT_KIND, ConnectState::new,
                (ns, name) -> ctx.kc().inNamespace(ns).withName(name).get());
        this.podSets = podSets;
        this.connectors = connectors;
    }

    /** @return reconciles finished (successful, failed, paused or timed out); thread-safe */
    long reconcileCount() {
        return reconciles.get();
    }

    /** A KafkaConnect was deleted: stop its work, delete what it owned, forget its connectors. */
    void onDeleted(GenericKubernetesResource kc) {
        String ns = kc.getMetadata().getNamespace();
        String name = kc.getMetadata().getName();
        ConnectState st = forget(ns, name);
        if (st != null && st.roll != null) {
            st.roll.stop();
        }
        deleteOwned(ns, name, Strimzi.podSetName(name), Strimzi.configMapName(name));
        podSets.forget(ns, name);
        ctx.memory().adoptions.remove(ns + "/" + name);
        connectors.scheduleAllOf(ns, name);
    }

    /** A worker pod was deleted: unless a roll of its cluster is running (which re-creates it), re-create it. */
    void onPodDeleted(Pod pod) {
        String cluster = SimContext.label(pod, Strimzi.CLUSTER_LABEL);
        if (cluster == null || ctx.faults().operatorPaused()) {
            return;
        }
        ConnectState st = find(pod.getMetadata().getNamespace(), cluster);
        if (st != null && st.running) {
            return;
        }
        podSets.recreate(pod);
    }

    /** Reconciles {@code ns/name} after {@code delay} (or after the running reconcile). */
    void requestReconcile(String ns, String name, Duration delay) {
        schedule(entry(ns, name), delay);
    }

    /**
     * Defers a KafkaConnector reconcile while its cluster's reconcile runs (Strimzi reconciles connectors under
     * the KafkaConnect lock); it is scheduled when that reconcile ends.
     *
     * @return true when deferred
     */
    boolean deferConnector(String ns, String cluster, String connector) {
        ConnectState st = find(ns, cluster);
        if (st != null && st.running) {
            st.waitingConnectors.add(connector);
            return true;
        }
        return false;
    }

    /** A worker pod became Ready: the roll waiting for it goes on. */
    void onPodReady(String ns, String cluster, String podName) {
        ConnectState st = find(ns, cluster);
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
        for (ConnectState st : entries()) {
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
                requestReconcile(kc.getMetadata().getNamespace(), kc.getMetadata().getName(), ctx.settings().reconcileDelay());
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
                ConnectState st = entry(kc.getMetadata().getNamespace(), kc.getMetadata().getName());
                if (st.running || st.scheduled != null) {
                    continue;
                }
                if (!SimContext.settled(kc) || !SimContext.paused(kc) && podsBehind(kc)) {
                    LOG.fine(() -> "KafkaConnect " + SimContext.key(kc) + " is not reconciled at generation "
                            + SimContext.generation(kc) + ", or its pods are behind, and nothing is scheduled: reconciling it");
                    schedule(st, ctx.settings().reconcileDelay());
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
        java.util.List<Pod> pods = pods(kc.getMetadata().getNamespace(), kc.getMetadata().getName());
        return pods.size() != replicas(SimContext.spec(kc)) || !pods.stream().allMatch(target::runs);
    }

    @Override
    void reconcile(ConnectState st) {
        GenericKubernetesResource kc = begin(st);
        if (kc == null) {
            return;
        }
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
            st.roll = null;
            retry(st, e);
        }
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
            // surplus pods went when the reconcile wrote the PodSet (PodSetController.apply)
            String podName = rollStep(st.ns, Strimzi.podSetName(st.name), pods(st.ns, st.name), roll.replicas, p -> { },
                    roll.target::runs, (existing, ordinal) -> podSets.replacePod(roll.kc, ordinal, existing, roll.target));
            if (podName == null) {
                GenericKubernetesResource fresh = read(st.ns, st.name);
                if (fresh == null) {
                    abandon(st);
                } else {
                    succeed(roll, fresh);
                }
                return;
            }
            roll.waitingPod = podName;
            Duration patience = ctx.settings().podReadyDelay().plus(ctx.faults().slowRollExtra()).plus(ctx.settings().stuckTimeout());
            roll.timeout = ctx.loop().schedule(patience, () -> rollTimedOut(roll, podName));
        } catch (KubernetesClientException e) {
            abandon(st);
            retry(st, e);
        }
    }

    private void rollTimedOut(Roll roll, String podName) {
        if (roll.stopped || !podName.equals(roll.waitingPod)) {
            return;
        }
        ConnectState st = roll.st;
        try {
            GenericKubernetesResource kc = read(st.ns, st.name);
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

    /** Counts the reconcile and lets the connector reconciles that waited for it go on. */
    @Override
    void ended(ConnectState st) {
        reconciles.incrementAndGet();
        st.roll = null;
        for (String c : st.waitingConnectors) {
            connectors.schedule(st.ns, c);
        }
        st.waitingConnectors.clear();
    }

    private void abandon(ConnectState st) {
        if (st.roll != null) {
            st.roll.stop();
        }
        st.roll = null;
        st.running = false;
    }

    /** @return {@code spec.replicas}, or Strimzi's default of 3 when absent, unparsable or negative */
    private static int replicas(Map<String, Object> spec) {
        Object r = spec.get("replicas");
        try {
            int value = r instanceof Number n ? n.intValue()
                    : r == null ? DEFAULT_REPLICAS : Integer.parseInt(r.toString().trim());
            return value >= 0 ? value : DEFAULT_REPLICAS;
        } catch (NumberFormatException e) {
            return DEFAULT_REPLICAS;
        }
    }

    /** Reconcile bookkeeping of one KafkaConnect. */
    static final class ConnectState extends ConnectFamilyReconciler.Entry {
        Roll roll;
        final Set<String> waitingConnectors = new TreeSet<>();

        ConnectState(String ns, String name) {
            super(ns, name);
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
