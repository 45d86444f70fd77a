package dev.flowform.sim;

import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.sim.OperatorLoop.Task;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.ObjIntConsumer;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What KafkaConnect and KafkaMirrorMaker2 reconciles share, as in Strimzi's {@code AbstractConnectOperator}: one
 * reconcile of a resource at a time, run again after it when the resource changed meanwhile or moved past the
 * generation it read, and a roll of its pods in {@link RollOrder} ({@code KafkaConnectRoller}). The kinds differ in
 * how they render pods and settle their status. Runs on the operator thread.
 *
 * @param <S> what the reconciler keeps of one resource
 */
abstract class ConnectFamilyReconciler<S extends ConnectFamilyReconciler.Entry> {
    private static final Logger LOG = Logger.getLogger(ConnectFamilyReconciler.class.getName());

    final SimContext ctx;
    final Kubelet kubelet;
    private final String kind;
    private final BiFunction<String, String, S> newEntry;
    private final BiFunction<String, String, GenericKubernetesResource> reader;
    private final Map<String, S> entries = new HashMap<>();

    /**
     * @param kind     the kind's name, {@code strimzi.io/kind} of its pods
     * @param newEntry makes the entry of resource {@code ns, name}
     * @param reader   reads resource {@code ns, name} from the API server (null when gone)
     */
    ConnectFamilyReconciler(SimContext ctx, Kubelet kubelet, String kind, BiFunction<String, String, S> newEntry,
                            BiFunction<String, String, GenericKubernetesResource> reader) {
        this.ctx = ctx;
        this.kubelet = kubelet;
        this.kind = kind;
        this.newEntry = newEntry;
        this.reader = reader;
    }

    /** What the reconciler keeps of one resource; a kind adds its own fields. */
    static class Entry {
        final String ns;
        final String name;
        Task scheduled;
        boolean running;
        boolean again;

        Entry(String ns, String name) {
            this.ns = ns;
            this.name = name;
        }
    }

    /** Runs one reconcile of {@code st}, started by {@link #begin}. */
    abstract void reconcile(S st);

    /** A reconcile of {@code st} ended: what the kind clears or starts then. */
    abstract void ended(S st);

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

    /** An informer delivered a resource of the kind ({@code old} is null for an add). */
    void onEvent(GenericKubernetesResource old, GenericKubernetesResource obj) {
        if (ctx.faults().operatorPaused()) {
            return;
        }
        S st = entry(obj.getMetadata().getNamespace(), obj.getMetadata().getName());
        boolean changed = changed(old, obj);
        if (st.running) {
            st.again |= changed;
        } else if (changed || !SimContext.settled(obj)) {
            schedule(st, ctx.settings().reconcileDelay());
        }
    }

    /** @return the entry of {@code ns/name}, made when there is none */
    final S entry(String ns, String name) {
        return entries.computeIfAbsent(ns + "/" + name, k -> newEntry.apply(ns, name));
    }

    /** @return resource {@code ns/name} as the API server holds it, or null when gone */
    final GenericKubernetesResource read(String ns, String name) {
        return reader.apply(ns, name);
    }

    /** @return the worker pods of resource {@code ns/name}, by their {@code strimzi.io/cluster} and kind labels */
    final List<Pod> pods(String ns, String name) {
        return ctx.client().pods().inNamespace(ns).withLabels(Map.of(Strimzi.CLUSTER_LABEL, name, Strimzi.KIND_LABEL, kind))
                .list().getItems();
    }

    /** Deletes the pods, PodSet, ConfigMap and connectors of a deleted resource (owner references do in Kubernetes). */
    final void deleteOwned(String ns, String name, String podSet, String configMap) {
        try {
            for (Pod p : pods(ns, name)) {
                kubelet.delete(p);
            }
            ctx.sps().inNamespace(ns).withName(podSet).delete();
            ctx.client().configMaps().inNamespace(ns).withName(configMap).delete();
        } catch (KubernetesClientException e) {
            LOG.log(Level.WARNING, "could not clean up after " + kind + " " + ns + "/" + name, e);
        }
        for (String c : ctx.runtime().connectors(ns + "/" + name)) {
            ctx.runtime().deleteConnector(ns + "/" + name, c);
        }
    }

    /** @return the entry of {@code ns/name}, or null when there is none */
    final S find(String ns, String name) {
        return entries.get(ns + "/" + name);
    }

    /** @return every entry */
    final Collection<S> entries() {
        return entries.values();
    }

    /** Forgets {@code ns/name} and cancels its scheduled reconcile; @return its entry, or null when there was none */
    final S forget(String ns, String name) {
        S st = entries.remove(ns + "/" + name);
        if (st != null && st.scheduled != null) {
            st.scheduled.cancel();
        }
        return st;
    }

