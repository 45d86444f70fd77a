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
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Reconciles KafkaMirrorMaker2 resources as Strimzi's {@code KafkaMirrorMaker2AssemblyOperator} does: ConfigMap,
 * StrimziPodSet, a roll in {@link RollOrder} when pods do not run the current revision and hash, the connectors through
 * the Connect REST API (a rejected PUT ends it {@code NotReady}), then the status. Only a FAILED connector, not a
 * FAILED task, makes the resource {@code NotReady} (Strimzi PR 5733). Runs on the operator thread.
 */
final class MirrorMakerReconciler extends ConnectFamilyReconciler<MirrorMakerReconciler.State> {
    /**
     * How many times a status whose connectors are still starting is read again, at most one
     * {@link #STATUS_REFRESH} apart: two minutes, Strimzi's periodic reconcile, which reads it again.
     */
    private static final int STATUS_REFRESHES = 120;
    /** The longest pause between two reads of a status still moving (real Kafka Connect takes seconds). */
    private static final Duration STATUS_REFRESH = Duration.ofSeconds(1);

    private final AutoRestart autoRestart = new AutoRestart();

    MirrorMakerReconciler(SimContext ctx, Kubelet kubelet) {
        super(ctx, kubelet, Strimzi.KAFKA_MIRROR_MAKER_2_KIND, State::new,
                (ns, name) -> ctx.mm2().inNamespace(ns).withName(name).get());
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
                pods = replaceHashedPods(mm2, pods);
            }
            Set<String> revisions = new TreeSet<>();
            pods.forEach(p -> revisions.add(String.valueOf(SimContext.annotation(p, Strimzi.REVISION_ANNOTATION))));
            State st = entry(ns, name);
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

    /** A KafkaMirrorMaker2 was deleted: its pods, PodSet, ConfigMap and connectors go. */
    void onDeleted(GenericKubernetesResource mm2) {
        String ns = mm2.getMetadata().getNamespace();
        String name = mm2.getMetadata().getName();
        State st = forget(ns, name);
        if (st != null && st.periodic != null) {
            st.periodic.cancel();
        }
        deleteOwned(ns, name, MirrorMaker2Names.podSetName(name), MirrorMaker2Names.configMapName(name));
    }

    /** A pod became Ready: the roll waiting for it goes on. */
    void onPodReady(String ns, String name, String podName) {
        State st = find(ns, name);
        if (st != null && st.running && podName.equals(st.waitingPod)) {
            st.waitingPod = null;
            ctx.loop().execute(() -> rollNext(st));
        }
    }

