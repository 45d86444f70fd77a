package dev.flowform.sim;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.connect.RestResult;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Plays the Strimzi cluster operator and the kubelet, driven by informers on the embedded API server, with Kafka
 * Connect behind a {@link ConnectRuntime}: a facade over the operator's parts ({@link OperatorLoop},
 * {@link ConnectReconciler}, {@link MirrorMakerReconciler}, {@link PodSetController}, {@link ConnectorReconciler},
 * {@link Kubelet}), with fault switches from {@link SimFaults} (docs/architecture.md).
 */
public final class StrimziSimulator implements AutoCloseable {
    private final SimContext ctx;
    private final OperatorLoop loop;
    private final Kubelet kubelet;
    private final PodSetController podSets;
    private final ConnectReconciler connects;
    private final ConnectorReconciler connectors;
    private final MirrorMakerReconciler mirrorMakers;
    private final List<SharedIndexInformer<?>> informers = new CopyOnWriteArrayList<>();
    /** Whether the KafkaMirrorMaker2 informers run: from start when the cluster holds one, else from the first write. */
    private final AtomicBoolean mirrorMakerInformers = new AtomicBoolean();

    StrimziSimulator(KubernetesClient client, StrimziApi api, SimSettings settings, SimFaults faults, OperatorMemory memory,
                     ConnectRuntime runtime) {
        this.loop = new OperatorLoop(Clock.systemUTC());
        this.ctx = new SimContext(client, api, settings, faults, memory, runtime, loop);
        this.kubelet = new Kubelet(ctx, (ns, cluster, podName) -> {
            podSets().updateStatus(ns, cluster);
            connects().onPodReady(ns, cluster, podName);
            mirrorMakers().onPodReady(ns, cluster, podName);
        });
        this.podSets = new PodSetController(ctx, kubelet);
        this.connectors = new ConnectorReconciler(ctx, (ns, cluster, name) -> connects().deferConnector(ns, cluster, name));
        this.connects = new ConnectReconciler(ctx, podSets, kubelet, connectors);
        this.mirrorMakers = new MirrorMakerReconciler(ctx, kubelet);
        faults.addListener(new SimFaults.Listener() {
            @Override
            public void operatorPaused(boolean paused) {
                loop.execute(paused ? connects::abandonAll : connects::resync);
            }

            @Override
            public void podUnstuck(String podName) {
                loop.execute(() -> kubelet.unstick(podName));
            }
        });
    }

    // ------------------------------------------------------------------ public API

    /**
     * Waits until the simulator has nothing left to do: nothing scheduled, and every object it acts on observed at its
     * generation (paused ones count), holding for a short quiet period; annotation-only changes are not tracked.
     *
     * @param timeout the longest time to wait
     * @return true when idle (or closed), false when {@code timeout} passed first
     */
    public boolean awaitIdle(Duration timeout) {
        return loop.awaitIdle(timeout, this::settledOnServer);
    }

    /** @return KafkaConnect reconciles finished (successful, failed, paused or timed out) */
    public long reconcileCount() {
        return connects.reconcileCount();
    }

    /** @return worker pods the simulator created (rolls, scale-ups and PodSet re-creations) */
    public long podsCreated() {
        return podSets.podsCreated();
    }

    /**
     * Reconciles a KafkaConnect now (after {@link SimSettings#reconcileDelay()}), as Strimzi's periodic
     * reconciliation (every 120 s) would; useful after a failed reconcile.
     *
     * @param namespace the namespace
     * @param name      the KafkaConnect name
     */
    public void triggerReconcile(String namespace, String name) {
        loop.execute(() -> connects.requestReconcile(namespace, name, ctx.settings().reconcileDelay()));
    }

