package dev.flowform.sim;

import dev.flowform.connect.ConnectRuntime;
import dev.flowform.connect.ConnectorStatus;
import dev.flowform.connect.RestResult;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.sim.OperatorLoop.Task;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Reconciles KafkaMirrorMaker2 resources as Strimzi's {@code KafkaMirrorMaker2AssemblyOperator} does: ConfigMap,
 * StrimziPodSet, a roll in {@link RollOrder} when pods do not run the current revision and hash, the connectors through
 * the Connect REST API (a rejected PUT ends it {@code NotReady}), then the status. Only a FAILED connector, not a
 * FAILED task, makes the resource {@code NotReady} (Strimzi PR 5733). Runs on the operator thread.
 */
final class MirrorMakerReconciler {
    private static final Logger LOG = Logger.getLogger(MirrorMakerReconciler.class.getName());
    /**
     * How many times a status whose connectors are still starting is read again, at most one
     * {@link #STATUS_REFRESH} apart: two minutes, Strimzi's periodic reconcile, which reads it again.
     */
    private static final int STATUS_REFRESHES = 120;
    /** The longest pause between two reads of a status still moving (real Kafka Connect takes seconds). */
    private static final Duration STATUS_REFRESH = Duration.ofSeconds(1);

    private final SimContext ctx;
    private final Kubelet kubelet;
    private final Map<String, State> states = new HashMap<>();
    private final AutoRestart autoRestart = new AutoRestart();

    MirrorMakerReconciler(SimContext ctx, Kubelet kubelet) {
        this.ctx = ctx;
        this.kubelet = kubelet;
    }

    /**
     * Records the worker configuration of every MirrorMaker 2 ConfigMap by its hash, for the kubelet, and takes the
     * revision and configuration of a settled resource's pods as the target for its current spec (a seed), so that
     * a change of its mirrors alone does not roll them.
     */
    void adoptExisting() {
        Map<String, String> texts = new HashMap<>();
        for (ConfigMap cm : ctx.client().configMaps().inAnyNamespace().list().getItems()) {
            String text = cm.getData() == null ? null : cm.getData().get(Strimzi.CONNECT_PROPERTIES_KEY);
            if (text != null && cm.getMetadata().getName().endsWith(MirrorMaker2Names.configMapName(""))) {
                ctx.memory().workerConfigs.put(Strimzi.sha1Prefix(text), text);
                texts.put(SimContext.key(cm), text);
            }
        }
        for (GenericKubernetesResource mm2 : ctx.mm2().inAnyNamespace().list().getItems()) {
            String ns = mm2.getMetadata().getNamespace();
            String name = mm2.getMetadata().getName();
            String text = texts.get(ns + "/" + MirrorMaker2Names.configMapName(name));
            List<Pod> pods = pods(ns, name);
            if (!rolls()) {
                pods = MirrorMakerPodSet.replaceHashedPods(ctx, mm2, pods);
            }
            Set<String> revisions = new TreeSet<>();
            pods.forEach(p -> revisions.add(String.valueOf(SimContext.annotation(p, Strimzi.REVISION_ANNOTATION))));
            State st = state(ns, name);
            if (SimContext.settled(mm2) && text != null && revisions.size() == 1) {
                st.adopted = new Adopted(MirrorMakerModel.fingerprint(mm2, rolls()), revisions.iterator().next(), text);
            }
            reconcileIfBehind(st, mm2);
        }
    }

    /**
     * Strimzi's start-up and periodic reconciliation: schedules a reconcile of a resource behind its generation or with
     * pods not running what it renders, then looks again after {@link ConnectorReconciler#PERIODIC_RECONCILE}.
     */
    private void reconcileIfBehind(State st, GenericKubernetesResource mm2) {
        if (!st.running && st.scheduled == null && !ctx.faults().operatorPaused() && !SimContext.paused(mm2)) {
            MirrorMakerModel m = target(st, mm2);
            List<Pod> pods = pods(st.ns, st.name);
            if (!SimContext.settled(mm2) || pods.size() != m.replicas() || !pods.stream().allMatch(p -> runs(p, m))) {
                schedule(st, ctx.settings().reconcileDelay());
            }
        }
        periodic(st);
    }

