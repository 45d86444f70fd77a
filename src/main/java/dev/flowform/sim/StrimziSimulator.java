package dev.flowform.sim;

import dev.flowform.model.EosMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Plays the Strimzi cluster operator (and the kubelet) for KafkaConnect and KafkaConnector, driven by
 * fabric8 informers on the embedded API server.
 *
 * <p>All decisions run on one scheduler thread ({@code flowform-sim-operator}); delays are scheduled,
 * never slept or polled. Behaviour, with its source in the Strimzi operator:
 * <ul>
 *   <li><b>KafkaConnect</b> whose {@code metadata.generation} exceeds {@code status.observedGeneration}
 *       (or which has no status, or whose annotations changed): after {@link SimSettings#reconcileDelay()}
 *       it is reconciled ({@code KafkaConnectAssemblyOperator}). {@code strimzi.io/pause-reconciliation: "true"}
 *       only writes condition {@code ReconciliationPaused}. Otherwise the worker properties are rendered,
 *       written to ConfigMap {@code <name>-connect-config} (Strimzi 0.46+ style: API v1, or when that
 *       ConfigMap exists) or into env var {@code KAFKA_CONNECT_CONFIGURATION} (older style), the StrimziPodSet
 *       {@code <name>-connect} is updated, surplus pods are removed and the pods are rolled strictly one at a
 *       time, missing or unready pods first, then in ordinal order ({@code KafkaConnectRoller}). Only when all
 *       pods run the new revision and are Ready is {@code status} written with {@code observedGeneration} = the
 *       generation read at the start and {@code Ready=True}. A newer generation that arrives meanwhile is
 *       reconciled afterwards (Strimzi holds a per-resource lock).</li>
 *   <li><b>KafkaConnector</b> changes, and every connector of a cluster at the end of each successful Connect
 *       reconcile, are validated after {@link SimSettings#connectorDelay()} against the most conservative EOS
 *       mode among the cluster's Ready workers ({@link ConnectorValidator}) and their status is written
 *       ({@code KafkaConnectorStatus}); only when {@code strimzi.io/use-connector-resources} is {@code "true"}.
 *       With that annotation a successful reconcile also deletes connectors Kafka Connect runs without a
 *       KafkaConnector (DESIGN.md rule 6).</li>
 *   <li><b>Kubelet</b>: a worker pod the simulator creates is {@code Pending} and becomes Running/Ready after
 *       {@link SimSettings#podReadyDelay()}; a worker pod deleted from outside is re-created from its PodSet
 *       (StrimziPodSet controller).</li>
 *   <li>Deleting a KafkaConnect deletes its pods, PodSet and ConfigMap.</li>
 * </ul>
 * Fault switches come from {@link SimFaults}.
 */
public final class StrimziSimulator implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(StrimziSimulator.class.getName());
    private static final String CLUSTER_LABEL = "strimzi.io/cluster";
    private static final String KIND_LABEL = "strimzi.io/kind";
    private static final String REVISION = "strimzi.io/revision";
    private static final String CONFIG_HASH = "strimzi.io/configuration-hash";
    private static final String PAUSE = "strimzi.io/pause-reconciliation";
    private static final String USE_RESOURCES = "strimzi.io/use-connector-resources";
    /** Strimzi's default {@code operationTimeoutMs}, which its timeout message names. */
    private static final long STRIMZI_OPERATION_TIMEOUT_MS = 300_000;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final Duration QUIET = Duration.ofMillis(30);
    private static final Duration MIN_RETRY = Duration.ofMillis(100);
    private static final int DEFAULT_REPLICAS = 3;

    private final KubernetesClient client;
    private final StrimziApi api;
    private final SimSettings settings;
    private final SimFaults faults;
    private final SimBook book;
    private final Clock clock;
    private final ResourceDefinitionContext kcCtx;
    private final ResourceDefinitionContext kctrCtx;
    private final ResourceDefinitionContext spsCtx;
    private final ScheduledThreadPoolExecutor exec;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong activity = new AtomicLong();
    private final Object idleMonitor = new Object();
    private final List<SharedIndexInformer<?>> informers = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong reconciles = new AtomicLong();
    private final AtomicLong connectorReconciles = new AtomicLong();
    private final AtomicLong podsCreated = new AtomicLong();
    private final AtomicInteger ipCounter = new AtomicInteger();
    private final List<Observer> observers = new CopyOnWriteArrayList<>();
    /** First sighting of each generation a client wrote, per {@code kind ns/name}, until its Ready status is written. */
    private final Map<String, Seen> seen = new ConcurrentHashMap<>();

    // touched only on the operator thread
    private final Map<String, ConnectState> connects = new HashMap<>();
    private final Map<String, Task> connectorTimers = new HashMap<>();
    private final Map<String, Task> kubeletTimers = new HashMap<>();
    private final Set<String> stuckWaiting = new HashSet<>();
    private final Map<String, String> podIps = new ConcurrentHashMap<>();
    /** Last PodSet version the simulator wrote or read, per {@code ns/name}: only the operator writes PodSets. */
    private final Map<String, GenericKubernetesResource> podSets = new HashMap<>();

    StrimziSimulator(KubernetesClient client, StrimziApi api, SimSettings settings, SimFaults faults, SimBook book) {
        this.client = client;
        this.api = api;
        this.settings = settings;
        this.faults = faults;
        this.book = book;
        this.clock = Clock.systemUTC();
        this.kcCtx = StrimziCrds.kafkaConnect(api);
        this.kctrCtx = StrimziCrds.kafkaConnector(api);
        this.spsCtx = StrimziCrds.podSet(api);
        this.exec = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "flowform-sim-operator");
            t.setDaemon(true);
            return t;
        });
        exec.setRemoveOnCancelPolicy(true);
        faults.addListener(new SimFaults.Listener() {
            @Override
            public void operatorPaused(boolean paused) {
                execute(paused ? StrimziSimulator.this::abandonAll : StrimziSimulator.this::resync);
            }

            @Override
            public void podUnstuck(String podName) {
                execute(() -> unstick(podName));
            }
        });
    }

    // ------------------------------------------------------------------ public API

    /**
     * Waits until the simulator has nothing left to do: no scheduled step, and every KafkaConnect and
     * KafkaConnector the operator would act on has been observed at its current generation (paused ones count
     * as done). The check re-reads the API server and must hold for a short quiet period, so it also covers a
     * change whose watch event is still on its way. Annotation-only changes are not generation-tracked: wait
     * for their effect instead. After {@link #close()} the simulator counts as idle.
     *
     * @param timeout the longest time to wait
     * @return true when idle, false when {@code timeout} passed first
     */
    public boolean awaitIdle(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (closed.get()) {
                return true;
            }
            long before = activity.get();
            if (pending.get() == 0 && settledOnServer()) {
                waitForActivity(QUIET, before);
                if (activity.get() == before && pending.get() == 0) {
                    return true;
                }
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            waitForActivity(Duration.ofNanos(Math.min(left, Duration.ofMillis(25).toNanos())), before);
        }
    }

    /** @return KafkaConnect reconciles finished (successful, failed, paused or timed out) */
    public long reconcileCount() {
        return reconciles.get();
    }

    /** @return KafkaConnector reconciles that wrote or checked a status */
    public long connectorReconcileCount() {
        return connectorReconciles.get();
    }

    /** @return worker pods the simulator created (rolls, scale-ups and PodSet re-creations) */
    public long podsCreated() {
        return podsCreated.get();
    }

    /**
     * Reconciles a KafkaConnect now (after {@link SimSettings#reconcileDelay()}), as Strimzi's periodic
     * reconciliation (every 120 s) would; useful after a failed reconcile.
     *
     * @param namespace the namespace
     * @param name      the KafkaConnect name
     */
    public void triggerReconcile(String namespace, String name) {
        execute(() -> requestReconcile(state(namespace, name), settings.reconcileDelay()));
    }

    /**
     * @param namespace the Connect cluster's namespace
     * @param cluster   the KafkaConnect name
     * @return the connectors Kafka Connect itself runs (its REST {@code GET /connectors}), sorted
     */
    public Set<String> runtimeConnectors(String namespace, String cluster) {
        Map<String, SimBook.RuntimeConnector> rt = book.runtime.get(namespace + "/" + cluster);
        return rt == null ? Set.of() : new TreeSet<>(rt.keySet());
    }

    /**
     * Adds a connector straight to Kafka Connect, as {@code POST /connectors} would, bypassing KafkaConnector
     * resources. With {@code strimzi.io/use-connector-resources: "true"} the next successful reconcile of the
     * cluster deletes it (DESIGN.md rule 6).
     *
     * @param namespace      the Connect cluster's namespace
     * @param cluster        the KafkaConnect name
     * @param name           the connector name
     * @param connectorClass its {@code connector.class}
     * @param config         its configuration
     */
    public void putRuntimeConnector(String namespace, String cluster, String name, String connectorClass,
                                    Map<String, String> config) {
        book.runtime.computeIfAbsent(namespace + "/" + cluster, k -> new ConcurrentHashMap<>())
                .put(name, new SimBook.RuntimeConnector(connectorClass, config, "RUNNING", List.of()));
    }

    /** @return connectors the operator deleted from Kafka Connect, as {@code namespace/cluster/connector}, oldest first */
    public List<String> deletedRuntimeConnectors() {
        synchronized (book.deletedRuntimeConnectors) {
            return List.copyOf(book.deletedRuntimeConnectors);
        }
    }

    /**
     * Registers an observer of the operator's finished work (benchmarks use it to tell the operator's own
     * time from the client's). Observers are called on the operator thread and must return quickly.
     *
     * @param observer told about every Ready status written for a generation a client produced
     */
    public void addObserver(Observer observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
    }

    /** Stops the informers and the operator thread; idempotent. Objects stay as they are. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        informers.forEach(SharedIndexInformer::stop);
        exec.shutdownNow();
        try {
            exec.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (idleMonitor) {
            idleMonitor.notifyAll();
        }
    }

    // ------------------------------------------------------------------ start-up

    /**
     * Records what the cluster already runs (revisions, worker configurations, connectors), lets the kubelet
     * finish pods that are not Ready yet and starts the informers, which pick up unfinished work.
     *
     * @param initRuntimeFromStatuses true on a fresh seed: every KafkaConnector that reports a connector state
     *                                is taken as running in Kafka Connect
     */
    void start(boolean initRuntimeFromStatuses) {
        adoptExisting();
        if (initRuntimeFromStatuses) {
            initRuntime();
        }
        for (Pod p : client.pods().inAnyNamespace().withLabel(KIND_LABEL, "KafkaConnect").list().getItems()) {
            if (p.getStatus() != null && p.getStatus().getPodIP() != null) {
                podIps.put(key(p), p.getStatus().getPodIP());
            }
            if (!ready(p)) {
                execute(() -> kubeletStart(p.getMetadata().getNamespace(), p.getMetadata().getName(),
                        p.getMetadata().getUid()));
            }
        }
        informers.add(kc().inAnyNamespace().inform(new Handler<>() {
            @Override
            void changed(GenericKubernetesResource oldObj, GenericKubernetesResource obj) {
                noteSeen(StrimziCrds.KAFKA_CONNECT, oldObj, obj);
                execute(() -> onConnectEvent(oldObj, obj));
            }

            @Override
            void deleted(GenericKubernetesResource obj) {
                execute(() -> onConnectDeleted(obj));
            }
        }, 0));
        informers.add(kctr().inAnyNamespace().inform(new Handler<>() {
            @Override
            void changed(GenericKubernetesResource oldObj, GenericKubernetesResource obj) {
                noteSeen(StrimziCrds.KAFKA_CONNECTOR, oldObj, obj);
                execute(() -> onConnectorEvent(oldObj, obj));
            }

            @Override
            void deleted(GenericKubernetesResource obj) {
                execute(() -> onConnectorDeleted(obj));
            }
        }, 0));
        informers.add(client.pods().inAnyNamespace().withLabel(KIND_LABEL, "KafkaConnect").inform(new Handler<>() {
            @Override
            void changed(Pod oldObj, Pod obj) {
                // pod changes are driven by the simulator itself
            }

            @Override
            void deleted(Pod obj) {
                execute(() -> onPodDeleted(obj));
            }
        }, 0));
    }

    /**
     * Takes the PodSet's revision as the target for the current spec when the simulator did not render it:
     * for a settled cluster (a seed), or for a roll in progress whose configuration matches the current spec.
     */
    private void adoptExisting() {
        for (ConfigMap cm : client.configMaps().inAnyNamespace().list().getItems()) {
            String text = cm.getData() == null ? null : cm.getData().get(Strimzi.CONNECT_PROPERTIES_KEY);
            if (text != null && cm.getMetadata().getName().endsWith("-connect-config")) {
                book.workerConfigs.put(Strimzi.sha1Prefix(text), text);
            }
        }
        for (GenericKubernetesResource kc : kc().inAnyNamespace().list().getItems()) {
            String ns = kc.getMetadata().getNamespace();
            String name = kc.getMetadata().getName();
            GenericKubernetesResource ps = sps().inNamespace(ns).withName(name + "-connect").get();
            if (ps == null) {
                continue;
            }
            Set<String> revisions = new HashSet<>();
            for (Object t : Json.list(Json.at(ps.getAdditionalProperties(), "spec", "pods"))) {
                revisions.add(Json.str(Json.map(t), "metadata", "annotations", REVISION));
            }
            if (revisions.size() != 1 || revisions.contains(null)) {
                continue;
            }
            String rev = revisions.iterator().next();
            List<Pod> pods = workerPods(ns, name);
            boolean mixed = pods.stream().anyMatch(p -> !rev.equals(annotation(p, REVISION)));
            if (!settled(kc) && !mixed) {
                continue;
            }
            ConfigMap cm = client.configMaps().inNamespace(ns).withName(name + "-connect-config").get();
            String fileText = cm == null || cm.getData() == null ? null : cm.getData().get(Strimzi.CONNECT_PROPERTIES_KEY);
            String envText = pods.stream().filter(p -> rev.equals(annotation(p, REVISION)))
                    .map(StrimziSimulator::envConfiguration).filter(Objects::nonNull).findFirst().orElse(null);
            if (!settled(kc) && !WorkerConfig.carries(spec(kc), fileText != null ? fileText : envText)) {
                continue; // the PodSet was rolled out for an older spec: render the current one
            }
            book.adoptions.put(ns + "/" + name, new SimBook.Adoption(WorkerConfig.fingerprint(spec(kc)), rev, fileText, envText));
        }
    }

    private void initRuntime() {
        for (GenericKubernetesResource c : kctr().inAnyNamespace().list().getItems()) {
            String cluster = label(c, CLUSTER_LABEL);
            String state = Json.str(c.getAdditionalProperties(), "status", "connectorStatus", "connector", "state");
            if (cluster == null || state == null) {
                continue;
            }
            Map<String, Object> spec = spec(c);
            List<String> topics = new ArrayList<>();
            Json.list(Json.at(c.getAdditionalProperties(), "status", "topics")).forEach(t -> topics.add(String.valueOf(t)));
            book.runtime.computeIfAbsent(c.getMetadata().getNamespace() + "/" + cluster, k -> new ConcurrentHashMap<>())
                    .put(c.getMetadata().getName(), new SimBook.RuntimeConnector(Json.str(spec, "class"),
                            stringMap(Json.map(spec.get("config"))), "FAILED".equals(state) ? "RUNNING" : state, topics));
        }
    }

    // ------------------------------------------------------------------ event intake

    private void onConnectEvent(GenericKubernetesResource oldKc, GenericKubernetesResource kc) {
        if (faults.operatorPaused()) {
            return;
        }
        ConnectState st = state(kc.getMetadata().getNamespace(), kc.getMetadata().getName());
        boolean changed = oldKc != null && !Objects.equals(oldKc.getMetadata().getResourceVersion(),
                kc.getMetadata().getResourceVersion())
                && (!Objects.equals(oldKc.getMetadata().getGeneration(), kc.getMetadata().getGeneration())
                        || !Objects.equals(oldKc.getMetadata().getAnnotations(), kc.getMetadata().getAnnotations())
                        || !Objects.equals(oldKc.getMetadata().getLabels(), kc.getMetadata().getLabels()));
        if (st.running) {
            if (changed) {
                st.again = true;
            }
            return;
        }
        if (changed || !settled(kc)) {
            requestReconcile(st, settings.reconcileDelay());
        }
    }

    private void onConnectDeleted(GenericKubernetesResource kc) {
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
        try {
            for (Pod p : workerPods(ns, name)) {
                client.pods().inNamespace(ns).withName(p.getMetadata().getName()).delete();
            }
            sps().inNamespace(ns).withName(name + "-connect").delete();
            client.configMaps().inNamespace(ns).withName(name + "-connect-config").delete();
        } catch (KubernetesClientException e) {
            LOG.log(Level.WARNING, "could not clean up after KafkaConnect " + ns + "/" + name, e);
        }
        book.runtime.remove(ns + "/" + name);
        book.adoptions.remove(ns + "/" + name);
        podSets.remove(ns + "/" + name);
        scheduleConnectorsOf(ns, name);
    }

    private void onConnectorEvent(GenericKubernetesResource old, GenericKubernetesResource c) {
        if (faults.operatorPaused()) {
            return;
        }
        boolean changed = old != null && !Objects.equals(old.getMetadata().getResourceVersion(), c.getMetadata().getResourceVersion())
                && (!Objects.equals(old.getMetadata().getGeneration(), c.getMetadata().getGeneration())
                        || !Objects.equals(old.getMetadata().getAnnotations(), c.getMetadata().getAnnotations())
                        || !Objects.equals(old.getMetadata().getLabels(), c.getMetadata().getLabels()));
        if (changed || !connectorSettled(c)) {
            scheduleConnector(c.getMetadata().getNamespace(), c.getMetadata().getName());
        }
    }

    private void onConnectorDeleted(GenericKubernetesResource c) {
        String cluster = label(c, CLUSTER_LABEL);
        Task t = connectorTimers.remove(key(c));
        if (t != null) {
            t.cancel();
        }
        if (cluster == null || faults.operatorPaused()) {
            return;
        }
        GenericKubernetesResource kc = kc().inNamespace(c.getMetadata().getNamespace()).withName(cluster).get();
        if (kc != null && useResources(kc)) {
            Map<String, SimBook.RuntimeConnector> rt = book.runtime.get(c.getMetadata().getNamespace() + "/" + cluster);
            if (rt != null) {
                rt.remove(c.getMetadata().getName());
            }
        }
    }

    private void onPodDeleted(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        String podName = pod.getMetadata().getName();
        String cluster = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(CLUSTER_LABEL);
        if (cluster == null || faults.operatorPaused()) {
            return;
        }
        ConnectState st = connects.get(ns + "/" + cluster);
        if (st != null && st.running) {
            return; // the roll in progress re-creates missing pods
        }
        GenericKubernetesResource kc = kc().inNamespace(ns).withName(cluster).get();
        GenericKubernetesResource ps = sps().inNamespace(ns).withName(cluster + "-connect").get();
        if (kc == null || ps == null || client.pods().inNamespace(ns).withName(podName).get() != null) {
            return;
        }
        for (Object t : Json.list(Json.at(ps.getAdditionalProperties(), "spec", "pods"))) {
            Map<String, Object> template = Json.map(t);
            if (podName.equals(Json.str(template, "metadata", "name"))) {
                Pod p = createPod(kc, template, targetFor(kc));
                kubeletStart(ns, podName, p.getMetadata().getUid());
                updatePodSetStatus(ns, cluster);
                return;
            }
        }
    }

    // ------------------------------------------------------------------ KafkaConnect reconcile

    private void requestReconcile(ConnectState st, Duration delay) {
        if (st.running) {
            st.again = true;
            return;
        }
        if (st.scheduled != null) {
            return;
        }
        st.scheduled = schedule(delay, () -> {
            st.scheduled = null;
            reconcile(st);
        });
    }

    private void reconcile(ConnectState st) {
        if (faults.operatorPaused() || closed.get()) {
            return;
        }
        if (st.running) {
            st.again = true;
            return;
        }
        GenericKubernetesResource kc;
        try {
            kc = kc().inNamespace(st.ns).withName(st.name).get();
        } catch (KubernetesClientException e) {
            retryLater(st, e);
            return;
        }
        if (kc == null) {
            return;
        }
        st.running = true;
        long generation = generation(kc);
        try {
            if (paused(kc)) {
                writeConnectStatus(kc, pausedStatus(kc));
                finish(st, generation);
                return;
            }
            String failure = faults.takeReconcileFailure();
            if (failure != null) {
                writeConnectStatus(kc, notReadyStatus(kc, generation, "RuntimeException", failure));
                finish(st, generation);
                return;
            }
            Map<String, Object> spec = spec(kc);
            int replicas = replicas(spec);
            Target target = targetFor(kc);
            if (target.newStyle()) {
                upsertConfigMap(kc, target.fileText());
                book.workerConfigs.put(target.configHash(), target.fileText());
            }
            upsertPodSet(kc, replicas, target);
            scaleDown(kc, replicas);
            updatePodSetStatus(st.ns, st.name);
            st.roll = new Roll(st, kc, generation, target, replicas);
            rollNext(st.roll);
        } catch (KubernetesClientException e) {
            st.running = false;
            st.roll = null;
            retryLater(st, e);
        }
    }

    private void retryLater(ConnectState st, Exception e) {
        if (closed.get()) {
            return;
        }
        LOG.log(Level.FINE, "reconcile of KafkaConnect " + st.ns + "/" + st.name + " failed, retrying", e);
        requestReconcile(st, max(settings.reconcileDelay(), MIN_RETRY));
    }

    private void rollNext(Roll roll) {
        ConnectState st = roll.st;
        if (roll.stopped || closed.get()) {
            return;
        }
        if (faults.operatorPaused()) {
            abandon(st);
            return;
        }
        try {
            GenericKubernetesResource kc = roll.kc;
            Map<Integer, Pod> byOrdinal = new TreeMap<>();
            for (Pod p : workerPods(st.ns, st.name)) {
                Integer ordinal = ordinal(st.name, p.getMetadata().getName());
                if (ordinal != null) {
                    byOrdinal.put(ordinal, p);
                }
            }
            int next = -1;
            boolean wait = false;
            for (int i = 0; i < roll.replicas && next < 0; i++) {
                Pod p = byOrdinal.get(i);
                if (p == null) {
                    next = i;
                } else if (!ready(p)) {
                    next = i;
                    wait = onTarget(p, roll.target);
                }
            }
            for (int i = 0; i < roll.replicas && next < 0; i++) {
                if (!onTarget(byOrdinal.get(i), roll.target)) {
                    next = i;
                }
            }
            if (next < 0) {
                GenericKubernetesResource fresh = kc().inNamespace(st.ns).withName(st.name).get();
                if (fresh == null) {
                    abandon(st);
                } else {
                    succeed(roll, fresh);
                }
                return;
            }
            String podName = podName(st.name, next);
            Pod existing = byOrdinal.get(next);
            if (wait) {
                String k = st.ns + "/" + podName;
                if (!kubeletTimers.containsKey(k) && !stuckWaiting.contains(k)) {
                    kubeletStart(st.ns, podName, existing.getMetadata().getUid());
                }
            } else {
                if (existing != null) {
                    client.pods().inNamespace(st.ns).withName(podName).delete();
                }
                Pod created = createPod(kc, podTemplate(kc, next, roll.target), roll.target);
                kubeletStart(st.ns, podName, created.getMetadata().getUid());
                updatePodSetStatus(st.ns, st.name);
            }
            roll.waitingPod = podName;
            Duration patience = settings.podReadyDelay().plus(faults.slowRollExtra()).plus(settings.stuckTimeout());
            roll.timeout = schedule(patience, () -> rollTimedOut(roll, podName));
        } catch (KubernetesClientException e) {
            abandon(st);
            retryLater(st, e);
        }
    }

    private void onPodReady(String ns, String cluster, String podName) {
        ConnectState st = connects.get(ns + "/" + cluster);
        if (st == null || st.roll == null || !podName.equals(st.roll.waitingPod)) {
            return;
        }
        Roll roll = st.roll;
        roll.waitingPod = null;
        if (roll.timeout != null) {
            roll.timeout.cancel();
        }
        execute(() -> rollNext(roll));
    }

    private void rollTimedOut(Roll roll, String podName) {
        if (roll.stopped || !podName.equals(roll.waitingPod)) {
            return;
        }
        ConnectState st = roll.st;
        try {
            GenericKubernetesResource kc = kc().inNamespace(st.ns).withName(st.name).get();
            if (kc != null) {
                writeConnectStatus(kc, notReadyStatus(kc, roll.generation, "TimeoutException",
                        "Exceeded timeout of " + STRIMZI_OPERATION_TIMEOUT_MS + "ms while waiting for Pods resource "
                                + podName + " in namespace " + st.ns + " to be ready"));
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
        updatePodSetStatus(st.ns, st.name);
        Instant readyAt = clock.instant();
        writeConnectStatus(kc, readyStatus(kc, roll.generation, roll.replicas));
        reportReady(StrimziCrds.KAFKA_CONNECT, kc, roll.generation, readyAt);
        if (useResources(kc)) {
            deleteUnmanagedRuntimeConnectors(st.ns, st.name);
            scheduleConnectorsOf(st.ns, st.name);
        }
        finish(st, roll.generation, kc);
    }

    private void finish(ConnectState st, long generation) {
        GenericKubernetesResource kc;
        try {
            kc = kc().inNamespace(st.ns).withName(st.name).get();
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
            scheduleConnector(st.ns, c);
        }
        st.waitingConnectors.clear();
        boolean again = st.again || (kc != null && generation(kc) > generation && !paused(kc));
        st.again = false;
        if (again && !closed.get()) {
            requestReconcile(st, settings.reconcileDelay());
        }
    }

    private void abandon(ConnectState st) {
        if (st.roll != null) {
            st.roll.stop();
        }
        st.roll = null;
        st.running = false;
    }

    private void abandonAll() {
        for (ConnectState st : connects.values()) {
            if (st.scheduled != null) {
                st.scheduled.cancel();
                st.scheduled = null;
            }
            abandon(st);
            st.again = false;
            st.waitingConnectors.clear();
        }
        connectorTimers.values().forEach(Task::cancel);
        connectorTimers.clear();
    }

    private void resync() {
        if (faults.operatorPaused()) {
            return;
        }
        try {
            for (GenericKubernetesResource kc : kc().inAnyNamespace().list().getItems()) {
                requestReconcile(state(kc.getMetadata().getNamespace(), kc.getMetadata().getName()), settings.reconcileDelay());
            }
            for (GenericKubernetesResource c : kctr().inAnyNamespace().list().getItems()) {
                if (!connectorSettled(c)) {
                    scheduleConnector(c.getMetadata().getNamespace(), c.getMetadata().getName());
                }
            }
        } catch (KubernetesClientException e) {
            LOG.log(Level.WARNING, "operator resync failed", e);
        }
    }

    // ------------------------------------------------------------------ objects the reconcile writes

    private Target targetFor(GenericKubernetesResource kc) {
        String ns = kc.getMetadata().getNamespace();
        String name = kc.getMetadata().getName();
        Map<String, Object> spec = spec(kc);
        boolean newStyle = api == StrimziApi.V1
                || client.configMaps().inNamespace(ns).withName(name + "-connect-config").get() != null;
        WorkerConfig.Rendered rendered = WorkerConfig.render(spec, api);
        SimBook.Adoption a = book.adoptions.get(ns + "/" + name);
        if (a != null && a.fingerprint().equals(WorkerConfig.fingerprint(spec))) {
            if (newStyle) {
                String file = a.fileText() != null ? a.fileText() : rendered.fileText();
                return new Target(a.revision(), Strimzi.sha1Prefix(file), file, null, true);
            }
            return new Target(a.revision(), null, null, a.envText() != null ? a.envText() : rendered.body(), false);
        }
        String revision = WorkerConfig.revision(spec, rendered);
        return newStyle
                ? new Target(revision, rendered.configurationHash(), rendered.fileText(), null, true)
                : new Target(revision, null, null, rendered.body(), false);
    }

    private void upsertConfigMap(GenericKubernetesResource kc, String fileText) {
        String ns = kc.getMetadata().getNamespace();
        String name = kc.getMetadata().getName();
        ConfigMap existing = client.configMaps().inNamespace(ns).withName(name + "-connect-config").get();
        if (existing != null && existing.getData() != null
                && fileText.equals(existing.getData().get(Strimzi.CONNECT_PROPERTIES_KEY))) {
            return;
        }
        ConfigMap cm = new ConfigMapBuilder()
                .withMetadata(new ObjectMetaBuilder().withName(name + "-connect-config").withNamespace(ns)
                        .withLabels(selectorLabels(name)).build())
                .withData(Map.of(Strimzi.CONNECT_PROPERTIES_KEY, fileText)).build();
        if (existing == null) {
            client.configMaps().inNamespace(ns).resource(cm).create();
        } else {
            existing.setData(new LinkedHashMap<>(existing.getData() == null ? Map.of() : existing.getData()));
            existing.getData().put(Strimzi.CONNECT_PROPERTIES_KEY, fileText);
            client.configMaps().inNamespace(ns).resource(existing).update();
        }
    }

    private void upsertPodSet(GenericKubernetesResource kc, int replicas, Target target) {
        String ns = kc.getMetadata().getNamespace();
        String name = kc.getMetadata().getName();
        List<Object> pods = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            pods.add(podTemplate(kc, i, target));
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("selector", Map.of("matchLabels", selectorLabels(name)));
        spec.put("pods", pods);
        GenericKubernetesResource ps = sps().inNamespace(ns).withName(name + "-connect").get();
        if (ps == null) {
            GenericKubernetesResource created = new GenericKubernetesResource();
            created.setApiVersion(api.coreApiVersion());
            created.setKind(StrimziCrds.STRIMZI_POD_SET);
            created.setMetadata(new ObjectMetaBuilder().withName(name + "-connect").withNamespace(ns)
                    .withLabels(selectorLabels(name)).build());
            created.setAdditionalProperty("spec", spec);
            ps = sps().inNamespace(ns).resource(created).create();
        } else if (!Json.canonicalJson(spec).equals(Json.canonicalJson(ps.getAdditionalProperties().get("spec")))) {
            ps.setAdditionalProperty("spec", spec);
            ps = sps().inNamespace(ns).resource(ps).update();
        }
        podSets.put(ns + "/" + name, ps);
    }

    private void scaleDown(GenericKubernetesResource kc, int replicas) {
        String ns = kc.getMetadata().getNamespace();
        String name = kc.getMetadata().getName();
        List<Pod> surplus = new ArrayList<>();
        for (Pod p : workerPods(ns, name)) {
            Integer ordinal = ordinal(name, p.getMetadata().getName());
            if (ordinal == null || ordinal >= replicas) {
                surplus.add(p);
            }
        }
        surplus.sort(Comparator.comparing((Pod p) -> p.getMetadata().getName()).reversed());
        for (Pod p : surplus) {
            client.pods().inNamespace(ns).withName(p.getMetadata().getName()).delete();
        }
    }

    private void updatePodSetStatus(String ns, String cluster) {
        try {
            GenericKubernetesResource ps = podSets.get(ns + "/" + cluster);
            if (ps == null) {
                ps = sps().inNamespace(ns).withName(cluster + "-connect").get();
                if (ps == null) {
                    return;
                }
                podSets.put(ns + "/" + cluster, ps);
            }
            Map<String, String> wanted = new HashMap<>();
            for (Object t : Json.list(Json.at(ps.getAdditionalProperties(), "spec", "pods"))) {
                Map<String, Object> template = Json.map(t);
                wanted.put(Json.str(template, "metadata", "name"), Json.str(template, "metadata", "annotations", REVISION));
            }
            int count = 0;
            int readyCount = 0;
            int current = 0;
            for (Pod p : workerPods(ns, cluster)) {
                if (!wanted.containsKey(p.getMetadata().getName())) {
                    continue;
                }
                count++;
                if (ready(p)) {
                    readyCount++;
                }
                if (Objects.equals(wanted.get(p.getMetadata().getName()), annotation(p, REVISION))) {
                    current++;
                }
            }
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("observedGeneration", generation(ps));
            status.put("pods", count);
            status.put("readyPods", readyCount);
            status.put("currentPods", current);
            if (!Json.canonicalJson(status).equals(Json.canonicalJson(ps.getAdditionalProperties().get("status")))) {
                ps.setAdditionalProperty("status", status);
                podSets.put(ns + "/" + cluster, sps().inNamespace(ns).resource(ps).updateStatus());
            }
        } catch (KubernetesClientException e) {
            podSets.remove(ns + "/" + cluster);
            LOG.log(Level.FINE, "could not update the status of StrimziPodSet " + ns + "/" + cluster + "-connect", e);
        }
    }

    private Map<String, Object> podTemplate(GenericKubernetesResource kc, int ordinal, Target target) {
        String name = kc.getMetadata().getName();
        Map<String, Object> spec = spec(kc);
        String podName = podName(name, ordinal);
        Map<String, String> labels = new LinkedHashMap<>(selectorLabels(name));
        labels.put("strimzi.io/pod-name", podName);
        labels.put("strimzi.io/controller", "strimzipodset");
        labels.put("strimzi.io/controller-name", name + "-connect");
        labels.put("strimzi.io/component-type", "kafka-connect");
        labels.put("app.kubernetes.io/name", "kafka-connect");
        labels.put("app.kubernetes.io/instance", name);
        labels.put("app.kubernetes.io/part-of", "strimzi-" + name);
        labels.put("app.kubernetes.io/managed-by", "strimzi-cluster-operator");
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(REVISION, target.revision());
        if (target.configHash() != null) {
            annotations.put(CONFIG_HASH, target.configHash());
        }
        List<Object> env = new ArrayList<>();
        env.add(Map.of("name", "KAFKA_CONNECT_BOOTSTRAP_SERVERS", "value", String.valueOf(spec.getOrDefault("bootstrapServers", ""))));
        if (target.envText() != null) {
            env.add(Map.of("name", Strimzi.CONNECT_CONFIGURATION_ENV, "value", target.envText()));
        }
        Map<String, Object> container = new LinkedHashMap<>();
        container.put("name", name + "-connect");
        container.put("image", image(spec));
        container.put("ports", List.of(Map.of("containerPort", 8083, "name", "rest-api", "protocol", "TCP")));
        container.put("env", env);
        container.put("readinessProbe", Map.of("httpGet", Map.of("path", api == StrimziApi.V1 ? "/health" : "/",
                "port", "rest-api")));
        Map<String, Object> podSpec = new LinkedHashMap<>();
        podSpec.put("hostname", podName);
        podSpec.put("subdomain", name + "-connect");
        podSpec.put("containers", List.of(container));
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", podName);
        metadata.put("labels", labels);
        metadata.put("annotations", annotations);
        Map<String, Object> pod = new LinkedHashMap<>();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        pod.put("metadata", metadata);
        pod.put("spec", podSpec);
        return pod;
    }

    private Pod createPod(GenericKubernetesResource kc, Map<String, Object> template, Target fallback) {
        String ns = kc.getMetadata().getNamespace();
        Map<String, Object> body = Json.deepCopy(template);
        if (!(Json.at(body, "spec", "containers") instanceof List<?> l) || l.isEmpty()) {
            Integer ordinal = ordinal(kc.getMetadata().getName(), Json.str(body, "metadata", "name"));
            Map<String, Object> full = podTemplate(kc, ordinal == null ? 0 : ordinal, fallback);
            Map<String, Object> annotations = Json.map(Json.at(body, "metadata", "annotations"));
            if (annotations != null) {
                Map<String, Object> fullAnn = Json.map(Json.at(full, "metadata", "annotations"));
                fullAnn.putAll(annotations);
            }
            body = full;
        }
        Pod pod = Json.convert(body, Pod.class);
        pod.getMetadata().setNamespace(ns);
        String ip = nextIp();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("phase", "Pending");
        status.put("podIP", ip);
        status.put("startTime", now());
        status.put("conditions", List.of(
                podCondition("PodScheduled", "True"), podCondition("Initialized", "True"),
                podCondition("ContainersReady", "False"), podCondition("Ready", "False")));
        status.put("containerStatuses", List.of(Map.of("name", kc.getMetadata().getName() + "-connect", "ready", false,
                "restartCount", 0, "started", false)));
        pod.setStatus(Json.convert(status, io.fabric8.kubernetes.api.model.PodStatus.class));
        Pod created = client.pods().inNamespace(ns).resource(pod).create();
        podIps.put(ns + "/" + pod.getMetadata().getName(), ip);
        podsCreated.incrementAndGet();
        return created;
    }

    // ------------------------------------------------------------------ kubelet

    private void kubeletStart(String ns, String podName, String uid) {
        String k = ns + "/" + podName;
        Task old = kubeletTimers.remove(k);
        if (old != null) {
            old.cancel();
        }
        stuckWaiting.remove(k);
        kubeletTimers.put(k, schedule(settings.podReadyDelay().plus(faults.slowRollExtra()), () -> kubeletReady(ns, podName, uid)));
    }

    private void kubeletReady(String ns, String podName, String uid) {
        String k = ns + "/" + podName;
        kubeletTimers.remove(k);
        if (faults.isStuck(podName)) {
            stuckWaiting.add(k);
            return;
        }
        try {
            Pod p = client.pods().inNamespace(ns).withName(podName).get();
            if (p == null || (uid != null && !uid.equals(p.getMetadata().getUid()))) {
                return;
            }
            String cluster = p.getMetadata().getLabels() == null ? null : p.getMetadata().getLabels().get(CLUSTER_LABEL);
            if (!ready(p)) {
                Map<String, Object> status = Json.toMap(p.getStatus() == null ? new io.fabric8.kubernetes.api.model.PodStatus() : p.getStatus());
                status.put("phase", "Running");
                status.put("conditions", List.of(
                        podCondition("PodScheduled", "True"), podCondition("Initialized", "True"),
                        podCondition("ContainersReady", "True"), podCondition("Ready", "True")));
                status.put("containerStatuses", List.of(Map.of("name", p.getSpec() == null || p.getSpec().getContainers().isEmpty()
                                ? podName : p.getSpec().getContainers().get(0).getName(),
                        "ready", true, "restartCount", 0, "started", true)));
                if (status.get("podIP") == null) {
                    status.put("podIP", podIps.computeIfAbsent(k, x -> nextIp()));
                }
                p.setStatus(Json.convert(status, io.fabric8.kubernetes.api.model.PodStatus.class));
                client.pods().inNamespace(ns).resource(p).updateStatus();
            }
            if (cluster != null) {
                updatePodSetStatus(ns, cluster);
                onPodReady(ns, cluster, podName);
            }
        } catch (KubernetesClientException e) {
            LOG.log(Level.FINE, "kubelet could not mark " + k + " Ready, retrying", e);
            if (!closed.get()) {
                kubeletTimers.put(k, schedule(max(settings.podReadyDelay(), MIN_RETRY), () -> kubeletReady(ns, podName, uid)));
            }
        }
    }

    private void unstick(String podName) {
        for (String k : List.copyOf(stuckWaiting)) {
            if (k.endsWith("/" + podName)) {
                stuckWaiting.remove(k);
                String ns = k.substring(0, k.indexOf('/'));
                kubeletTimers.put(k, schedule(settings.podReadyDelay(), () -> kubeletReady(ns, podName, null)));
            }
        }
    }

    // ------------------------------------------------------------------ KafkaConnector reconcile

    private void scheduleConnectorsOf(String ns, String cluster) {
        for (GenericKubernetesResource c : kctr().inNamespace(ns).withLabel(CLUSTER_LABEL, cluster).list().getItems()) {
            scheduleConnector(ns, c.getMetadata().getName());
        }
    }

    private void scheduleConnector(String ns, String name) {
        String k = ns + "/" + name;
        if (connectorTimers.containsKey(k)) {
            return;
        }
        connectorTimers.put(k, schedule(settings.connectorDelay(), () -> {
            connectorTimers.remove(k);
            reconcileConnector(ns, name);
        }));
    }

    private void reconcileConnector(String ns, String name) {
        if (faults.operatorPaused() || closed.get()) {
            return;
        }
        try {
            GenericKubernetesResource c = kctr().inNamespace(ns).withName(name).get();
            if (c == null) {
                return;
            }
            long g = generation(c);
            if (paused(c)) {
                connectorReconciles.incrementAndGet();
                writeConnectorStatus(c, pausedStatus(c));
                return;
            }
            String cluster = label(c, CLUSTER_LABEL);
            if (cluster == null) {
                connectorReconciles.incrementAndGet();
                writeConnectorStatus(c, connectorError(c, g, "InvalidResourceException",
                        "Resource lacks label 'strimzi.io/cluster': No connect cluster in which to create this connector."));
                return;
            }
            GenericKubernetesResource kc = kc().inNamespace(ns).withName(cluster).get();
            if (kc == null) {
                connectorReconciles.incrementAndGet();
                writeConnectorStatus(c, connectorError(c, g, "NoSuchResourceException", "KafkaConnect resource '" + cluster
                        + "' identified by label 'strimzi.io/cluster' does not exist in namespace " + ns + "."));
                return;
            }
            ConnectState st = connects.get(ns + "/" + cluster);
            if (st != null && st.running) {
                st.waitingConnectors.add(name); // Strimzi reconciles connectors under the KafkaConnect lock
                return;
            }
            if (paused(kc)) {
                return;
            }
            connectorReconciles.incrementAndGet();
            if (!useResources(kc)) {
                writeConnectorStatus(c, connectorError(c, g, "NoSuchResourceException", "KafkaConnect " + cluster
                        + " is not configured with annotation " + USE_RESOURCES));
                return;
            }
            Map<String, Object> spec = Json.map(c.getAdditionalProperties().get("spec"));
            if (spec == null) {
                writeConnectorStatus(c, connectorError(c, g, "InvalidResourceException", "spec property is required"));
                return;
            }
            List<Pod> readyPods = workerPods(ns, cluster).stream().filter(StrimziSimulator::ready)
                    .sorted(Comparator.comparing((Pod p) -> p.getMetadata().getName())).toList();
            if (readyPods.isEmpty()) {
                writeConnectorStatus(c, connectorError(c, g, "ConnectException",
                        "Connection refused: " + cluster + "-connect-api." + ns + ".svc/8083"));
                return;
            }
            String className = Json.str(spec, "class");
            String path = "PUT /connectors/" + name + "/config returned ";
            if (!ConnectorValidator.knownClass(className)) {
                writeConnectorStatus(c, connectorError(c, g, "ConnectRestException", path + "500 (Internal Server Error): "
                        + "Failed to find any class that implements Connector and which name matches " + className
                        + ", available connectors are: " + String.join(", ", plugins())));
                return;
            }
            Map<String, String> config = stringMap(Json.map(spec.get("config")));
            EosMode mode = readyPods.stream().map(this::podMode).min(Comparator.naturalOrder()).orElse(EosMode.DISABLED);
            List<String> errors = ConnectorValidator.validate(className, config, mode);
            String workerId = workerId(readyPods.get(Math.floorMod(name.hashCode(), readyPods.size())));
            if (!errors.isEmpty()) {
                String text = ConnectorValidator.invalidConfigMessage(errors);
                Map<String, Object> status = connectorError(c, g, "ConnectRestException", path + "400 (Bad Request): " + text);
                Map<String, Object> connector = new LinkedHashMap<>();
                connector.put("state", "FAILED");
                connector.put("worker_id", workerId);
                connector.put("trace", text);
                Map<String, Object> cs = new LinkedHashMap<>();
                cs.put("name", name);
                cs.put("connector", connector);
                cs.put("tasks", List.of());
                cs.put("type", "source");
                status.put("connectorStatus", cs);
                writeConnectorStatus(c, status);
                return;
            }
            String state = desiredState(spec);
            Map<String, SimBook.RuntimeConnector> rt = book.runtime.computeIfAbsent(ns + "/" + cluster, k -> new ConcurrentHashMap<>());
            SimBook.RuntimeConnector before = rt.get(name);
            SimBook.RuntimeConnector now = new SimBook.RuntimeConnector(className, config, state,
                    before == null ? List.of() : before.topics());
            rt.put(name, now);
            Instant readyAt = clock.instant();
            writeConnectorStatus(c, connectorReady(c, g, spec, now, readyPods, workerId));
            reportReady(StrimziCrds.KAFKA_CONNECTOR, c, g, readyAt);
        } catch (KubernetesClientException e) {
            LOG.log(Level.FINE, "reconcile of KafkaConnector " + ns + "/" + name + " failed, retrying", e);
            if (!closed.get()) {
                connectorTimers.putIfAbsent(ns + "/" + name, schedule(max(settings.connectorDelay(), MIN_RETRY), () -> {
                    connectorTimers.remove(ns + "/" + name);
                    reconcileConnector(ns, name);
                }));
            }
        }
    }

    private Map<String, Object> connectorReady(GenericKubernetesResource c, long g, Map<String, Object> spec,
                                               SimBook.RuntimeConnector runtime, List<Pod> readyPods, String workerId) {
        Map<String, Object> previous = Json.map(c.getAdditionalProperties().get("status"));
        String state = runtime.state();
        int tasksMax = spec.get("tasksMax") instanceof Number n ? n.intValue() : 1;
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", List.of(condition("Ready", null, null, previous)));
        status.put("observedGeneration", g);
        status.put("tasksMax", tasksMax);
        if (!runtime.topics().isEmpty()) {
            status.put("topics", runtime.topics());
        }
        Map<String, Object> connector = new LinkedHashMap<>();
        connector.put("state", state);
        connector.put("worker_id", workerId);
        List<Object> tasks = new ArrayList<>();
        if (!"STOPPED".equals(state)) {
            int start = readyPods.indexOf(readyPods.stream().filter(p -> workerId(p).equals(workerId)).findFirst().orElse(readyPods.get(0)));
            for (int i = 0; i < tasksMax; i++) {
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("id", i);
                t.put("state", state);
                t.put("worker_id", workerId(readyPods.get((start + i) % readyPods.size())));
                tasks.add(t);
            }
        }
        Map<String, Object> cs = new LinkedHashMap<>();
        cs.put("name", c.getMetadata().getName());
        cs.put("connector", connector);
        cs.put("tasks", tasks);
        cs.put("type", "source");
        status.put("connectorStatus", cs);
        return status;
    }

    private Map<String, Object> connectorError(GenericKubernetesResource c, long g, String reason, String message) {
        Map<String, Object> previous = Json.map(c.getAdditionalProperties().get("status"));
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", List.of(condition("NotReady", reason, message, previous)));
        status.put("observedGeneration", g);
        Object tasksMax = Json.at(c.getAdditionalProperties(), "spec", "tasksMax");
        if (tasksMax != null) {
            status.put("tasksMax", tasksMax);
        }
        return status;
    }

    private void deleteUnmanagedRuntimeConnectors(String ns, String cluster) {
        Map<String, SimBook.RuntimeConnector> rt = book.runtime.get(ns + "/" + cluster);
        if (rt == null) {
            return;
        }
        Set<String> desired = new HashSet<>();
        for (GenericKubernetesResource c : kctr().inNamespace(ns).withLabel(CLUSTER_LABEL, cluster).list().getItems()) {
            desired.add(c.getMetadata().getName());
        }
        for (String name : new TreeSet<>(rt.keySet())) {
            if (!desired.contains(name)) {
                rt.remove(name);
                book.deletedRuntimeConnectors.add(ns + "/" + cluster + "/" + name);
                LOG.fine(() -> "deleted connector " + name + " from Kafka Connect " + ns + "/" + cluster
                        + ": it has no KafkaConnector and " + USE_RESOURCES + " is true");
            }
        }
    }

    private EosMode podMode(Pod p) {
        String env = envConfiguration(p);
        if (env != null) {
            return WorkerConfig.eosMode(env);
        }
        String hash = annotation(p, CONFIG_HASH);
        String text = hash == null ? null : book.workerConfigs.get(hash);
        return text == null ? EosMode.DISABLED : WorkerConfig.eosMode(text);
    }

    // ------------------------------------------------------------------ status documents

    private Map<String, Object> readyStatus(GenericKubernetesResource kc, long g, int replicas) {
        Map<String, Object> previous = Json.map(kc.getAdditionalProperties().get("status"));
        String name = kc.getMetadata().getName();
        String ns = kc.getMetadata().getNamespace();
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("conditions", List.of(condition("Ready", null, null, previous)));
        status.put("observedGeneration", g);
        status.put("url", "http://" + name + "-connect-api." + ns + ".svc:8083");
        if (useResources(kc) && replicas > 0) {
            String version = version(spec(kc));
            List<Object> plugins = new ArrayList<>();
            for (String cls : plugins()) {
                plugins.add(Map.of("class", cls, "type", "source", "version", version));
            }
            status.put("connectorPlugins", plugins);
        }
        status.put("replicas", replicas);
        status.put("labelSelector", "strimzi.io/cluster=" + name + ",strimzi.io/name=" + name
                + "-connect,strimzi.io/kind=KafkaConnect");
        return status;
    }

    private Map<String, Object> notReadyStatus(GenericKubernetesResource kc, long g, String reason, String message) {
        Map<String, Object> previous = Json.map(kc.getAdditionalProperties().get("status"));
        Map<String, Object> status = previous == null ? new LinkedHashMap<>() : new LinkedHashMap<>(previous);
        status.put("conditions", List.of(condition("NotReady", reason, message, previous)));
        status.put("observedGeneration", g);
        return status;
    }

    private Map<String, Object> pausedStatus(GenericKubernetesResource r) {
        Map<String, Object> previous = Json.map(r.getAdditionalProperties().get("status"));
        Map<String, Object> status = previous == null ? new LinkedHashMap<>() : new LinkedHashMap<>(previous);
        status.put("conditions", List.of(condition("ReconciliationPaused", null, null, previous)));
        return status;
    }

    private Map<String, Object> condition(String type, String reason, String message, Map<String, Object> previous) {
        String since = now();
        for (Object o : Json.list(previous == null ? null : previous.get("conditions"))) {
            Map<String, Object> old = Json.map(o);
            if (old != null && type.equals(old.get("type")) && "True".equals(String.valueOf(old.get("status")))
                    && Objects.equals(reason, old.get("reason")) && Objects.equals(message, old.get("message"))
                    && old.get("lastTransitionTime") != null) {
                since = String.valueOf(old.get("lastTransitionTime"));
            }
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", "True");
        if (reason != null) {
            c.put("reason", reason);
        }
        if (message != null) {
            c.put("message", message);
        }
        c.put("lastTransitionTime", since);
        return c;
    }

    private void writeConnectStatus(GenericKubernetesResource kc, Map<String, Object> status) {
        writeStatus(kc(), kc, status);
    }

    private void writeConnectorStatus(GenericKubernetesResource c, Map<String, Object> status) {
        writeStatus(kctr(), c, status);
    }

    private void writeStatus(MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList,
            Resource<GenericKubernetesResource>> op, GenericKubernetesResource r, Map<String, Object> status) {
        if (Json.canonicalJson(status).equals(Json.canonicalJson(r.getAdditionalProperties().get("status")))) {
            return;
        }
        r.setAdditionalProperty("status", status);
        op.inNamespace(r.getMetadata().getNamespace()).resource(r).updateStatus();
    }

    // ------------------------------------------------------------------ observers

    /**
     * Remembers when the informer first delivered a generation written by a client (an update that
     * changed {@code metadata.generation}); added objects and the simulator's own status writes are not
     * recorded. Runs on the informer thread, before the event is queued for the operator thread.
     */
    private void noteSeen(String kind, GenericKubernetesResource old, GenericKubernetesResource obj) {
        if (observers.isEmpty() || old == null || Objects.equals(old.getMetadata().getGeneration(), obj.getMetadata().getGeneration())) {
            return;
        }
        Instant at = clock.instant();
        seen.merge(kind + " " + key(obj), new Seen(generation(obj), at),
                (before, now) -> before.generation() >= now.generation() ? before : new Seen(now.generation(), before.at()));
    }

    /** Tells the observers that a Ready status for {@code generation} was written at {@code readyAt}. */
    private void reportReady(String kind, GenericKubernetesResource r, long generation, Instant readyAt) {
        if (observers.isEmpty()) {
            return;
        }
        String k = kind + " " + key(r);
        Seen s = seen.get(k);
        if (s == null || s.generation() > generation) {
            return;
        }
        seen.remove(k, s);
        for (Observer o : observers) {
            o.ready(kind, r.getMetadata().getNamespace(), r.getMetadata().getName(), generation, s.at(), readyAt);
        }
    }

    // ------------------------------------------------------------------ idle tracking

    private boolean settledOnServer() {
        try {
            Map<String, GenericKubernetesResource> clusters = new HashMap<>();
            for (GenericKubernetesResource kc : kc().inAnyNamespace().list().getItems()) {
                clusters.put(key(kc), kc);
                if (!faults.operatorPaused() && !settled(kc)) {
                    return false;
                }
            }
            if (faults.operatorPaused()) {
                return true;
            }
            for (GenericKubernetesResource c : kctr().inAnyNamespace().list().getItems()) {
                String cluster = label(c, CLUSTER_LABEL);
                GenericKubernetesResource kc = cluster == null ? null : clusters.get(c.getMetadata().getNamespace() + "/" + cluster);
                if (kc != null && paused(kc)) {
                    continue;
                }
                if (!connectorSettled(c)) {
                    return false;
                }
            }
            return true;
        } catch (RuntimeException e) {
            return closed.get();
        }
    }

    private boolean settled(GenericKubernetesResource kc) {
        if (paused(kc)) {
            return hasTrueCondition(kc, "ReconciliationPaused");
        }
        Long observed = Json.lng(kc.getAdditionalProperties(), "status", "observedGeneration");
        return observed != null && observed >= generation(kc);
    }

    private boolean connectorSettled(GenericKubernetesResource c) {
        if (paused(c)) {
            return hasTrueCondition(c, "ReconciliationPaused");
        }
        Long observed = Json.lng(c.getAdditionalProperties(), "status", "observedGeneration");
        return observed != null && observed >= generation(c);
    }

    private static boolean hasTrueCondition(GenericKubernetesResource r, String type) {
        for (Object o : Json.list(Json.at(r.getAdditionalProperties(), "status", "conditions"))) {
            Map<String, Object> c = Json.map(o);
            if (c != null && type.equals(c.get("type")) && "True".equals(String.valueOf(c.get("status")))) {
                return true;
            }
        }
        return false;
    }

    private void waitForActivity(Duration max, long seen) {
        synchronized (idleMonitor) {
            if (activity.get() != seen || closed.get()) {
                return;
            }
            try {
                idleMonitor.wait(Math.max(1, max.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void execute(Runnable r) {
        schedule(Duration.ZERO, r);
    }

    private Task schedule(Duration delay, Runnable r) {
        if (closed.get()) {
            return () -> { };
        }
        pending.incrementAndGet();
        bump();
        AtomicBoolean done = new AtomicBoolean();
        ScheduledFuture<?> f;
        try {
            f = exec.schedule(() -> {
                if (done.compareAndSet(false, true)) {
                    try {
                        r.run();
                    } catch (RuntimeException e) {
                        if (!closed.get()) {
                            LOG.log(Level.WARNING, "simulator step failed", e);
                        }
                    } finally {
                        pending.decrementAndGet();
                        bump();
                    }
                }
            }, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            pending.decrementAndGet();
            return () -> { };
        }
        return () -> {
            if (done.compareAndSet(false, true)) {
                f.cancel(false);
                pending.decrementAndGet();
                bump();
            }
        };
    }

    private void bump() {
        activity.incrementAndGet();
        synchronized (idleMonitor) {
            idleMonitor.notifyAll();
        }
    }

    // ------------------------------------------------------------------ small helpers

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> kc() {
        return client.genericKubernetesResources(kcCtx);
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> kctr() {
        return client.genericKubernetesResources(kctrCtx);
    }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> sps() {
        return client.genericKubernetesResources(spsCtx);
    }

    private ConnectState state(String ns, String name) {
        return connects.computeIfAbsent(ns + "/" + name, k -> new ConnectState(ns, name));
    }

    private List<Pod> workerPods(String ns, String cluster) {
        return client.pods().inNamespace(ns).withLabels(Map.of(CLUSTER_LABEL, cluster, KIND_LABEL, "KafkaConnect"))
                .list().getItems();
    }

    private boolean onTarget(Pod p, Target t) {
        return p != null && t.revision().equals(annotation(p, REVISION))
                && (t.configHash() == null || t.configHash().equals(annotation(p, CONFIG_HASH)));
    }

    private String image(Map<String, Object> spec) {
        Object image = spec.get("image");
        if (image != null) {
            return image.toString();
        }
        return "quay.io/strimzi/kafka:" + (api == StrimziApi.V1 ? "1.0.0" : "0.45.0") + "-kafka-" + version(spec);
    }

    private String version(Map<String, Object> spec) {
        Object v = spec.get("version");
        return v != null ? v.toString() : api == StrimziApi.V1 ? "4.1.1" : "3.9.0";
    }

    private String workerId(Pod p) {
        String ip = p.getStatus() == null ? null : p.getStatus().getPodIP();
        if (ip == null) {
            ip = podIps.computeIfAbsent(key(p), x -> nextIp());
        }
        return ip + ":8083";
    }

    private String nextIp() {
        int n = ipCounter.getAndIncrement();
        return "10.42." + (n / 250 % 250) + "." + (n % 250 + 2);
    }

    private String now() {
        return TIME.format(clock.instant());
    }

    private static List<String> plugins() {
        return List.of("org.apache.kafka.connect.mirror.MirrorCheckpointConnector",
                "org.apache.kafka.connect.mirror.MirrorHeartbeatConnector",
                "org.apache.kafka.connect.mirror.MirrorSourceConnector");
    }

    private static String desiredState(Map<String, Object> spec) {
        Object state = spec.get("state");
        if (state != null) {
            return switch (state.toString().toLowerCase(Locale.ROOT)) {
                case "paused" -> "PAUSED";
                case "stopped" -> "STOPPED";
                default -> "RUNNING";
            };
        }
        return Boolean.parseBoolean(String.valueOf(spec.get("pause"))) ? "PAUSED" : "RUNNING";
    }

    private static Map<String, Object> podCondition(String type, String status) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("type", type);
        c.put("status", status);
        return c;
    }

    static boolean ready(Pod p) {
        if (p.getStatus() == null || p.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        for (PodCondition c : p.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }

    private static String envConfiguration(Pod p) {
        if (p.getSpec() == null) {
            return null;
        }
        for (var c : p.getSpec().getContainers()) {
            for (EnvVar e : c.getEnv()) {
                if (Strimzi.CONNECT_CONFIGURATION_ENV.equals(e.getName())) {
                    return e.getValue();
                }
            }
        }
        return null;
    }

    private static String annotation(HasMetadata r, String key) {
        Map<String, String> a = r.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    private static String label(HasMetadata r, String key) {
        Map<String, String> l = r.getMetadata().getLabels();
        return l == null ? null : l.get(key);
    }

    private static boolean paused(HasMetadata r) {
        return "true".equalsIgnoreCase(annotation(r, PAUSE));
    }

    private static boolean useResources(HasMetadata kc) {
        return "true".equalsIgnoreCase(annotation(kc, USE_RESOURCES));
    }

    private static long generation(HasMetadata r) {
        Long g = r.getMetadata().getGeneration();
        return g == null ? 0 : g;
    }

    private static Map<String, Object> spec(GenericKubernetesResource r) {
        Map<String, Object> spec = Json.map(r.getAdditionalProperties().get("spec"));
        return spec == null ? Map.of() : spec;
    }

    /** @return {@code spec.replicas}, or Strimzi's default of 3 when absent or negative ({@code KafkaConnectCluster.fromSpec}) */
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

    private static Map<String, String> stringMap(Map<String, Object> m) {
        Map<String, String> out = new LinkedHashMap<>();
        if (m != null) {
            m.forEach((k, v) -> out.put(k, v == null ? null : v.toString()));
        }
        return out;
    }

    private static Map<String, String> selectorLabels(String cluster) {
        Map<String, String> l = new LinkedHashMap<>();
        l.put(CLUSTER_LABEL, cluster);
        l.put("strimzi.io/name", cluster + "-connect");
        l.put(KIND_LABEL, "KafkaConnect");
        return l;
    }

    private static String podName(String cluster, int ordinal) {
        return cluster + "-connect-" + ordinal;
    }

    private static Integer ordinal(String cluster, String podName) {
        String prefix = cluster + "-connect-";
        if (podName == null || !podName.startsWith(prefix)) {
            return null;
        }
        try {
            return Integer.parseInt(podName.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String key(HasMetadata r) {
        return r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
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

    /** When a generation was first delivered. */
    private record Seen(long generation, Instant at) {
    }

    /** A cancellable scheduled step. */
    @FunctionalInterface
    private interface Task {
        void cancel();
    }

    /**
     * What the pods of one reconcile must end up with.
     *
     * @param revision   {@code strimzi.io/revision}
     * @param configHash {@code strimzi.io/configuration-hash}, or null for the env-var style
     * @param fileText   ConfigMap {@code kafka-connect.properties}, or null for the env-var style
     * @param envText    {@code KAFKA_CONNECT_CONFIGURATION}, or null for the ConfigMap style
     * @param newStyle   true for the ConfigMap style (Strimzi 0.46+)
     */
    private record Target(String revision, String configHash, String fileText, String envText, boolean newStyle) {
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
        final Target target;
        final int replicas;
        String waitingPod;
        Task timeout;
        boolean stopped;

        Roll(ConnectState st, GenericKubernetesResource kc, long generation, Target target, int replicas) {
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

    /** Informer handler that reports additions and updates alike. */
    private abstract static class Handler<T> implements ResourceEventHandler<T> {
        abstract void changed(T oldObj, T obj);

        abstract void deleted(T obj);

        @Override
        public void onAdd(T obj) {
            changed(null, obj);
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            changed(oldObj, newObj);
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            deleted(obj);
        }
    }
}