    /** Reads the connectors' status of {@code ns/name} again and writes it, unless a reconcile is running. */
    void refreshStatus(String ns, String name) {
        State st = entry(ns, name);
        if (st.running) {
            return;
        }
        if (st.model == null) {
            GenericKubernetesResource mm2 = read(ns, name);
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

    @Override
    void reconcile(State st) {
        GenericKubernetesResource mm2 = begin(st);
        if (mm2 == null) {
            return;
        }
        try {
            st.generation = SimContext.generation(mm2);
            if (SimContext.paused(mm2)) {
                ctx.writeMirrorMakerStatus(mm2, StatusDocuments.paused(mm2, ctx.now()));
                finish(st, st.generation);
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
            writePodSet(mm2, st.model, !rolls());
            rollNext(st);
        } catch (KubernetesClientException e) {
            retry(st, e);
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
     * Handles the next pod of the roll ({@link #rollStep}), pods a manual rolling update asked for counting as not on the
     * target; when none is left, finishes with the connectors.
     */
    private void rollNext(State st) {
        if (!st.running || ctx.loop().closed()) {
            return;
        }
        try {
            MirrorMakerModel m = st.model;
            st.waitingPod = rollStep(st.ns, MirrorMaker2Names.podSetName(st.name), pods(st.ns, st.name), m.replicas(),
                    kubelet::delete, p -> runs(p, m) && !st.manualRoll.contains(p.getMetadata().getUid()),
                    (existing, ordinal) -> replace(st, existing, ordinal));
            if (st.waitingPod != null) {
                return;
            }
            if (!st.manualRoll.isEmpty()) {
                st.manualRoll = Set.of();
                ManualRollingUpdate.end(ctx, st.ns, st.name);
            }
            writePodSetStatus(st.ns, st.name, pods(st.ns, st.name), p -> runs(p, m));
            connectors(st);
        } catch (KubernetesClientException e) {
            retry(st, e);
        }
    }

    /** Deletes pod {@code ordinal} of the roll of {@code st} (when {@code existing}), creates and starts its successor. */
    private void replace(State st, Pod existing, int ordinal) {
        if (existing != null) {
            kubelet.delete(existing);
        }
        Pod created = PodSetController.createPod(ctx, kubelet, st.ns,
                st.model.podTemplate(ordinal, image(read(st.ns, st.name)), !rolls()), MirrorMaker2Names.podSetName(st.name));
        kubelet.start(st.ns, created.getMetadata().getName(), created.getMetadata().getUid());
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
        finish(st, st.generation);
    }

    /** Writes the status from what Kafka Connect reports; reads it again while connectors are still starting. */
    private void writeStatus(State st) {
        GenericKubernetesResource mm2 = read(st.ns, st.name);
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

    @Override
    void ended(State st) {
        st.waitingPod = null;
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
            GenericKubernetesResource mm2 = find(st.ns, st.name) == st ? read(st.ns, st.name) : null;
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
            schedule(entry(ps.getMetadata().getNamespace(), cluster), ctx.settings().reconcileDelay());
        }
    }

    /** Creates the PodSet of {@code mm2}, or updates its templates; {@code noHash} for Strimzi 0.46-0.48. */
    private void writePodSet(GenericKubernetesResource mm2, MirrorMakerModel m, boolean noHash) {
        List<Object> templates = new ArrayList<>();
        for (int i = 0; i < m.replicas(); i++) {
            templates.add(m.podTemplate(i, image(mm2), noHash));
        }
        PodSetController.writePodSet(ctx, mm2.getMetadata().getNamespace(), MirrorMaker2Names.podSetName(m.name()),
                m.selectorLabels(), templates);
    }

    /** Writes the PodSet's {@code status} when it changed; {@code current} tells a pod on the current template. */
    private void writePodSetStatus(String ns, String name, List<Pod> pods, Predicate<Pod> current) {
        GenericKubernetesResource ps = ctx.sps().inNamespace(ns).withName(MirrorMaker2Names.podSetName(name)).get();
        if (ps != null) {
            PodSetController.writeStatus(ctx, ps, pods, current);
        }
    }

    /**
     * A Strimzi 0.46-0.48 operator's start-up, before the cluster serves anyone: each pod carrying a configuration
     * hash (its templates have none, so it is on another revision; Strimzi PR 11926) is replaced by that operator's pod
     * (same name and status) and the templates rewritten to match (docs/domain-rules.md, 7a).
     *
     * @return the pods afterwards
     */
    private List<Pod> replaceHashedPods(GenericKubernetesResource mm2, List<Pod> pods) {
        if (pods.stream().noneMatch(p -> SimContext.annotation(p, Strimzi.CONFIG_HASH_ANNOTATION) != null)) {
            return pods;
        }
        String ns = mm2.getMetadata().getNamespace();
        MirrorMakerModel m = MirrorMakerModel.of(mm2, false);
        writePodSet(mm2, m, true);
        String prefix = MirrorMaker2Names.podSetName(m.name()) + "-";
        List<Pod> out = new ArrayList<>();
        for (Pod p : pods) {
            String name = p.getMetadata().getName();
            if (SimContext.annotation(p, Strimzi.CONFIG_HASH_ANNOTATION) == null || !name.startsWith(prefix)
                    || !name.substring(prefix.length()).matches("\\d+")) {
                out.add(p);
                continue;
            }
            Pod replaced = JsonMaps.convert(m.podTemplate(Integer.parseInt(name.substring(prefix.length())),
                    image(mm2), true), Pod.class);
            replaced.getMetadata().setNamespace(ns);
            replaced.setStatus(p.getStatus());
            ctx.client().pods().inNamespace(ns).withName(name).delete();
            out.add(ctx.client().pods().inNamespace(ns).resource(replaced).create());
        }
        writePodSetStatus(ns, m.name(), out, p -> true);
        return out;
    }

    /** @return the image the operator gives the pods of {@code mm2} (null when gone): Strimzi's Kafka image of its version */
    private String image(GenericKubernetesResource mm2) {
        Object v = mm2 == null ? null : SimContext.spec(mm2).get("version");
        return "quay.io/strimzi/kafka:" + ctx.settings().strimziVersion() + "-kafka-" + (v == null ? "3.9.0" : v);
    }

    /** The pods of a seeded resource: what its spec looked like, and the revision and configuration they run. */
    private record Adopted(String fingerprint, String revision, String fileText) {
    }

    /** Reconcile bookkeeping of one KafkaMirrorMaker2. */
    static final class State extends ConnectFamilyReconciler.Entry {
        Task periodic;
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
            super(ns, name);
        }
    }
}