    /**
     * Crashes the Connect worker of a pod (SIGKILL) and lets the kubelet restart its container: the fault of a
     * worker dying mid-transaction. Returns once the worker is killed; the pod is Ready again once the new worker
     * answers its health check.
     *
     * @param namespace the pod's namespace
     * @param podName   the worker pod
     * @throws IllegalStateException when no worker runs in that pod, or the operator does not answer within 60 s
     */
    public void crashWorker(String namespace, String podName) {
        onLoopAndWait(() -> kubelet.crash(namespace, podName), "crash the worker of " + namespace + "/" + podName);
    }

    /**
     * @param namespace the Connect cluster's namespace
     * @param cluster   the KafkaConnect name
     * @return the connectors Kafka Connect itself runs (its REST {@code GET /connectors}), sorted
     */
    public Set<String> runtimeConnectors(String namespace, String cluster) {
        return new TreeSet<>(ctx.runtime().connectors(namespace + "/" + cluster));
    }

    /**
     * Adds a connector straight to Kafka Connect through its REST API ({@code PUT /connectors/{name}/config},
     * then resume), bypassing KafkaConnector resources. With {@code strimzi.io/use-connector-resources: "true"}
     * the next successful reconcile of the cluster deletes it (Strimzi {@code AbstractConnectOperator}).
     *
     * @param namespace      the Connect cluster's namespace
     * @param cluster        the KafkaConnect name
     * @param name           the connector name
     * @param connectorClass its {@code connector.class}
     * @param config         its configuration
     * @throws IllegalStateException when Kafka Connect rejects it (no worker runs, unknown class, invalid config)
     */
    public void putRuntimeConnector(String namespace, String cluster, String name, String connectorClass,
                                    Map<String, String> config) {
        Map<String, String> full = new LinkedHashMap<>(config);
        full.put("connector.class", connectorClass);
        String connectCluster = namespace + "/" + cluster;
        RestResult put = ctx.runtime().putConnectorConfig(connectCluster, name, full);
        RestResult resumed = put.ok() ? ctx.runtime().setTargetState(connectCluster, name, ConnectRuntime.TargetState.RUNNING) : put;
        if (!resumed.ok()) {
            throw new IllegalStateException("Kafka Connect " + connectCluster + " did not take connector " + name + ": "
                    + resumed.status() + " " + resumed.message());
        }
    }

    /**
     * Fails one task of a KafkaMirrorMaker2's connector in the simulated Kafka Connect (as a task whose poll threw)
     * and lets the operator refresh the resource's status, which stays {@code Ready} (Strimzi checks connector states
     * only). Waits until the status is written.
     *
     * @param namespace the resource's namespace
     * @param name      the KafkaMirrorMaker2 name
     * @param connector e.g. {@code dc1->dc2.MirrorSourceConnector}
     * @param task      the task id
     * @param trace     the failure trace
     * @throws IllegalStateException when the runtime is not the simulated one, or the operator does not answer
     */
    public void failMirrorMakerTask(String namespace, String name, String connector, int task, String trace) {
        if (!(ctx.runtime() instanceof SimulatedConnectRuntime simulated)) {
            throw new IllegalStateException("tasks can be failed only in the simulated Connect runtime");
        }
        simulated.failTask(namespace + "/" + name, connector, task, trace);
        onLoopAndWait(() -> mirrorMakers.refreshStatus(namespace, name), "refresh " + namespace + "/" + name);
    }

