package dev.flowform.plan;

import dev.flowform.diag.Diagnostic;
import dev.flowform.diag.Diagnostics;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.ObjectRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Computes the plan that takes the live cluster to the desired state without passing through an
 * unsafe state. Pure function of its inputs: no I/O, no clock.
 *
 * <p>Per Connect cluster it builds one chain of steps (DESIGN.md section 4):
 * <ol>
 *   <li>a missing cluster is created with its final EOS mode directly (rule 2: "For new Connect clusters,
 *       set the exactly.once.source.support property to enabled", Kafka docs {@code connect_exactlyoncesource});</li>
 *   <li>an existing cluster goes {@code disabled → preparing → enabled}, each patch followed by a
 *       {@code WAIT_FOR_ROLL} that implements rule 7, because patching {@code enabled} before every worker rolled
 *       with {@code preparing} lets Strimzi skip the preparing roll (rule 2);</li>
 *   <li>a roll already in progress is waited for first; a cluster whose last reconcile failed
 *       ({@code NotReady} at its generation) or whose reconciliation is paused is refused with a diagnostic;</li>
 *   <li>connector creations and updates come after the last roll to {@code enabled}, because Kafka rejects
 *       {@code exactly.once.support: required} while the validating worker is {@code disabled} or
 *       {@code preparing} (rule 3); each is followed by {@code WAIT_FOR_CONNECTOR_READY} (rule 8);</li>
 *   <li>disabling EOS runs in reverse: connectors first, then the workers (rule 5);</li>
 *   <li>changing only connector configuration never touches the KafkaConnect (no roll).</li>
 * </ol>
 */
public final class Planner {

    /** Label recording which flowform environment created an object, so another environment never deletes it. */
    public static final String ENVIRONMENT_LABEL = "flowform.dev/environment";

    private static final String REQUIRED = "required";

    private Planner() {
    }

    /**
     * Plans one environment.
     *
     * @param desired what the configuration asks for
     * @param live    what the cluster holds (one consistent read)
     * @param request environment name, state reference and timestamp
     * @return the plan; its diagnostics hold refusals (errors) and warnings
     */
    public static Plan plan(DesiredState desired, LiveState live, PlanRequest request) {
        Diagnostics diags = new Diagnostics();
        List<Change> changes = new ArrayList<>();
        List<Step> steps = new ArrayList<>();
        if (live.api() == null) {
            diags.add(Diagnostic.error("Strimzi is not installed",
                    "The Kubernetes API serves no KafkaConnect resource in kafka.strimzi.io/v1 or v1beta2. Install the "
                            + "Strimzi (or Cloudera Streams Messaging) operator and its CRDs first."));
            return new Plan(Plan.FORMAT_VERSION, request.environment(), request.now(), request.basedOn(),
                    live.fingerprints(), changes, steps, diags.list());
        }
        List<DesiredConnectCluster> clusters = new ArrayList<>(desired.clusters());
        clusters.sort(Comparator.comparing(DesiredConnectCluster::address));
        for (DesiredConnectCluster dc : clusters) {
            new ClusterPlanner(desired, live, dc, request.environment(), changes, steps, diags).plan();
        }
        changes.sort(Comparator.comparing(Change::address));
        return new Plan(Plan.FORMAT_VERSION, request.environment(), request.now(), request.basedOn(),
                live.fingerprints(), changes, steps, diags.list());
    }

    /** Plans one Connect cluster and the flows on it. */
    private static final class ClusterPlanner {
        private final DesiredState desired;
        private final LiveState live;
        private final DesiredConnectCluster dc;
        private final String environment;
        private final List<Change> changes;
        private final List<Step> steps;
        private final Diagnostics diags;
        private final ObjectRef ref;
        private Integer previous;

        ClusterPlanner(DesiredState desired, LiveState live, DesiredConnectCluster dc, String environment,
                       List<Change> changes, List<Step> steps, Diagnostics diags) {
            this.desired = desired;
            this.live = live;
            this.dc = dc;
            this.environment = environment;
            this.changes = changes;
            this.steps = steps;
            this.diags = diags;
            this.ref = new ObjectRef(live.api().kafkaApiVersion(), "KafkaConnect", dc.namespace(), dc.name());
        }

        void plan() {
            List<DesiredFlow> flows = desired.flowsOn(dc);
            Optional<LiveConnectCluster> found = live.cluster(dc.namespace(), dc.name());
            if (found.isEmpty()) {
                planNewCluster(flows);
                return;
            }
            LiveConnectCluster c = found.get();
            ObjectRef liveRef = c.ref();
            Optional<EosMode> parsed = c.eosMode();
            if (parsed.isEmpty()) {
                refuse("Unknown exactly.once.source.support value",
                        "KafkaConnect " + liveRef.namespace() + "/" + liveRef.name() + " sets exactly.once.source.support to \""
                                + c.eosValue() + "\"; Kafka accepts disabled, preparing or enabled. Fix it by hand first.");
                return;
            }
            EosMode current = parsed.get();
            if (c.reconciliationPaused()) {
                refuse("Reconciliation is paused",
                        "KafkaConnect " + liveRef.namespace() + "/" + liveRef.name() + " has strimzi.io/pause-reconciliation; "
                                + "the operator would not roll the workers. Remove the annotation, then plan again.");
                return;
            }
            Readiness roll = RollCheck.evaluate(c, c.generation(), current);
            if (roll instanceof Readiness.Failed f) {
                refuse("The last reconcile of the Connect cluster failed",
                        "KafkaConnect " + liveRef.namespace() + "/" + liveRef.name() + ": " + f.detail()
                                + ". flowform does not pile a new change on top of a failed one; fix the cause and "
                                + "let the operator reconcile, then plan again.");
                return;
            }
            List<FieldEdit> clusterEdits = new ArrayList<>();
            List<AttributeChange> clusterAttrs = new ArrayList<>();
            clusterEdits(c, clusterEdits, clusterAttrs);
            boolean annotate = !c.usesConnectorResources();
            List<EosMode> path = eosPath(current, dc.eos());
            List<ConnectorWork> work = connectorWork(flows, dc.eos());
            if (path.isEmpty() && clusterEdits.isEmpty() && !annotate && work.isEmpty()) {
                return;
            }
            if (!path.isEmpty() || !clusterEdits.isEmpty() || annotate) {
                List<AttributeChange> attrs = new ArrayList<>();
                if (annotate) {
                    attrs.add(new AttributeChange("metadata.annotations.\"" + LiveConnectCluster.CONNECTOR_RESOURCES_ANNOTATION
                            + "\"", null, "\"true\"", false));
                }
                if (!path.isEmpty()) {
                    attrs.add(new AttributeChange("spec.config.\"" + EosMode.CONFIG_KEY + "\"",
                            c.eosValue() == null ? null : quote(c.eosValue()), quote(dc.eos().value()), false));
                }
                attrs.addAll(clusterAttrs);
                changes.add(new Change(dc.address(), liveRef, Action.UPDATE, attrs, clusterReason(current, path, annotate)));
            }
            if (annotate) {
                diags.add(Diagnostic.warning("Enabling KafkaConnector resources on an existing cluster",
                        "KafkaConnect " + liveRef.namespace() + "/" + liveRef.name() + " lacks annotation "
                                + LiveConnectCluster.CONNECTOR_RESOURCES_ANNOTATION + "=\"true\". Once flowform adds it, "
                                + "the Strimzi operator deletes every connector running in this Connect cluster that "
                                + "has no KafkaConnector resource (Strimzi reconcileConnectors).").withAddress(dc.address()));
                add(StepKind.ANNOTATE, dc.address(), liveRef,
                        new StepPayload.PatchObject(List.of(FieldEdit.set(List.of("metadata", "annotations",
                                LiveConnectCluster.CONNECTOR_RESOURCES_ANNOTATION), "true", false))),
                        LiveConnectCluster.CONNECTOR_RESOURCES_ANNOTATION + " = \"true\"");
            }
            if (!roll.isComplete()) {
                add(StepKind.WAIT_FOR_ROLL, dc.address(), liveRef,
                        new StepPayload.WaitForRoll(current, c.generation()),
                        "wait for the roll already in progress (generation " + c.generation() + ", " + roll.detail() + ")");
            }
            boolean upgrade = dc.eos().ordinal() > current.ordinal();
            if (!upgrade) {
                emitConnectorSteps(work);
            }
            if (!path.isEmpty()) {
                for (int i = 0; i < path.size(); i++) {
                    EosMode mode = path.get(i);
                    List<FieldEdit> edits = new ArrayList<>();
                    edits.add(FieldEdit.set(List.of("spec", "config", EosMode.CONFIG_KEY), mode.value(), false));
                    if (i == 0) {
                        edits.addAll(clusterEdits);
                    }
                    add(StepKind.SET_WORKER_EOS, dc.address(), liveRef, new StepPayload.SetWorkerEos(mode, edits),
                            EosMode.CONFIG_KEY + " = " + mode.value()
                                    + (i == 0 && !clusterEdits.isEmpty() ? " (with " + clusterEdits.size() + " more spec change(s))" : ""));
                    add(StepKind.WAIT_FOR_ROLL, dc.address(), liveRef, new StepPayload.WaitForRoll(mode, null),
                            "wait until every worker has restarted with " + EosMode.CONFIG_KEY + "=" + mode.value());
                }
            } else if (!clusterEdits.isEmpty()) {
                add(StepKind.UPDATE_CONNECT_CLUSTER, dc.address(), liveRef, new StepPayload.PatchObject(clusterEdits),
                        clusterEdits.size() + " spec change(s)");
                add(StepKind.WAIT_FOR_ROLL, dc.address(), liveRef, new StepPayload.WaitForRoll(current, null),
                        "wait until every worker has restarted with the new spec");
            }
            if (upgrade) {
                emitConnectorSteps(work);
            }
        }

        private void planNewCluster(List<DesiredFlow> flows) {
            if (dc.manage() == ManageMode.ADOPT) {
                diags.add(Diagnostic.error("Adopted Connect cluster not found",
                        "connect_cluster \"" + dc.name() + "\" has manage = \"adopt\", but KafkaConnect " + dc.namespace() + "/"
                                + dc.name() + " does not exist. Check the name and namespace, or use manage = \"own\" to "
                                + "let flowform create it.", dc.range()).withAddress(dc.address()));
                return;
            }
            Map<String, Object> manifest = connectManifest();
            List<AttributeChange> attrs = new ArrayList<>();
            flatten("", manifest, attrs, dc::isSensitive);
            changes.add(new Change(dc.address(), ref, Action.CREATE, attrs,
                    "KafkaConnect " + dc.namespace() + "/" + dc.name() + " does not exist; a new cluster starts with "
                            + EosMode.CONFIG_KEY + "=" + dc.eos().value() + " directly (KIP-618)"));
            add(StepKind.CREATE_CONNECT_CLUSTER, dc.address(), ref,
                    new StepPayload.CreateObject(manifest, sensitiveConfigKeys(dc.config().keySet())),
                    "create KafkaConnect " + dc.name() + " with " + EosMode.CONFIG_KEY + "=" + dc.eos().value());
            add(StepKind.WAIT_FOR_ROLL, dc.address(), ref, new StepPayload.WaitForRoll(dc.eos(), null),
                    "wait until every worker is up with " + EosMode.CONFIG_KEY + "=" + dc.eos().value());
            emitConnectorSteps(connectorWork(flows, dc.eos()));
        }

        private Set<String> sensitiveConfigKeys(Set<String> keys) {
            Set<String> s = new HashSet<>();
            for (String k : keys) {
                if (dc.isSensitive(k)) {
                    s.add(k);
                }
            }
            return s;
        }

        private void refuse(String summary, String detail) {
            diags.add(new Diagnostic(dev.flowform.diag.Severity.ERROR, summary, detail, null, dc.address()));
        }

        private String clusterReason(EosMode current, List<EosMode> path, boolean annotate) {
            if (path.size() == 2) {
                return "exactly-once rollout of an existing cluster: " + path.get(0).value() + ", rolling restart, "
                        + path.get(1).value() + ", rolling restart (KIP-618)";
            }
            if (path.size() == 1) {
                return EosMode.CONFIG_KEY + " " + current.value() + " -> " + path.get(0).value() + ", one rolling restart";
            }
            return annotate ? "enable KafkaConnector resources" : "spec changed; one rolling restart";
        }

        /** The non-EOS spec edits the desired cluster asks for. */
        private void clusterEdits(LiveConnectCluster c, List<FieldEdit> edits, List<AttributeChange> attrs) {
            for (Map.Entry<String, String> e : dc.config().entrySet()) {
                if (e.getKey().equals(EosMode.CONFIG_KEY)) {
                    continue;
                }
                String lv = c.config().get(e.getKey());
                if (!e.getValue().equals(lv)) {
                    boolean s = dc.isSensitive(e.getKey());
                    edits.add(FieldEdit.set(List.of("spec", "config", e.getKey()), e.getValue(), s));
                    attrs.add(new AttributeChange("spec.config." + quote(e.getKey()), lv == null ? null : quote(lv),
                            quote(e.getValue()), s));
                }
            }
            specField(c, "replicas", dc.replicas(), edits, attrs);
            specField(c, "version", dc.version(), edits, attrs);
            specField(c, "bootstrapServers", dc.bootstrapServers(), edits, attrs);
            for (Map.Entry<String, Object> e : dc.spec().entrySet()) {
                specField(c, e.getKey(), e.getValue(), edits, attrs);
            }
            if (dc.manage() == ManageMode.OWN) {
                for (Map.Entry<String, String> e : c.config().entrySet()) {
                    if (!e.getKey().equals(EosMode.CONFIG_KEY) && !dc.config().containsKey(e.getKey())) {
                        boolean s = dc.isSensitive(e.getKey());
                        edits.add(FieldEdit.remove(List.of("spec", "config", e.getKey()), s));
                        attrs.add(new AttributeChange("spec.config." + quote(e.getKey()), quote(e.getValue()), null, s));
                    }
                }
                Set<String> declared = new HashSet<>(dc.spec().keySet());
                declared.addAll(List.of("replicas", "version", "bootstrapServers", "config"));
                for (Map.Entry<String, Object> e : c.spec().entrySet()) {
                    if (!declared.contains(e.getKey())) {
                        edits.add(FieldEdit.remove(List.of("spec", e.getKey()), false));
                        attrs.add(new AttributeChange("spec." + e.getKey(), Json.render(e.getValue()), null, false));
                    }
                }
            }
        }

        private void specField(LiveConnectCluster c, String field, Object want, List<FieldEdit> edits,
                               List<AttributeChange> attrs) {
            if (want == null) {
                return;
            }
            Object have = c.spec().get(field);
            if (!Json.sameValue(want, have)) {
                edits.add(FieldEdit.set(List.of("spec", field), want, false));
                attrs.add(new AttributeChange("spec." + field, have == null ? null : Json.render(have), Json.render(want), false));
            }
        }

        private Map<String, Object> connectManifest() {
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("name", dc.name());
            metadata.put("namespace", dc.namespace());
            metadata.put("labels", labels(Map.of()));
            metadata.put("annotations", Map.of(LiveConnectCluster.CONNECTOR_RESOURCES_ANNOTATION, "true"));
            Map<String, Object> spec = new LinkedHashMap<>();
            if (dc.version() != null) {
                spec.put("version", dc.version());
            }
            if (dc.replicas() != null) {
                spec.put("replicas", dc.replicas());
            }
            if (dc.bootstrapServers() != null) {
                spec.put("bootstrapServers", dc.bootstrapServers());
            }
            spec.putAll(dc.spec());
            Map<String, Object> config = new LinkedHashMap<>(dc.config());
            config.put(EosMode.CONFIG_KEY, dc.eos().value());
            spec.put("config", config);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("apiVersion", ref.apiVersion());
            m.put("kind", "KafkaConnect");
            m.put("metadata", metadata);
            m.put("spec", spec);
            return m;
        }

        private Map<String, Object> labels(Map<String, String> extra) {
            Map<String, Object> labels = new LinkedHashMap<>(extra);
            labels.put(LiveConnector.MANAGED_BY_LABEL, LiveConnector.MANAGED_BY_VALUE);
            labels.put(ENVIRONMENT_LABEL, environment);
            return labels;
        }

        /** What has to happen to the connectors of the flows on this cluster. */
        private List<ConnectorWork> connectorWork(List<DesiredFlow> flows, EosMode clusterTarget) {
            List<ConnectorWork> work = new ArrayList<>();
            Set<String> wanted = new HashSet<>();
            for (DesiredFlow flow : flows) {
                for (DesiredConnector d : flow.connectors()) {
                    wanted.add(d.name());
                    if (REQUIRED.equalsIgnoreCase(d.config().get("exactly.once.support")) && clusterTarget != EosMode.ENABLED) {
                        diags.add(Diagnostic.error("Connector requires exactly-once support the workers will not have",
                                d.address() + " sets exactly.once.support=required but connect_cluster \"" + dc.name()
                                        + "\" ends at exactly.once.source.support=" + clusterTarget.value()
                                        + "; Kafka rejects it (\"This worker does not have exactly-once source support "
                                        + "enabled.\").", flow.range()).withAddress(d.address()));
                        continue;
                    }
                    if (d.role() != ConnectorRole.SOURCE && REQUIRED.equalsIgnoreCase(d.config().get("exactly.once.support"))) {
                        diags.add(Diagnostic.error("exactly.once.support=required on a " + d.role().suffix() + " connector",
                                d.address() + ": Mirror" + (d.role() == ConnectorRole.CHECKPOINT ? "Checkpoint" : "Heartbeat")
                                        + "Connector does not implement KIP-618's preflight API, so Kafka rejects "
                                        + "\"required\". Only the source connector takes it.", flow.range())
                                .withAddress(d.address()));
                        continue;
                    }
                    if (d.exactlyOnce() && d.role() == ConnectorRole.SOURCE
                            && !"read_committed".equals(d.config().get("source.consumer.isolation.level"))) {
                        diags.add(Diagnostic.error("Exactly-once flow without read_committed",
                                d.address() + ": with exactly_once the MirrorSourceConnector's source consumer must use "
                                        + "isolation.level=read_committed; otherwise records of aborted transactions are "
                                        + "replicated as committed, and Kafka rejects exactly.once.support=required.",
                                flow.range()).withAddress(d.address()));
                        continue;
                    }
                    Optional<LiveConnector> lc = live.connector(d.namespace(), d.name());
                    if (lc.isEmpty()) {
                        if (d.manage() == ManageMode.ADOPT) {
                            diags.add(Diagnostic.error("Adopted connector not found",
                                    flow.address() + " has manage = \"adopt\", but KafkaConnector " + d.namespace() + "/"
                                            + d.name() + " does not exist. Check the flow name, or use manage = \"own\" "
                                            + "to let flowform create it.", flow.range()).withAddress(d.address()));
                            continue;
                        }
                        work.add(ConnectorWork.create(d, connectorManifest(d)));
                        continue;
                    }
                    LiveConnector l = lc.get();
                    if (!dc.name().equals(l.connectCluster())) {
                        diags.add(Diagnostic.error("Connector belongs to another Connect cluster",
                                "KafkaConnector " + d.namespace() + "/" + d.name() + " is labelled strimzi.io/cluster="
                                        + l.connectCluster() + ", but " + flow.address() + " runs on \"" + dc.name()
                                        + "\". Moving a connector between clusters is not supported; rename the flow.",
                                flow.range()).withAddress(d.address()));
                        continue;
                    }
                    List<FieldEdit> edits = new ArrayList<>();
                    List<AttributeChange> attrs = new ArrayList<>();
                    connectorEdits(d, l, edits, attrs);
                    if (!edits.isEmpty()) {
                        work.add(ConnectorWork.update(d, l, edits, attrs));
                    }
                }
            }
            for (LiveConnector l : live.connectorsOf(dc.namespace(), dc.name())) {
                if (!wanted.contains(l.name()) && l.managedByFlowform()
                        && environment.equals(l.labels().get(ENVIRONMENT_LABEL))) {
                    work.add(ConnectorWork.delete(l));
                }
            }
            return work;
        }

        private void connectorEdits(DesiredConnector d, LiveConnector l, List<FieldEdit> edits, List<AttributeChange> attrs) {
            for (Map.Entry<String, String> e : d.config().entrySet()) {
                String lv = l.config().get(e.getKey());
                if (!e.getValue().equals(lv)) {
                    boolean s = d.isSensitive(e.getKey());
                    edits.add(FieldEdit.set(List.of("spec", "config", e.getKey()), e.getValue(), s));
                    attrs.add(new AttributeChange("spec.config." + quote(e.getKey()), lv == null ? null : quote(lv),
                            quote(e.getValue()), s));
                }
            }
            Set<String> remove = new java.util.TreeSet<>();
            for (String k : d.absentKeys()) {
                String lv = l.config().get(k);
                // exactly.once.support=requested is Kafka's default: the same as unset.
                if (lv != null && !("exactly.once.support".equals(k) && "requested".equalsIgnoreCase(lv))) {
                    remove.add(k);
                }
            }
            if (d.manage() == ManageMode.OWN) {
                for (String k : l.config().keySet()) {
                    if (!d.config().containsKey(k)) {
                        remove.add(k);
                    }
                }
            }
            for (String k : remove) {
                boolean s = d.isSensitive(k);
                edits.add(FieldEdit.remove(List.of("spec", "config", k), s));
                attrs.add(new AttributeChange("spec.config." + quote(k), quote(l.config().get(k)), null, s));
            }
            if (d.tasksMax() != null && !d.tasksMax().equals(l.tasksMax())) {
                edits.add(FieldEdit.set(List.of("spec", "tasksMax"), d.tasksMax(), false));
                attrs.add(new AttributeChange("spec.tasksMax", l.tasksMax() == null ? null : l.tasksMax().toString(),
                        d.tasksMax().toString(), false));
            }
            if (d.state() != null && !d.state().equals(l.state() == null ? "running" : l.state())) {
                edits.add(FieldEdit.set(List.of("spec", "state"), d.state(), false));
                attrs.add(new AttributeChange("spec.state", l.state() == null ? null : quote(l.state()), quote(d.state()), false));
            }
            if (!d.className().equals(l.className())) {
                edits.add(FieldEdit.set(List.of("spec", "class"), d.className(), false));
                attrs.add(new AttributeChange("spec.class", l.className() == null ? null : quote(l.className()),
                        quote(d.className()), false));
            }
        }

        private Map<String, Object> connectorManifest(DesiredConnector d) {
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("name", d.name());
            metadata.put("namespace", d.namespace());
            metadata.put("labels", labels(Map.of(LiveConnector.CLUSTER_LABEL, dc.name())));
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("class", d.className());
            if (d.tasksMax() != null) {
                spec.put("tasksMax", d.tasksMax());
            }
            if (d.state() != null) {
                spec.put("state", d.state());
            }
            spec.put("config", new LinkedHashMap<String, Object>(d.config()));
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("apiVersion", live.api().kafkaApiVersion());
            m.put("kind", "KafkaConnector");
            m.put("metadata", metadata);
            m.put("spec", spec);
            return m;
        }

        private void emitConnectorSteps(List<ConnectorWork> work) {
            for (ConnectorWork w : work) {
                switch (w.action()) {
                    case CREATE -> {
                        List<AttributeChange> attrs = new ArrayList<>();
                        flatten("", w.manifest(), attrs, w.desired()::isSensitive);
                        changes.add(new Change(w.address(), w.ref(), Action.CREATE, attrs,
                                "KafkaConnector " + w.ref().namespace() + "/" + w.ref().name() + " does not exist"));
                        Set<String> sensitive = new HashSet<>();
                        for (String k : w.desired().config().keySet()) {
                            if (w.desired().isSensitive(k)) {
                                sensitive.add(k);
                            }
                        }
                        add(StepKind.CREATE_CONNECTOR, w.address(), w.ref(), new StepPayload.CreateObject(w.manifest(), sensitive),
                                "create " + w.desired().role().connectorClass().substring("org.apache.kafka.connect.mirror.".length())
                                        + " " + w.ref().name());
                        add(StepKind.WAIT_FOR_CONNECTOR_READY, w.address(), w.ref(),
                                new StepPayload.WaitForConnector(w.desired().expectedRuntimeState(), null),
                                "wait until " + w.ref().name() + " and its tasks are " + w.desired().expectedRuntimeState());
                    }
                    case UPDATE -> {
                        changes.add(new Change(w.address(), w.ref(), Action.UPDATE, w.attrs(), updateReason(w)));
                        add(StepKind.UPDATE_CONNECTOR, w.address(), w.ref(), new StepPayload.PatchObject(w.edits()),
                                editSummary(w.edits()));
                        add(StepKind.WAIT_FOR_CONNECTOR_READY, w.address(), w.ref(),
                                new StepPayload.WaitForConnector(w.desired().expectedRuntimeState(), null),
                                "wait until " + w.ref().name() + " and its tasks are " + w.desired().expectedRuntimeState());
                    }
                    case DELETE -> {
                        changes.add(new Change(w.address(), w.ref(), Action.DELETE, List.of(),
                                "no replication flow in the configuration produces it (created by flowform in environment \""
                                        + environment + "\")"));
                        add(StepKind.DELETE_CONNECTOR, w.address(), w.ref(), new StepPayload.DeleteObject(),
                                "delete KafkaConnector " + w.ref().name());
                    }
                    default -> throw new IllegalStateException("no step for " + w.action());
                }
            }
        }

        private String updateReason(ConnectorWork w) {
            boolean eos = w.edits().stream().anyMatch(e -> e.key().equals("exactly.once.support")
                    || e.key().equals("source.consumer.isolation.level") || e.key().equals("transaction.boundary"));
            if (eos && w.desired().exactlyOnce()) {
                return "exactly-once for the flow's source connector: read_committed source consumer and "
                        + "exactly.once.support=required, after every worker runs with enabled";
            }
            return "connector configuration differs from " + w.desired().flowAddress();
        }

        private void add(StepKind kind, String address, ObjectRef object, StepPayload payload, String summary) {
            int id = steps.size() + 1;
            steps.add(new Step(id, kind, address, object, previous == null ? List.of() : List.of(previous), payload, summary));
            previous = id;
        }
    }

    /** EOS modes to set, in order, to get from {@code current} to {@code target} (rules 2 and 5). */
    static List<EosMode> eosPath(EosMode current, EosMode target) {
        if (current == target) {
            return List.of();
        }
        if (current == EosMode.DISABLED && target == EosMode.ENABLED) {
            return List.of(EosMode.PREPARING, EosMode.ENABLED);
        }
        return List.of(target);
    }

    private static String editSummary(List<FieldEdit> edits) {
        List<String> parts = new ArrayList<>();
        for (FieldEdit e : edits) {
            String name = e.path().get(e.path().size() - 1);
            if (e.remove()) {
                parts.add("remove " + name);
            } else {
                parts.add(name + "=" + (e.sensitive() ? dev.flowform.model.SecretKeys.MASK : String.valueOf(e.value())));
            }
        }
        return String.join(", ", parts);
    }

    static String quote(String s) {
        return Json.render(s);
    }

    private static final Set<String> IDENTITY_FIELDS = Set.of("apiVersion", "kind", "metadata.name", "metadata.namespace");

    /** Flattens a manifest into display attributes: {@code spec.config."k" = "v"}. */
    static void flatten(String prefix, Map<String, Object> m, List<AttributeChange> out,
                        java.util.function.Predicate<String> sensitiveConfigKey) {
        for (Map.Entry<String, Object> e : m.entrySet()) {
            String key = e.getKey();
            String full = prefix.isEmpty() ? key : prefix + "." + key;
            if (IDENTITY_FIELDS.contains(full)) {
                continue; // shown in the change's header line
            }
            String path = prefix.isEmpty() ? key : prefix + "." + (key.matches("[A-Za-z0-9_]+") ? key : quote(key));
            if (e.getValue() instanceof Map<?, ?> sub && !sub.isEmpty()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> typed = (Map<String, Object>) sub;
                flatten(path, typed, out, sensitiveConfigKey);
            } else {
                boolean s = prefix.equals("spec.config") && sensitiveConfigKey.test(key);
                out.add(new AttributeChange(path, null, Json.render(e.getValue()), s));
            }
        }
    }

    /** One connector's pending work. */
    private record ConnectorWork(Action action, String address, ObjectRef ref, DesiredConnector desired,
                                 Map<String, Object> manifest, List<FieldEdit> edits, List<AttributeChange> attrs) {
        static ConnectorWork create(DesiredConnector d, Map<String, Object> manifest) {
            return new ConnectorWork(Action.CREATE, d.address(),
                    new ObjectRef((String) manifest.get("apiVersion"), "KafkaConnector", d.namespace(), d.name()),
                    d, manifest, List.of(), List.of());
        }

        static ConnectorWork update(DesiredConnector d, LiveConnector l, List<FieldEdit> edits, List<AttributeChange> attrs) {
            return new ConnectorWork(Action.UPDATE, d.address(), l.ref(), d, null, edits, attrs);
        }

        static ConnectorWork delete(LiveConnector l) {
            return new ConnectorWork(Action.DELETE, "kafka_connector." + l.name(), l.ref(), null, null, List.of(), List.of());
        }
    }
}