    /** An informer delivered a KafkaMirrorMaker2 ({@code old} is null for an add). */
    void onEvent(GenericKubernetesResource old, GenericKubernetesResource mm2) {
        if (ctx.faults().operatorPaused()) {
            return;
        }
        State st = state(mm2.getMetadata().getNamespace(), mm2.getMetadata().getName());
        boolean changed = ConnectReconciler.changed(old, mm2);
        if (st.running) {
            st.again |= changed;
            return;
        }
        if (changed || !SimContext.settled(mm2)) {
            schedule(st, ctx.settings().reconcileDelay());
        }
    }

    /** A KafkaMirrorMaker2 was deleted: its pods, PodSet, ConfigMap and connectors go. */
    void onDeleted(GenericKubernetesResource mm2) {
        String ns = mm2.getMetadata().getNamespace();
        String name = mm2.getMetadata().getName();
        State st = states.remove(ns + "/" + name);
        if (st != null && st.scheduled != null) {
            st.scheduled.cancel();
        }
        if (st != null && st.periodic != null) {
            st.periodic.cancel();
        }
        try {
            for (Pod p : pods(ns, name)) {
                kubelet.delete(p);
            }
            ctx.sps().inNamespace(ns).withName(MirrorMaker2Names.podSetName(name)).delete();
            ctx.client().configMaps().inNamespace(ns).withName(MirrorMaker2Names.configMapName(name)).delete();
        } catch (KubernetesClientException e) {
            LOG.log(Level.WARNING, "could not clean up after KafkaMirrorMaker2 " + ns + "/" + name, e);
        }
        for (String c : ctx.runtime().connectors(ns + "/" + name)) {
            ctx.runtime().deleteConnector(ns + "/" + name, c);
        }
    }

    /** A pod became Ready: the roll waiting for it goes on. */
    void onPodReady(String ns, String name, String podName) {
        State st = states.get(ns + "/" + name);
        if (st != null && st.running && podName.equals(st.waitingPod)) {
            st.waitingPod = null;
            ctx.loop().execute(() -> rollNext(st));
        }
    }

    /** Reads the connectors' status of {@code ns/name} again and writes it, unless a reconcile is running. */
    void refreshStatus(String ns, String name) {
        State st = state(ns, name);
        if (st.running) {
            return;
        }
        if (st.model == null) {
            GenericKubernetesResource mm2 = ctx.mm2().inNamespace(ns).withName(name).get();
            if (mm2 == null || !SimContext.settled(mm2) || SimContext.paused(mm2)) {
                return;
            }
            st.model = MirrorMakerModel.of(mm2, rolls());
            st.targetStates = MirrorMakerModel.targetStates(mm2);
            st.generation = SimContext.generation(mm2);
        }
        st.refreshes = 0;
        writeStatus(st);
    }

    /** @return true when every KafkaMirrorMaker2 is settled on the API server (or the operator is paused) */
    boolean settledOnServer() {
        if (ctx.faults().operatorPaused()) {
            return true;
        }
        return ctx.mm2().inAnyNamespace().list().getItems().stream().allMatch(SimContext::settled);
    }