    /**
     * Runs {@code work} on the operator thread and waits for it.
     *
     * @throws IllegalStateException when it does not end within 60 s or is interrupted; what it throws is rethrown
     */
    private void onLoopAndWait(Runnable work, String what) {
        java.util.concurrent.CompletableFuture<Void> done = new java.util.concurrent.CompletableFuture<>();
        loop.execute(() -> {
            try {
                work.run();
                done.complete(null);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        try {
            done.get(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the simulated operator did not " + what + " within 60 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** @return connectors the operator deleted from Kafka Connect, as {@code namespace/cluster/connector}, oldest first */
    public List<String> deletedRuntimeConnectors() {
        synchronized (ctx.memory().deletedRuntimeConnectors) {
            return List.copyOf(ctx.memory().deletedRuntimeConnectors);
        }
    }

    /**
     * Registers an observer of the operator's finished work (benchmarks use it to tell the operator's own
     * time from the client's). Observers are called on the operator thread and must return quickly.
     *
     * @param observer told about every Ready status written for a generation a client produced
     */
    public void addObserver(Observer observer) {
        loop.addObserver(observer);
    }

    /** Stops the informers and the operator thread; idempotent. Objects and the Connect runtime stay as they are. */
    @Override
    public void close() {
        loop.close(() -> informers.forEach(SharedIndexInformer::stop));
    }

    /** @return true when it is not terminating and its {@code Ready} condition is {@code True} */
    static boolean ready(Pod p) {
        return SimContext.ready(p);
    }

    // ------------------------------------------------------------------ start-up

    /**
     * Takes over what the cluster runs (revisions, configurations, connectors; on a fresh seed, connectors reporting a
     * state are taken as running), then starts the informers.
     */
    void start(boolean initRuntimeFromStatuses) {
        podSets.adoptExisting();
        mirrorMakers.adoptExisting();
        if (initRuntimeFromStatuses && ctx.runtime() instanceof SimulatedConnectRuntime simulated) {
            initRuntime(simulated);
            initMirrorMakerRuntime(simulated);
        }
        kubelet.adopt(ctx.client().pods().inAnyNamespace().withLabel(Strimzi.KIND_LABEL, Strimzi.KAFKA_CONNECT_KIND)
                .list().getItems());
        kubelet.adopt(ctx.client().pods().inAnyNamespace().withLabel(Strimzi.KIND_LABEL, Strimzi.KAFKA_MIRROR_MAKER_2_KIND)
                .list().getItems());
        if (!ctx.mm2().inAnyNamespace().list().getItems().isEmpty()) {
            startMirrorMakerInformers();
        }
        informers.add(ctx.kc().inAnyNamespace().inform(
                strimziHandler(StrimziCrds.KAFKA_CONNECT, connects::onEvent, connects::onDeleted), 0));
        informers.add(ctx.kctr().inAnyNamespace().inform(
                strimziHandler(StrimziCrds.KAFKA_CONNECTOR, connectors::onEvent, connectors::onDeleted), 0));
        // pod changes are driven by the simulator itself; a deleted pod is re-created
        informers.add(ctx.client().pods().inAnyNamespace().withLabel(Strimzi.KIND_LABEL, Strimzi.KAFKA_CONNECT_KIND)
                .inform(new Handler<>((oldPod, pod) -> { }, pod -> loop.execute(() -> {
                    kubelet.gone(pod);
                    connects.onPodDeleted(pod);
                })), 0));
        loop.poll(Duration.ZERO, this::reconcileUnsettledOnceWatching);
        loop.background(ConnectorReconciler.PERIODIC_RECONCILE, this::periodicReconcile);
    }

    /**
     * Once every watch is open, reconciles what is behind and has nothing scheduled: a write between an informer's list
     * and its watch reaches neither.
     */
    private void reconcileUnsettledOnceWatching() {
        reconcileUnsettledOnceWatching(System.nanoTime() + Duration.ofSeconds(10).toNanos());
    }

    private void reconcileUnsettledOnceWatching(long deadline) {
        if (loop.closed()) {
            return;
        }
        if (informers.stream().allMatch(SharedIndexInformer::isWatching) || System.nanoTime() > deadline) {
            loop.execute(connects::reconcileUnsettled);
            return;
        }
        loop.poll(Duration.ofMillis(50), () -> reconcileUnsettledOnceWatching(deadline));
    }

    /** Runs the periodic reconciliation now, on the operator thread (tests; the loop runs it every 120 s). */
    void reconcileUnsettledNow() {
        loop.execute(connects::reconcileUnsettled);
    }

    /** Strimzi's periodic reconciliation, limited to what a lost watch event would leave undone; re-arms itself. */
    private void periodicReconcile() {
        connects.reconcileUnsettled();
        loop.background(ConnectorReconciler.PERIODIC_RECONCILE, this::periodicReconcile);
    }

    private void initRuntime(SimulatedConnectRuntime simulated) {
        for (GenericKubernetesResource c : ctx.kctr().inAnyNamespace().list().getItems()) {
            String cluster = SimContext.label(c, Strimzi.CLUSTER_LABEL);
            String state = JsonMaps.str(c.getAdditionalProperties(), "status", "connectorStatus", "connector", "state");
            if (cluster == null || state == null) {
                continue;
            }
            Map<String, Object> spec = SimContext.spec(c);
            List<String> topics = new ArrayList<>();
            JsonMaps.list(JsonMaps.at(c.getAdditionalProperties(), "status", "topics")).forEach(t -> topics.add(String.valueOf(t)));
            simulated.importConnector(c.getMetadata().getNamespace() + "/" + cluster, c.getMetadata().getName(),
                    new SimulatedConnectRuntime.Connector(JsonMaps.str(spec, "class"), SimContext.stringMap(JsonMaps.map(spec.get("config"))),
                            "FAILED".equals(state) ? "RUNNING" : state, topics));
        }
    }

    /** Takes the connectors every seeded KafkaMirrorMaker2 reports in its status as running in Kafka Connect. */
    private void initMirrorMakerRuntime(SimulatedConnectRuntime simulated) {
        for (GenericKubernetesResource mm2 : ctx.mm2().inAnyNamespace().list().getItems()) {
            MirrorMakerModel model = MirrorMakerModel.of(mm2);
            for (Object o : JsonMaps.list(JsonMaps.at(mm2.getAdditionalProperties(), "status", "connectors"))) {
                Map<String, Object> c = JsonMaps.map(o);
                String name = c == null ? null : JsonMaps.str(c, "name");
                String state = c == null ? null : JsonMaps.str(c, "connector", "state");
                Map<String, String> config = name == null ? null : model.connectors().get(name);
                if (config != null && state != null) {
                    simulated.importConnector(SimContext.key(mm2), name, new SimulatedConnectRuntime.Connector(
                            config.get("connector.class"), config, "FAILED".equals(state) ? "RUNNING" : state, List.of()));
                }
            }
        }
    }

    /**
     * Starts the KafkaMirrorMaker2 informers on the operator thread if they are not running: called when the API
     * server stored a write to a KafkaMirrorMaker2 (the informers' first list then delivers it), so a cluster that
     * never holds one does not list and watch that kind and its pods on every start.
     */
    void mirrorMakerWritten() {
        if (!mirrorMakerInformers.get()) {
            loop.execute(this::startMirrorMakerInformers);
        }
    }

    private void startMirrorMakerInformers() {
        if (loop.closed() || !mirrorMakerInformers.compareAndSet(false, true)) {
            return;
        }
        informers.add(ctx.mm2().inAnyNamespace().inform(new Handler<>(
                (oldObj, obj) -> {
                    noteSeen(StrimziCrds.KAFKA_MIRROR_MAKER_2, oldObj, obj);
                    loop.execute(() -> mirrorMakers.onEvent(oldObj, obj));
                },
                obj -> loop.execute(() -> mirrorMakers.onDeleted(obj))), 0));
        informers.add(ctx.client().pods().inAnyNamespace().withLabel(Strimzi.KIND_LABEL, Strimzi.KAFKA_MIRROR_MAKER_2_KIND)
                .inform(new Handler<>((oldPod, pod) -> { }, pod -> loop.execute(() -> kubelet.gone(pod))), 0));
        informers.add(ctx.sps().inAnyNamespace().withLabel(Strimzi.KIND_LABEL, Strimzi.KAFKA_MIRROR_MAKER_2_KIND)
                .inform(new Handler<>((oldPs, ps) -> loop.execute(() -> mirrorMakers.onPodSetEvent(ps)), ps -> { }), 0));
        if (loop.closed()) {
            informers.forEach(SharedIndexInformer::stop);
        }
    }

    /**
     * @return a handler of a Strimzi kind's events: each addition or update is noted for the observers and handed to
     *         {@code changed} on the operator thread (unless {@link SimFaults#loseWatchEvents} drops it), each deletion
     *         to {@code deleted}
     */
    private Handler<GenericKubernetesResource> strimziHandler(String kind,
            BiConsumer<GenericKubernetesResource, GenericKubernetesResource> changed,
            Consumer<GenericKubernetesResource> deleted) {
        return new Handler<>((oldObj, obj) -> {
            if (ctx.faults().takeLostEvent()) {
                return;
            }
            noteSeen(kind, oldObj, obj);
            loop.execute(() -> changed.accept(oldObj, obj));
        }, obj -> loop.execute(() -> deleted.accept(obj)));
    }

    /** @return a handler calling {@code changed} for additions and updates and {@code deleted} for deletions */
    private MirrorMakerReconciler mirrorMakers() {
        return mirrorMakers;
    }

    private void noteSeen(String kind, GenericKubernetesResource old, GenericKubernetesResource obj) {
        if (old != null) {
            loop.noteSeen(kind, SimContext.key(obj), old.getMetadata().getGeneration(), obj.getMetadata().getGeneration());
        }
    }

    /** @return true when every KafkaConnect and KafkaConnector the operator acts on is settled on the API server */
    private boolean settledOnServer() {
        try {
            Map<String, GenericKubernetesResource> clusters = new HashMap<>();
            for (GenericKubernetesResource kc : ctx.kc().inAnyNamespace().list().getItems()) {
                clusters.put(SimContext.key(kc), kc);
                if (!ctx.faults().operatorPaused() && !SimContext.settled(kc)) {
                    return false;
                }
            }
            if (ctx.faults().operatorPaused()) {
                return true;
            }
            for (GenericKubernetesResource c : ctx.kctr().inAnyNamespace().list().getItems()) {
                String cluster = SimContext.label(c, Strimzi.CLUSTER_LABEL);
                GenericKubernetesResource kc = cluster == null ? null : clusters.get(c.getMetadata().getNamespace() + "/" + cluster);
                if (kc != null && SimContext.paused(kc)) {
                    continue;
                }
                if (!SimContext.settled(c)) {
                    return false;
                }
            }
            return mirrorMakers.settledOnServer();
        } catch (RuntimeException e) {
            return loop.closed();
        }
    }

    private PodSetController podSets() {
        return podSets;
    }

    private ConnectReconciler connects() {
        return connects;
    }

    // ------------------------------------------------------------------ types

    /** Receives the operator's finished work, with wall-clock times ({@link Clock#systemUTC()}). */
    @FunctionalInterface
    public interface Observer {
        /**
         * A KafkaConnect roll or a KafkaConnector reconcile ended with {@code Ready} for a generation a client wrote.
         *
         * @param kind       {@code KafkaConnect} or {@code KafkaConnector}
         * @param namespace  the object's namespace
         * @param name       the object's name
         * @param generation the generation the Ready status reports
         * @param seen       when the simulator's informer first delivered that generation
         * @param ready      just before the Ready status was written
         */
        void ready(String kind, String namespace, String name, long generation, Instant seen, Instant ready);
    }

    /** Informer handler that reports additions and updates alike. */
    private record Handler<T>(BiConsumer<T, T> changed, Consumer<T> deleted) implements ResourceEventHandler<T> {
        @Override
        public void onAdd(T obj) {
            changed.accept(null, obj);
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            changed.accept(oldObj, newObj);
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            deleted.accept(obj);
        }
    }
}
