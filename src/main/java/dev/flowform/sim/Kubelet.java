package dev.flowform.sim;

import dev.flowform.connect.ConnectRuntimeException;
import dev.flowform.connect.WorkerSpec;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.sim.OperatorLoop.Task;
import dev.flowform.sim.connect.SimulatedConnectRuntime;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The kubelet of the worker pods: starts a pod's Connect worker through the {@link dev.flowform.connect.ConnectRuntime}
 * after {@link SimSettings#podReadyDelay()}, marks it Ready once the worker is healthy (re-probed every
 * {@value #HEALTH_RECHECK_MS} ms), and stops it when the pod is deleted; a {@link SimFaults#stuckPod(String) stuck}
 * pod never starts. Runs on the operator thread.
 */
final class Kubelet {
    private static final Logger LOG = Logger.getLogger(Kubelet.class.getName());
    /** Period of the readiness probe once the start delay has passed (Strimzi's default {@code periodSeconds} is 10). */
    static final long HEALTH_RECHECK_MS = 200;

    /** Told when a pod became Ready. */
    @FunctionalInterface
    interface Listener {
        /**
         * @param ns      the pod's namespace
         * @param cluster its KafkaConnect
         * @param podName its name
         */
        void podReady(String ns, String cluster, String podName);
    }

    private final SimContext ctx;
    private final Listener listener;
    private final AtomicInteger ipCounter = new AtomicInteger();
    private final Map<String, String> podIps = new ConcurrentHashMap<>();
    private final Map<String, Task> timers = new HashMap<>();
    private final Set<String> stuckWaiting = new HashSet<>();
    /** Uid of the pod whose worker runs, per {@code ns/pod}. */
    private final Map<String, String> workers = new HashMap<>();
    /** Container restarts after a crash, per pod ({@code ns/name}). */
    private final Map<String, Integer> restarts = new HashMap<>();

    Kubelet(SimContext ctx, Listener listener) {
        this.ctx = ctx;
        this.listener = listener;
    }

    /**
     * Takes over the worker pods found on start: their IPs, the workers of Ready pods started again with the
     * properties they carry, and the start of pods not Ready yet finished.
     */
    void adopt(List<Pod> pods) {
        for (Pod p : pods) {
            if (p.getStatus() != null && p.getStatus().getPodIP() != null) {
                podIps.put(SimContext.key(p), p.getStatus().getPodIP());
            }
        }
        for (Pod p : pods) {
            if (SimContext.ready(p)) {
                ctx.loop().execute(() -> startWorker(p));
            } else {
                ctx.loop().execute(() -> start(p.getMetadata().getNamespace(), p.getMetadata().getName(),
                        p.getMetadata().getUid()));
            }
        }
    }

    /** @return the status of a pod just placed ({@code ns/pod} {@code key}): Pending, not Ready, a fresh pod IP */
    PodStatus pendingStatus(String key, String containerName) {
        String ip = nextIp();
        podIps.put(key, ip);
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("phase", "Pending");
        status.put("podIP", ip);
        status.put("startTime", ctx.now());
        status.put("conditions", conditions(false));
        status.put("containerStatuses", List.of(Map.of("name", containerName, "ready", false,
                "restartCount", 0, "started", false)));
        return JsonMaps.convert(status, PodStatus.class);
    }

    /** Starts a created (or not yet Ready) pod: its container starts after the pod-ready delay. */
    void start(String ns, String podName, String uid) {
        String k = ns + "/" + podName;
        Task old = timers.remove(k);
        if (old != null) {
            old.cancel();
        }
        stuckWaiting.remove(k);
        timers.put(k, ctx.loop().schedule(ctx.settings().podReadyDelay().plus(ctx.faults().slowRollExtra()),
                () -> containerStarted(ns, podName, uid)));
    }

    /** @return true while the kubelet is still starting {@code ns/pod} (or holds it as stuck) */
    boolean starting(String key) {
        return timers.containsKey(key) || stuckWaiting.contains(key);
    }

    /** A stuck pod was released: it starts after the pod-ready delay. */
    void unstick(String podName) {
        for (String k : List.copyOf(stuckWaiting)) {
            if (k.endsWith("/" + podName)) {
                stuckWaiting.remove(k);
                String ns = k.substring(0, k.indexOf('/'));
                timers.put(k, ctx.loop().schedule(ctx.settings().podReadyDelay(), () -> containerStarted(ns, podName, null)));
            }
        }
    }

    /**
     * The worker container of a pod crashes (SIGKILL: no offset commit, open transactions left) and restarts
     * ({@code restartPolicy: Always}): NotReady, one more restart, until the new worker is healthy; throws when no
     * worker runs there.
     */
    void crash(String ns, String podName) {
        String k = ns + "/" + podName;
        Pod p = ctx.client().pods().inNamespace(ns).withName(podName).get();
        if (p == null || !workers.containsKey(k)) {
            throw new IllegalStateException("no worker runs in pod " + k);
        }
        ctx.runtime().stopWorker(k, true);
        workers.remove(k);
        Map<String, Object> status = JsonMaps.toMap(p.getStatus() == null ? new PodStatus() : p.getStatus());
        status.put("conditions", conditions(false));
        status.put("containerStatuses", List.of(Map.of("name", containerName(p),
                "ready", false, "restartCount", restarts.merge(k, 1, Integer::sum), "started", false,
                "lastState", Map.of("terminated", Map.of("exitCode", 137, "reason", "Error")))));
        p.setStatus(JsonMaps.convert(status, PodStatus.class));
        ctx.client().pods().inNamespace(ns).resource(p).updateStatus();
        start(ns, podName, p.getMetadata().getUid());
    }

    /** Deletes a worker pod on the API server and stops its worker. */
    void delete(Pod p) {
        ctx.client().pods().inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName()).delete();
        gone(p);
    }

    /** A worker pod is gone (deleted by anyone): stops its worker unless a newer pod of that name runs one. */
    void gone(Pod p) {
        String k = SimContext.key(p);
        String uid = workers.get(k);
        if (uid != null && Objects.equals(uid, p.getMetadata().getUid())) {
            workers.remove(k);
            restarts.remove(k);
            ctx.runtime().stopWorker(k, false);
        }
    }

    private void containerStarted(String ns, String podName, String uid) {
        String k = ns + "/" + podName;
        timers.remove(k);
        if (ctx.faults().isStuck(podName)) {
            stuckWaiting.add(k);
            return;
        }
        try {
            Pod p = ctx.client().pods().inNamespace(ns).withName(podName).get();
            if (p == null || (uid != null && !uid.equals(p.getMetadata().getUid()))) {
                return;
            }
            if (!startWorker(p)) {
                retry(ns, podName, uid);
                return;
            }
            if (!ctx.runtime().healthy(k)) {
                timers.put(k, ctx.loop().schedule(Duration.ofMillis(HEALTH_RECHECK_MS), () -> containerStarted(ns, podName, uid)));
                return;
            }
            String cluster = SimContext.label(p, Strimzi.CLUSTER_LABEL);
            if (!SimContext.ready(p)) {
                markReady(p, k);
            }
            if (cluster != null) {
                listener.podReady(ns, cluster, podName);
            }
        } catch (KubernetesClientException e) {
            LOG.log(Level.FINE, "kubelet could not mark " + k + " Ready, retrying", e);
            retry(ns, podName, uid);
        }
    }

    private void retry(String ns, String podName, String uid) {
        if (!ctx.loop().closed()) {
            timers.put(ns + "/" + podName, ctx.loop().schedule(SimContext.max(ctx.settings().podReadyDelay(), SimContext.MIN_RETRY),
                    () -> containerStarted(ns, podName, uid)));
        }
    }

    private void markReady(Pod p, String k) {
        Map<String, Object> status = JsonMaps.toMap(p.getStatus() == null ? new PodStatus() : p.getStatus());
        status.put("phase", "Running");
        status.put("conditions", conditions(true));
        status.put("containerStatuses", List.of(Map.of("name", containerName(p),
                "ready", true, "restartCount", restarts.getOrDefault(k, 0), "started", true)));
        if (status.get("podIP") == null) {
            status.put("podIP", podIps.computeIfAbsent(k, x -> nextIp()));
        }
        p.setStatus(JsonMaps.convert(status, PodStatus.class));
        ctx.client().pods().inNamespace(p.getMetadata().getNamespace()).resource(p).updateStatus();
    }

    /** @return false when the runtime could not launch the worker (the start is retried) */
    private boolean startWorker(Pod p) {
        String k = SimContext.key(p);
        String uid = p.getMetadata().getUid();
        if (uid != null && uid.equals(workers.get(k))) {
            return true;
        }
        try {
            ctx.runtime().startWorker(workerSpec(p));
            workers.put(k, uid);
            return true;
        } catch (ConnectRuntimeException e) {
            LOG.log(Level.WARNING, "the Connect worker of pod " + k + " did not start", e);
            return false;
        }
    }

    /**
     * The worker as its container starts it: the properties the pod carries, {@code rest.advertised.host.name}
     * resolved to the pod IP as Strimzi's {@code strimzidir} provider does, and the SASL settings the container's
     * start script appends ({@link WorkerAuthentication}).
     */
    private WorkerSpec workerSpec(Pod p) {
        String k = SimContext.key(p);
        String text = SimContext.envConfiguration(p);
        if (text == null) {
            String hash = SimContext.annotation(p, Strimzi.CONFIG_HASH_ANNOTATION);
            text = hash == null ? mountedConfig(p) : ctx.memory().workerConfigs.get(hash);
        }
        Map<String, String> properties = new LinkedHashMap<>(WorkerConfig.parse(text));
        try {
            properties.putAll(WorkerAuthentication.settings(p, file -> mountedSecret(p.getMetadata().getNamespace(), file)));
        } catch (IllegalStateException e) {
            LOG.fine("the worker of pod " + k + " starts without its SASL settings: " + e.getMessage());
        }
        String ip = p.getStatus() == null ? null : p.getStatus().getPodIP();
        properties.put(SimulatedConnectRuntime.ADVERTISED_HOST, ip != null ? ip : podIps.computeIfAbsent(k, x -> nextIp()));
        return new WorkerSpec(k, p.getMetadata().getNamespace() + "/" + SimContext.label(p, Strimzi.CLUSTER_LABEL), properties);
    }

    /**
     * @param ns   the pod's namespace
     * @param file {@code <secret>/<key>}, a file of a mounted Secret volume
     * @return the file's content (the key's decoded value), or empty when the Secret or the key does not exist
     */
    private Optional<String> mountedSecret(String ns, String file) {
        int slash = file.indexOf('/');
        if (slash <= 0) {
            return Optional.empty();
        }
        Secret s = ctx.client().secrets().inNamespace(ns).withName(file.substring(0, slash)).get();
        String key = file.substring(slash + 1);
        if (s == null) {
            return Optional.empty();
        }
        if (s.getStringData() != null && s.getStringData().get(key) != null) {
            return Optional.of(s.getStringData().get(key));
        }
        String b64 = s.getData() == null ? null : s.getData().get(key);
        return b64 == null ? Optional.empty()
                : Optional.of(new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8));
    }

    /**
     * @return the worker file of ConfigMap {@code <strimzi.io/name>-config} as the container reads it when it starts (a pod
     *         without a configuration hash: Strimzi 0.46-0.48 KafkaMirrorMaker2), or null
     */
    private String mountedConfig(Pod p) {
        String component = SimContext.label(p, Strimzi.NAME_LABEL);
        if (component == null || !Strimzi.KAFKA_MIRROR_MAKER_2_KIND.equals(SimContext.label(p, Strimzi.KIND_LABEL))) {
            return null;
        }
        ConfigMap cm = ctx.client().configMaps().inNamespace(p.getMetadata().getNamespace()).withName(component + "-config").get();
        return cm == null || cm.getData() == null ? null : cm.getData().get(Strimzi.CONNECT_PROPERTIES_KEY);
    }

    private String nextIp() {
        int n = ipCounter.getAndIncrement();
        return "10.42." + (n / 250 % 250) + "." + (n % 250 + 2);
    }

    /** @return the pod's four conditions, {@code ContainersReady} and {@code Ready} as {@code ready} says */
    private static List<Map<String, Object>> conditions(boolean ready) {
        String r = ready ? "True" : "False";
        return List.of(Map.of("type", "PodScheduled", "status", "True"), Map.of("type", "Initialized", "status", "True"),
                Map.of("type", "ContainersReady", "status", r), Map.of("type", "Ready", "status", r));
    }

    /** @return the name of the pod's first container, or the pod's name when it has none */
    private static String containerName(Pod p) {
        return p.getSpec() == null || p.getSpec().getContainers().isEmpty() ? p.getMetadata().getName()
                : p.getSpec().getContainers().get(0).getName();
    }
}