    /** Reconciles {@code st} after {@code delay} unless one is scheduled already; while one runs, again after it. */
    final void schedule(S st, Duration delay) {
        if (st.running) {
            st.again = true;
            return;
        }
        if (st.scheduled == null) {
            st.scheduled = ctx.loop().schedule(delay, () -> {
                st.scheduled = null;
                reconcile(st);
            });
        }
    }

    /** Ends a reconcile of {@code st} that an API call failed; retries it, no sooner than {@link SimContext#MIN_RETRY}. */
    final void retry(S st, KubernetesClientException e) {
        st.running = false;
        if (ctx.loop().closed()) {
            return;
        }
        LOG.log(Level.FINE, "reconcile of " + kind + " " + st.ns + "/" + st.name + " failed, retrying", e);
        schedule(st, SimContext.max(ctx.settings().reconcileDelay(), SimContext.MIN_RETRY));
    }

    /**
     * Starts a reconcile of {@code st}.
     *
     * @return the resource as read now, {@code st} running; null when the operator is paused, the loop closed, a
     *         reconcile already runs (it runs again after), or the resource is gone or could not be read (retried)
     */
    final GenericKubernetesResource begin(S st) {
        if (ctx.faults().operatorPaused() || ctx.loop().closed() || st.running) {
            st.again |= st.running;
            return null;
        }
        GenericKubernetesResource obj;
        try {
            obj = read(st.ns, st.name);
        } catch (KubernetesClientException e) {
            retry(st, e);
            return null;
        }
        st.running = obj != null;
        return obj;
    }

    /** Ends the reconcile of {@code generation} as {@link #finish(Entry, long, GenericKubernetesResource)}, read again. */
    final void finish(S st, long generation) {
        GenericKubernetesResource fresh;
        try {
            fresh = read(st.ns, st.name);
        } catch (KubernetesClientException e) {
            fresh = null;
            st.again = true;
        }
        finish(st, generation, fresh);
    }

    /**
     * Ends the reconcile of {@code generation}: {@link #ended}, then reconciles again when asked to while it ran, or when
     * {@code fresh} (a read after its last write; null when gone) is at a newer generation and not paused.
     */
    final void finish(S st, long generation, GenericKubernetesResource fresh) {
        st.running = false;
        ended(st);
        boolean again = st.again || fresh != null && SimContext.generation(fresh) > generation && !SimContext.paused(fresh);
        st.again = false;
        if (again && !ctx.loop().closed()) {
            schedule(st, ctx.settings().reconcileDelay());
        }
    }

    /**
     * Takes the next step of a roll in {@link RollOrder} over {@code pods}, named {@code <podSet>-<ordinal>}: the pod
     * it names is (re-)created through {@code replace}, or, when it runs the target and is only not Ready yet, started
     * unless the kubelet starts it already.
     *
     * @param surplus  gets each pod with no ordinal below {@code replicas}
     * @param onTarget tells a pod that runs the target
     * @param replace  deletes the pod of an ordinal (null when there is none), creates and starts a new one
     * @return the name of the pod the roll now waits for, or null when every pod is Ready and runs the target
     */
    final String rollStep(String ns, String podSet, List<Pod> pods, int replicas, Consumer<Pod> surplus,
                          Predicate<Pod> onTarget, ObjIntConsumer<Pod> replace) {
        Map<Integer, Pod> byOrdinal = new HashMap<>();
        Map<Integer, RollOrder.Pod> seen = new HashMap<>();
        for (Pod p : pods) {
            Integer ordinal = ordinal(podSet, p.getMetadata().getName());
            if (ordinal == null || ordinal >= replicas) {
                surplus.accept(p);
            } else {
                byOrdinal.put(ordinal, p);
                seen.put(ordinal, new RollOrder.Pod(SimContext.ready(p), onTarget.test(p)));
            }
        }
        Optional<RollOrder.Step> next = RollOrder.next(replicas, seen);
        if (next.isEmpty()) {
            return null;
        }
        String name = podSet + "-" + next.get().ordinal();
        Pod existing = byOrdinal.get(next.get().ordinal());
        if (!next.get().waitForReady()) {
            replace.accept(existing, next.get().ordinal());
        } else if (!kubelet.starting(ns + "/" + name)) {
            kubelet.start(ns, name, existing.getMetadata().getUid());
        }
        return name;
    }

    private static Integer ordinal(String podSet, String podName) {
        String prefix = podSet + "-";
        try {
            return podName.startsWith(prefix) ? Integer.valueOf(podName.substring(prefix.length())) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