    private void schedule(State st, Duration delay) {
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

    private void reconcile(State st) {
        if (ctx.faults().operatorPaused() || ctx.loop().closed() || st.running) {
            st.again |= st.running;
            return;
        }
        try {
            GenericKubernetesResource mm2 = ctx.mm2().inNamespace(st.ns).withName(st.name).get();
            if (mm2 == null) {
                return;
            }
            st.running = true;
            st.generation = SimContext.generation(mm2);
            if (SimContext.paused(mm2)) {
                ctx.writeMirrorMakerStatus(mm2, StatusDocuments.paused(mm2, ctx.now()));
                finish(st);
                return;
            }
            RestartConnectorTask.apply(ctx, mm2);
            st.model = target(st, mm2);
            st.targetStates = MirrorMakerModel.targetStates(mm2);
            WorkerConfig.Rendered rendered = st.model.rendered();
            ctx.memory().workerConfigs.put(rendered.configurationHash(), rendered.fileText());
            PodSetController.writeConfigMap(ctx, st.ns, MirrorMaker2Names.configMapName(st.name), st.model.selectorLabels(),
                    rendered.fileText());
            st.manualRoll = ManualRollingUpdate.requested(ctx, st.ns, st.name)
                    ? ManualRollingUpdate.uids(pods(st.ns, st.name)) : Set.of();
            MirrorMakerPodSet.write(ctx, mm2, st.model, !rolls());
            rollNext(st);
        } catch (KubernetesClientException e) {
            st.running = false;
            LOG.log(Level.FINE, "reconcile of KafkaMirrorMaker2 " + st.ns + "/" + st.name + " failed, retrying", e);
            schedule(st, SimContext.max(ctx.settings().reconcileDelay(), SimContext.MIN_RETRY));
        }
    }

    /** @return what {@code mm2} renders; for an unchanged seed, with the revision (and file) its pods run */
    private MirrorMakerModel target(State st, GenericKubernetesResource mm2) {
        MirrorMakerModel m = MirrorMakerModel.of(mm2, rolls());
        if (st.adopted == null || !st.adopted.fingerprint().equals(MirrorMakerModel.fingerprint(mm2, rolls()))) {
            return m;
        }
        return rolls() ? m.adopting(st.adopted.revision(), st.adopted.fileText()) : m.withRevision(st.adopted.revision());
    }

    /**
     * Handles the next pod of the roll in {@link RollOrder} (Strimzi's {@code KafkaConnectRoller}, which rolls a
     * KafkaMirrorMaker2's pods too): one at a time, missing or not Ready pods first, then pods that do not run the
     * target or that a manual rolling update asked for; when none is left, finishes with the connectors.
     */
    private void rollNext(State st) {
        if (!st.running || ctx.loop().closed()) {
            return;
        }
        try {
            MirrorMakerModel m = st.model;
            Map<Integer, Pod> byOrdinal = new HashMap<>();
            Map<Integer, RollOrder.Pod> seen = new HashMap<>();
            for (Pod p : pods(st.ns, st.name)) {
                Integer ordinal = ordinal(st.name, p.getMetadata().getName());
                if (ordinal == null || ordinal >= m.replicas()) {
                    kubelet.delete(p);
                } else {
                    byOrdinal.put(ordinal, p);
                    seen.put(ordinal, new RollOrder.Pod(SimContext.ready(p), runs(p, m)
                            && !st.manualRoll.contains(p.getMetadata().getUid())));
                }
            }
            Optional<RollOrder.Step> next = RollOrder.next(m.replicas(), seen);
            if (next.isPresent()) {
                String podName = MirrorMaker2Names.podName(st.name, next.get().ordinal());
                Pod existing = byOrdinal.get(next.get().ordinal());
                if (!next.get().waitForReady()) {
                    if (existing != null) {
                        kubelet.delete(existing);
                    }
                    Pod created = PodSetController.createPod(ctx, kubelet, st.ns, m.podTemplate(next.get().ordinal(),
                            image(st), !rolls()), MirrorMaker2Names.podSetName(m.name()));
                    kubelet.start(st.ns, podName, created.getMetadata().getUid());
                } else if (!kubelet.starting(st.ns + "/" + podName)) {
                    kubelet.start(st.ns, podName, existing.getMetadata().getUid());
                }
                st.waitingPod = podName;
                return;
            }
            if (!st.manualRoll.isEmpty()) {
                st.manualRoll = Set.of();
                ManualRollingUpdate.end(ctx, st.ns, st.name);
            }
            MirrorMakerPodSet.writeStatus(ctx, st.ns, st.name, pods(st.ns, st.name), p -> runs(p, m));
            connectors(st);
        } catch (KubernetesClientException e) {
            st.running = false;
            schedule(st, SimContext.max(ctx.settings().reconcileDelay(), SimContext.MIN_RETRY));
        }
    }

    /**
     * Sends every generated connector's configuration (when Kafka Connect stores another) and the target state its
     * entry asks for, deletes the others, and writes the status.
     */
    private void connectors(State st) {
        String cluster = st.ns + "/" + st.name;
        String failure = null;
        for (Map.Entry<String, Map<String, String>> c : st.model.connectors().entrySet()) {
            // as for a KafkaConnector: the configuration only when Connect stores another, then the target state
            RestResult put = ctx.runtime().holdsConfig(cluster, c.getKey(), c.getValue()) ? RestResult.success(200)
                    : ctx.runtime().putConnectorConfig(cluster, c.getKey(), c.getValue());
            if (put.ok()) {
                put = ctx.runtime().setTargetState(cluster, c.getKey(),
                        st.targetStates.getOrDefault(c.getKey(), ConnectRuntime.TargetState.RUNNING));
            }
            if (!put.ok() && failure == null) {
                failure = "PUT /connectors/" + c.getKey() + "/config returned " + put.status() + " (" + put.message() + ")";
            }
        }
        for (String existing : new TreeSet<>(ctx.runtime().connectors(cluster))) {
            if (!st.model.connectors().containsKey(existing)) {
                ctx.runtime().deleteConnector(cluster, existing);
            }
        }
        st.failure = failure;
        st.refreshes = 0;
        writeStatus(st);
        finish(st);
    }

    /** Writes the status from what Kafka Connect reports; reads it again while connectors are still starting. */
    private void writeStatus(State st) {
        GenericKubernetesResource mm2 = ctx.mm2().inNamespace(st.ns).withName(st.name).get();
        if (mm2 == null || st.model == null) {
            return;
        }
        List<Object> connectors = new ArrayList<>();
        Map<String, ConnectorStatus> read = new LinkedHashMap<>();
        boolean moving = false;
        boolean connectorFailed = false;
        for (String name : st.model.connectors().keySet()) {
            ConnectorStatus s = ctx.runtime().status(st.ns + "/" + st.name, name).orElse(null);
            if (s == null) {
                moving = true;
                continue;
            }
            read.put(name, s);
            connectors.add(StatusDocuments.connectorStatus(s));
            connectorFailed |= "FAILED".equals(s.state());
            ConnectRuntime.TargetState target = st.targetStates.getOrDefault(name, ConnectRuntime.TargetState.RUNNING);
            boolean stopping = target == ConnectRuntime.TargetState.STOPPED;
            // a running MirrorSourceConnector without tasks has not listed the source topics yet (real Kafka Connect);
            // a stop or resume Connect answered is acted on a moment later
            moving |= !Set.of("RUNNING", "FAILED", "PAUSED", "STOPPED").contains(s.state())
                    || (!"FAILED".equals(s.state()) && !target.name().equals(s.state()))
                    || s.tasks().stream().anyMatch(t -> stopping ? Set.of("RUNNING", "PAUSED", "RESTARTING").contains(t.state())
                    : !Set.of("RUNNING", "FAILED", "PAUSED").contains(t.state()))
                    || ("RUNNING".equals(s.state()) && s.tasks().isEmpty() && name.endsWith(MirrorMaker2Names.SOURCE_CONNECTOR));
        }
        String failure = st.failure != null ? st.failure
                : connectorFailed ? "One or more connectors are in FAILED state" : null;
        Map<String, Object> status = failure != null
                ? StatusDocuments.connectNotReady(mm2, st.generation, "ConnectRestException", failure, ctx.now())
                : StatusDocuments.connectReady(mm2, st.generation, st.model.replicas(), "3.9.0", List.of(), ctx.now());
        status.put("url", "http://" + st.name + "-mirrormaker2-api." + st.ns + ".svc:" + Strimzi.CONNECT_REST_PORT);
        status.put("labelSelector", Strimzi.CLUSTER_LABEL + "=" + st.name + "," + Strimzi.NAME_LABEL + "="
                + MirrorMaker2Names.podSetName(st.name) + "," + Strimzi.KIND_LABEL + "=" + Strimzi.KAFKA_MIRROR_MAKER_2_KIND);
        status.put("connectors", connectors);
        AutoRestart.Result restarts = autoRestart.apply(ctx, mm2, read);
        moving |= restarts.restarted();
        if (!restarts.statuses().isEmpty()) {
            status.put("autoRestartStatuses", restarts.statuses());
        }
        ctx.writeMirrorMakerStatus(mm2, status);
        if (moving && st.refreshes++ < STATUS_REFRESHES && !ctx.loop().closed()) {
            Duration pause = SimContext.max(SimContext.max(ctx.settings().connectorDelay(), SimContext.MIN_RETRY),
                    st.refreshes > 10 ? STATUS_REFRESH : Duration.ZERO);
            ctx.loop().schedule(pause, () -> {
                if (!st.running) {
                    writeStatus(st);
                }
            });
        }
    }

    private void finish(State st) {
        st.running = false;
        st.waitingPod = null;
        boolean again = st.again;
        st.again = false;
        try {
            GenericKubernetesResource mm2 = ctx.mm2().inNamespace(st.ns).withName(st.name).get();
            again |= mm2 != null && SimContext.generation(mm2) > st.generation && !SimContext.paused(mm2);
        } catch (KubernetesClientException e) {
            again = true;
        }
        if (again && !ctx.loop().closed()) {
            schedule(st, ctx.settings().reconcileDelay());
        }
        periodic(st);
    }

    /**
     * Every {@link ConnectorReconciler#PERIODIC_RECONCILE}, as Strimzi's periodic reconcile: reads the status again
     * while a connector enables {@code autoRestart} (a task can fail without any change to the resource, e.g. after a
     * worker crash), and reconciles the resource when it or its pods are behind ({@link #reconcileIfBehind}).
     */
    private void periodic(State st) {
        if (st.periodic != null || ctx.loop().closed()) {
            return;
        }
        st.periodic = ctx.loop().background(ConnectorReconciler.PERIODIC_RECONCILE, () -> {
            st.periodic = null;
            GenericKubernetesResource mm2 = states.get(st.ns + "/" + st.name) == st
                    ? ctx.mm2().inNamespace(st.ns).withName(st.name).get() : null;
            if (mm2 != null && AutoRestart.enabledIn(mm2)) {
                refreshStatus(st.ns, st.name);
            }
            if (mm2 != null) {
                reconcileIfBehind(st, mm2);
            }
        });
    }

    /**
     * @return true when the pod runs the model: its revision, and (Strimzi 0.49+ and before 0.46) its configuration hash;
     *         Strimzi 0.46-0.48 compare the revision only, which a worker configuration change leaves alone (PR 11926)
     */
    private boolean runs(Pod p, MirrorMakerModel m) {
        return m.revision().equals(SimContext.annotation(p, Strimzi.REVISION_ANNOTATION))
                && (!rolls() || m.rendered().configurationHash().equals(SimContext.annotation(p, Strimzi.CONFIG_HASH_ANNOTATION)));
    }

    /** @return false when the simulated operator is a Strimzi 0.46-0.48 one ({@link SimSettings#rollsMirrorMakerOnConfigChange}) */
    private boolean rolls() {
        return ctx.settings().rollsMirrorMakerOnConfigChange();
    }

    /**
     * A PodSet of a KafkaMirrorMaker2 changed: with {@code strimzi.io/manual-rolling-update="true"} the next
     * reconciliation rolls its pods (docs/domain-rules.md, 7a).
     */
    void onPodSetEvent(GenericKubernetesResource ps) {
        String cluster = SimContext.label(ps, Strimzi.CLUSTER_LABEL);
        if (cluster != null && !ctx.faults().operatorPaused()
                && "true".equals(SimContext.annotation(ps, Strimzi.MANUAL_ROLLING_UPDATE_ANNOTATION))) {
            schedule(state(ps.getMetadata().getNamespace(), cluster), ctx.settings().reconcileDelay());
        }
    }

    private String image(State st) {
        GenericKubernetesResource mm2 = ctx.mm2().inNamespace(st.ns).withName(st.name).get();
        return mm2 == null ? "quay.io/strimzi/kafka:" + ctx.settings().strimziVersion() + "-kafka-3.9.0"
                : MirrorMakerPodSet.image(ctx, mm2);
    }

    private List<Pod> pods(String ns, String name) {
        return ctx.client().pods().inNamespace(ns).withLabels(Map.of(Strimzi.CLUSTER_LABEL, name,
                Strimzi.KIND_LABEL, Strimzi.KAFKA_MIRROR_MAKER_2_KIND)).list().getItems();
    }

    private static Integer ordinal(String name, String podName) {
        String prefix = MirrorMaker2Names.podSetName(name) + "-";
        try {
            return podName.startsWith(prefix) ? Integer.valueOf(podName.substring(prefix.length())) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private State state(String ns, String name) {
        return states.computeIfAbsent(ns + "/" + name, k -> new State(ns, name));
    }

    /** The pods of a seeded resource: what its spec looked like, and the revision and configuration they run. */
    private record Adopted(String fingerprint, String revision, String fileText) {
    }

    /** Reconcile bookkeeping of one KafkaMirrorMaker2. */
    private static final class State {
        final String ns;
        final String name;
        Task scheduled;
        Task periodic;
        boolean running;
        boolean again;
        long generation;
        MirrorMakerModel model;
        /** The target state its spec asks of each connector ({@code sourceConnector.state}, Strimzi 0.38+). */
        Map<String, ConnectRuntime.TargetState> targetStates = Map.of();
        String waitingPod;
        String failure;
        int refreshes;
        Adopted adopted;
        /** UIDs of the pods a manual rolling update still has to replace; empty when none was requested. */
        Set<String> manualRoll = Set.of();

        State(String ns, String name) {
            this.ns = ns;
            this.name = name;
        }
    }
}
