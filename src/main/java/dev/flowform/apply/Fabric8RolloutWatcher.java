package dev.flowform.apply;

import dev.flowform.live.CoreResources;
import dev.flowform.live.LiveMapper;
import dev.flowform.live.StrimziResources;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LivePod;
import dev.flowform.model.ObjectRef;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.rules.ConnectorCheck;
import dev.flowform.plan.rules.ForcedRoll;
import dev.flowform.plan.rules.MirrorCheck;
import dev.flowform.plan.rules.RollCheck;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Waits for rolls and connector changes with fabric8 informers on exactly the objects rules 7 and 8 look at: each
 * event re-evaluates the pure check on the caches, a finished evaluation is confirmed by a direct read, and an interval
 * without events reads directly too, so a missed event costs one {@link #PROGRESS_INTERVAL}, not the step's timeout.
 */
public final class Fabric8RolloutWatcher implements RolloutWatcher {

    /** Longest silence between two progress reports (Terraform prints "Still modifying..." every 10 s). */
    public static final Duration PROGRESS_INTERVAL = Duration.ofSeconds(10);

    /**
     * How long a FAILED task of a just-changed connector is taken for a status that may predate the change: Strimzi's
     * periodic reconcile (120 s by default) plus 30 s (docs/domain-rules.md, 8).
     */
    public static final Duration STALE_TASK_FAILURE_GRACE = Duration.ofSeconds(150);

    private final KubernetesClient client;
    private final Clock clock;
    private final Duration progressInterval;
    private final Duration staleFailureGrace;

    /**
     * @param client           client for the target API server
     * @param clock            time source for deadlines and elapsed time
     * @param progressInterval longest silence between progress reports (at most 10 s in production)
     */
    public Fabric8RolloutWatcher(KubernetesClient client, Clock clock, Duration progressInterval) {
        this(client, clock, progressInterval, STALE_TASK_FAILURE_GRACE);
    }

    /**
     * @param client            client for the target API server
     * @param clock             time source for deadlines and elapsed time
     * @param progressInterval  longest silence between progress reports (at most 10 s in production)
     * @param staleFailureGrace how long a FAILED task of a changed KafkaConnector or KafkaMirrorMaker2 may be a status
     *                          from before the change ({@link #STALE_TASK_FAILURE_GRACE} in production)
     */
    public Fabric8RolloutWatcher(KubernetesClient client, Clock clock, Duration progressInterval,
                                 Duration staleFailureGrace) {
        this.client = client;
        this.clock = clock;
        this.progressInterval = progressInterval;
        this.staleFailureGrace = staleFailureGrace;
    }

    @Override
    public Readiness awaitRoll(ObjectRef ref, long generation, EosMode expectedMode, Duration timeout, Progress progress)
            throws InterruptedException {
        try {
            return roll(ref, generation, rollCheck(generation, expectedMode), timeout, progress);
        } catch (KubernetesClientException e) {
            throw translate(e, ref);
        }
    }

    @Override
    public Readiness awaitConnector(ObjectRef ref, long generation, String expectedState, Duration timeout,
                                    Progress progress) throws InterruptedException {
        try {
            return connector(ref, generation, expectedState, timeout, progress);
        } catch (KubernetesClientException e) {
            throw translate(e, ref);
        }
    }

    /**
     * An API error while setting up or running a wait: an interrupted call (Ctrl-C) becomes the
     * {@link InterruptedException} the port promises; anything else fails the step with the server's message.
     */
    private static ApplyException translate(KubernetesClientException e, ObjectRef ref) throws InterruptedException {
        if (interrupted(e)) {
            Thread.interrupted();
            throw new InterruptedException("interrupted while waiting for " + ref);
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted while waiting for " + ref);
        }
        String msg = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
        return new ApplyException("could not watch " + ref + ": " + (e.getCode() > 0 ? "HTTP " + e.getCode() + " " : "") + msg,
                false, e);
    }

    /** @return true when the call failed because the waiting thread was interrupted (a stop) */
    private static boolean interrupted(KubernetesClientException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                return true;
            }
        }
        return Thread.currentThread().isInterrupted();
    }

    /**
     * The objects rule 7 reads for one kind: the resource, its PodSet, the label of its pods, its ConfigMap, and how
     * they become the Connect-shaped record {@link RollCheck} evaluates (a KafkaMirrorMaker2's worker configuration
     * is its target cluster's).
     */
    private record Component(String kind, ResourceDefinitionContext resource, String podSet, String configMap,
                             boolean mirrorMaker) {
        static Component of(ObjectRef ref, StrimziApi api) {
            String name = ref.name();
            if (Strimzi.KAFKA_MIRROR_MAKER_2_KIND.equals(ref.kind())) {
                return new Component(ref.kind(), StrimziResources.kafkaMirrorMaker2(api), MirrorMaker2Names.podSetName(name),
                        MirrorMaker2Names.configMapName(name), true);
            }
            return new Component(Strimzi.KAFKA_CONNECT_KIND, StrimziResources.kafkaConnect(api), Strimzi.podSetName(name),
                    Strimzi.configMapName(name), false);
        }

        LiveConnectCluster map(GenericKubernetesResource r, GenericKubernetesResource ps, List<GenericKubernetesResource> pods,
                               GenericKubernetesResource cm) {
            return mirrorMaker ? LiveMapper.mirrorMaker(r, ps, pods, cm).workers() : LiveMapper.connectCluster(r, ps, pods, cm);
        }
    }

    @Override
    public Readiness awaitForcedRoll(ObjectRef ref, Instant annotatedAt, EosMode expectedMode, Duration timeout,
                                     Progress progress) throws InterruptedException {
        try {
            return roll(ref, 0, w -> ForcedRoll.evaluate(w, annotatedAt, expectedMode), timeout, progress);
        } catch (KubernetesClientException e) {
            throw translate(e, ref);
        }
    }

    /**
     * Rule 7 for {@code generation}; for a KafkaMirrorMaker2 whose pods carry no configuration hash (Strimzi 0.46-0.48,
     * {@link ForcedRoll#affected}) without the pods' hash, since a forced roll restarts them.
     */
    private static Function<LiveConnectCluster, Readiness> rollCheck(long generation, EosMode expectedMode) {
        return w -> RollCheck.evaluate(w, generation, expectedMode,
                !(Strimzi.KAFKA_MIRROR_MAKER_2_KIND.equals(w.ref().kind()) && ForcedRoll.affected(w)));
    }

    private Readiness roll(ObjectRef ref, long generation, Function<LiveConnectCluster, Readiness> check, Duration timeout,
                           Progress progress) throws InterruptedException {
        StrimziApi api = StrimziApi.fromApiVersion(ref.apiVersion());
        StrimziApi podSetApi = StrimziResources.detect(client, StrimziApi.CORE_GROUP, "StrimziPodSet");
        String ns = ref.namespace();
        String name = ref.name();
        Component c = Component.of(ref, api);
        Signal signal = new Signal();
        List<SharedIndexInformer<?>> informers = new ArrayList<>();
        try {
            SharedIndexInformer<GenericKubernetesResource> kc = track(informers, client.genericKubernetesResources(
                    c.resource()).inNamespace(ns).withName(name).inform(signal.handler(), 0));
            SharedIndexInformer<GenericKubernetesResource> ps = podSetApi == null ? null : track(informers,
                    client.genericKubernetesResources(StrimziResources.podSet(podSetApi)).inNamespace(ns)
                            .withName(c.podSet()).inform(signal.handler(), 0));
            SharedIndexInformer<GenericKubernetesResource> pods = track(informers, client.genericKubernetesResources(
                    CoreResources.PODS).inNamespace(ns)
                    .withLabels(Map.of(Strimzi.CLUSTER_LABEL, name, Strimzi.KIND_LABEL, c.kind()))
                    .inform(signal.handler(), 0));
            SharedIndexInformer<GenericKubernetesResource> cm = track(informers, client.genericKubernetesResources(
                    CoreResources.CONFIG_MAPS).inNamespace(ns)
                    .withName(c.configMap()).inform(signal.handler(), 0));
            Supplier<Readiness> fromCache = () -> {
                GenericKubernetesResource k = first(kc.getStore().list());
                if (k == null) {
                    return new Readiness.InProgress(c.kind() + " " + ns + "/" + name + " not found yet", 0, 1);
                }
                return check.apply(c.map(k, ps == null ? null : first(ps.getStore().list()), pods.getStore().list(),
                        first(cm.getStore().list())));
            };
            Supplier<Readiness> direct = () -> directRoll(c, podSetApi, ns, name, check);
            return loop(signal, fromCache, direct, timeout, progress,
                    () -> c.mirrorMaker() ? operatorHint(c.resource(), c.kind(), ns, name, generation)
                            : rollHint(api, podSetApi, ns, name, generation));
        } finally {
            informers.forEach(SharedIndexInformer::close);
        }
    }

    private Readiness connector(ObjectRef ref, long generation, String expectedState, Duration timeout, Progress progress)
            throws InterruptedException {
        StrimziApi api = StrimziApi.fromApiVersion(ref.apiVersion());
        if (Strimzi.KAFKA_MIRROR_MAKER_2_KIND.equals(ref.kind())) {
            return mirrorConnectors(ref, api, generation, timeout, progress);
        }
        Signal signal = new Signal();
        List<SharedIndexInformer<?>> informers = new ArrayList<>();
        try {
            SharedIndexInformer<GenericKubernetesResource> inf = track(informers, client.genericKubernetesResources(
                    StrimziResources.kafkaConnector(api)).inNamespace(ref.namespace()).withName(ref.name())
                    .inform(signal.handler(), 0));
            Instant staleUntil = clock.instant().plus(staleFailureGrace);
            Function<GenericKubernetesResource, Readiness> check = r -> r == null
                    ? new Readiness.InProgress(ref + " not found yet", 0, 1)
                    : ConnectorCheck.evaluate(LiveMapper.connector(r), generation, expectedState,
                    clock.instant().isBefore(staleUntil));
            Supplier<Readiness> fromCache = () -> check.apply(first(inf.getStore().list()));
            Supplier<Readiness> direct = () -> check.apply(client.genericKubernetesResources(
                    StrimziResources.kafkaConnector(api)).inNamespace(ref.namespace()).withName(ref.name()).get());
            return loop(signal, fromCache, direct, timeout, progress, () -> operatorHint(
                    StrimziResources.kafkaConnector(api), "KafkaConnector", ref.namespace(), ref.name(), generation));
        } finally {
            informers.forEach(SharedIndexInformer::close);
        }
    }

    /** Waits until every connector and task of a KafkaMirrorMaker2 runs at {@code generation} ({@link MirrorCheck}). */
    private Readiness mirrorConnectors(ObjectRef ref, StrimziApi api, long generation, Duration timeout, Progress progress)
            throws InterruptedException {
        Signal signal = new Signal();
        List<SharedIndexInformer<?>> informers = new ArrayList<>();
        ResourceDefinitionContext ctx = StrimziResources.kafkaMirrorMaker2(api);
        try {
            SharedIndexInformer<GenericKubernetesResource> inf = track(informers, client.genericKubernetesResources(ctx)
                    .inNamespace(ref.namespace()).withName(ref.name()).inform(signal.handler(), 0));
            Instant staleUntil = clock.instant().plus(staleFailureGrace);
            Function<GenericKubernetesResource, Readiness> check = r -> r == null
                    ? new Readiness.InProgress(ref + " not found yet", 0, 1)
                    : MirrorCheck.evaluate(LiveMapper.mirrorMaker(r, null, List.of(), null), generation,
                    clock.instant().isBefore(staleUntil));
            return loop(signal, () -> check.apply(first(inf.getStore().list())),
                    () -> check.apply(client.genericKubernetesResources(ctx).inNamespace(ref.namespace()).withName(ref.name()).get()),
                    timeout, progress, () -> operatorHint(ctx, ref.kind(), ref.namespace(), ref.name(), generation));
        } finally {
            informers.forEach(SharedIndexInformer::close);
        }
    }

    /**
     * @return a sentence naming the likely cause of a roll that did not finish in time: the worker pods
     *         that are not Ready (a pod that never becomes Ready holds the roll), else, when the operator
     *         has not finished {@code generation}, that the operator is not progressing
     */
    private String rollHint(StrimziApi api, StrimziApi podSetApi, String ns, String name, long generation) {
        try {
            GenericKubernetesResource k = client.genericKubernetesResources(StrimziResources.kafkaConnect(api))
                    .inNamespace(ns).withName(name).get();
            if (k == null) {
                return "";
            }
            List<GenericKubernetesResource> pods = client.genericKubernetesResources(CoreResources.PODS).inNamespace(ns)
                    .withLabels(Map.of(Strimzi.CLUSTER_LABEL, name, Strimzi.KIND_LABEL, Strimzi.KAFKA_CONNECT_KIND))
                    .list().getItems();
            LiveConnectCluster c = LiveMapper.connectCluster(k, null, pods, null);
            List<String> notReady = c.pods().stream().filter(p -> !p.ready() || p.terminating()).map(LivePod::name).toList();
            if (!notReady.isEmpty()) {
                return ". Worker pod" + (notReady.size() == 1 ? " " : "s ") + String.join(", ", notReady)
                        + (notReady.size() == 1 ? " is" : " are") + " not Ready; a pod that does not become Ready holds the "
                        + "roll (check its events and logs)";
            }
            return operatorHint(StrimziResources.kafkaConnect(api), "KafkaConnect", ns, name, generation);
        } catch (KubernetesClientException e) {
            if (interrupted(e)) {
                throw e;
            }
            return "";
        }
    }

    /**
     * @return a sentence naming the likely cause when the operator has not finished {@code generation}
     *         (its observedGeneration is still older), else empty
     */
    private String operatorHint(ResourceDefinitionContext ctx, String kind, String ns,
                                String name, long generation) {
        try {
            GenericKubernetesResource r = client.genericKubernetesResources(ctx).inNamespace(ns).withName(name).get();
            if (r == null) {
                return "";
            }
            Object status = r.getAdditionalProperties().get("status");
            Object og = status instanceof Map<?, ?> m ? m.get("observedGeneration") : null;
            Long observed = og instanceof Number n ? n.longValue() : null;
            if (observed == null || observed < generation) {
                return ". The operator has not finished reconciling generation " + generation + " of " + kind + " " + ns + "/"
                        + name + " (observedGeneration " + (observed == null ? "none" : observed) + ") and nothing is "
                        + "waiting on a pod: check that the Strimzi cluster operator is running and that reconciliation "
                        + "is not paused";
            }
            return "";
        } catch (KubernetesClientException e) {
            if (interrupted(e)) {
                throw e;
            }
            return "";
        }
    }

    /**
     * The wait: evaluates the caches at each event, confirms a finished evaluation with a direct read, and reads
     * directly after a progress interval without events.
     *
     * @param fromCache   the check on the informers' caches
     * @param direct      the check on a direct read
     * @param timeout     how long to wait at most
     * @param progress    receives in-progress evaluations
     * @param timeoutHint what to add to the timeout message
     * @return the confirmed final evaluation, or {@link Readiness.TimedOut}
     * @throws InterruptedException when the waiting thread is interrupted
     */
    Readiness loop(Signal signal, Supplier<Readiness> fromCache, Supplier<Readiness> direct, Duration timeout,
                   Progress progress, Supplier<String> timeoutHint) throws InterruptedException {
        Instant start = clock.instant();
        Instant deadline = start.plus(timeout);
        Instant nextReport = start;
        String lastDetail = null;
        boolean quiet = false;
        while (true) {
            long seen = signal.count();
            Readiness r = fromCache.get();
            if (!(r instanceof Readiness.InProgress) || quiet) {
                Readiness confirmed = direct.get();
                if (!(confirmed instanceof Readiness.InProgress)) {
                    return confirmed;
                }
                r = confirmed;
            }
            Instant now = clock.instant();
            if (!r.detail().equals(lastDetail) || !now.isBefore(nextReport)) {
                progress.report(r, Duration.between(start, now));
                lastDetail = r.detail();
                nextReport = now.plus(progressInterval);
            }
            if (!now.isBefore(deadline)) {
                return new Readiness.TimedOut("after " + dev.flowform.render.Text.duration(timeout) + ": " + r.detail()
                        + timeoutHint.get());
            }
            Instant wakeAt = nextReport.isBefore(deadline) ? nextReport : deadline;
            quiet = !signal.awaitChange(seen, Duration.between(now, wakeAt));
        }
    }

    private Readiness directRoll(Component c, StrimziApi podSetApi, String ns, String name,
                                 Function<LiveConnectCluster, Readiness> check) {
        try {
            GenericKubernetesResource k = client.genericKubernetesResources(c.resource()).inNamespace(ns).withName(name).get();
            if (k == null) {
                return new Readiness.InProgress(c.kind() + " " + ns + "/" + name + " not found yet", 0, 1);
            }
            GenericKubernetesResource ps = podSetApi == null ? null : client.genericKubernetesResources(
                    StrimziResources.podSet(podSetApi)).inNamespace(ns).withName(c.podSet()).get();
            List<GenericKubernetesResource> pods = client.genericKubernetesResources(CoreResources.PODS).inNamespace(ns)
                    .withLabels(Map.of(Strimzi.CLUSTER_LABEL, name, Strimzi.KIND_LABEL, c.kind()))
                    .list().getItems();
            GenericKubernetesResource cm = client.genericKubernetesResources(CoreResources.CONFIG_MAPS).inNamespace(ns)
                    .withName(c.configMap()).get();
            return check.apply(c.map(k, ps, pods, cm));
        } catch (KubernetesClientException e) {
            if (interrupted(e)) {
                throw e;
            }
            return new Readiness.InProgress("could not read " + ns + "/" + name + ": " + e.getMessage(), 0, 1);
        }
    }

    private static <T> SharedIndexInformer<T> track(List<SharedIndexInformer<?>> all, SharedIndexInformer<T> inf) {
        all.add(inf);
        return inf;
    }

    private static <T> T first(List<T> items) {
        return items.isEmpty() ? null : items.get(0);
    }

    /** Counts watch events and lets the waiting thread block until the next one (or a timeout). */
    static final class Signal {
        private long events;

        synchronized long count() {
            return events;
        }

        synchronized void fire() {
            events++;
            notifyAll();
        }

        /** @return true when an event came, false when {@code max} passed without one */
        synchronized boolean awaitChange(long seen, Duration max) throws InterruptedException {
            long deadline = System.nanoTime() + Math.max(0, max.toNanos());
            while (events == seen) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }

        <T> ResourceEventHandler<T> handler() {
            return new ResourceEventHandler<>() {
                @Override
                public void onAdd(T obj) {
                    fire();
                }

                @Override
                public void onUpdate(T oldObj, T newObj) {
                    fire();
                }

                @Override
                public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                    fire();
                }
            };
        }
    }
}
