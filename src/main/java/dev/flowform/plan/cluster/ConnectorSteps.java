package dev.flowform.plan.cluster;

import dev.flowform.model.EosMode;
import dev.flowform.model.SecretKeys;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.ChangeReason;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Json;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.plan.rules.ConnectorRules;
import dev.flowform.plan.rules.StopBeforeChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The steps of a KafkaConnect's connectors, each a KafkaConnector of its own: a create, an update (one write, or stop,
 * reconfigure, start for a change of a source connector's exactly-once keys, docs/domain-rules.md 8b) or a delete, each
 * write followed by a wait for the connector (rule 8) unless the cluster has no worker; in a lane of its own from
 * Kafka 3.6 ({@link StepSequencer#concurrentConnectors}, rule 8a). Pure.
 */
final class ConnectorSteps {

    private static final String MIRROR_PACKAGE = "org.apache.kafka.connect.mirror.";
    private static final List<String> STATE_PATH = List.of("spec", "state");
    private static final List<String> MARK_PATH = List.of("metadata", "annotations", StopBeforeChange.RESUME_ANNOTATION);

    private ConnectorSteps() {
    }

    /** @param mode the workers' mode when the steps run */
    static void add(StepSequencer s, ConnectKind kind, EosMode mode) {
        for (ConnectorWork w : kind.work()) {
            switch (w.action()) {
                case CREATE -> {
                    s.change(new Change(w.address(), w.ref(), Action.CREATE,
                            AttributeChange.ofManifest(w.manifest(), w.desired()::isSensitive),
                            ChangeReason.CONNECTOR_MISSING.of(w.ref().namespace() + "/" + w.ref().name())));
                    Set<String> sensitive = new TreeSet<>(w.desired().config().keySet().stream()
                            .filter(w.desired()::isSensitive).toList());
                    s.add(new Draft(StepKind.CREATE_CONNECTOR, w.address(), w.ref(),
                            new StepPayload.CreateObject(w.manifest(), sensitive), "create "
                            + w.desired().role().connectorClass().substring(MIRROR_PACKAGE.length()) + " " + w.ref().name(),
                            lane(s, w)));
                    waitFor(s, w);
                }
                case UPDATE -> update(s, w, mode);
                case DELETE -> {
                    s.change(new Change(w.address(), w.ref(), Action.DELETE, List.of(),
                            ChangeReason.NO_FLOW.of(s.facts().scope().environment())));
                    s.add(new Draft(StepKind.DELETE_CONNECTOR, w.address(), w.ref(), new StepPayload.DeleteObject(),
                            "delete KafkaConnector " + w.ref().name(), lane(s, w)));
                }
                default -> throw new IllegalStateException("no step for " + w.action());
            }
        }
    }

    /**
     * A connector update: one write, or, when {@link StopBeforeChange#lane} says so, a stop (with the mark of the state
     * to return to) and its wait, then the write of the configuration with that state (the mark removed).
     */
    private static void update(StepSequencer s, ConnectorWork w, EosMode atStep) {
        ClusterFacts facts = s.facts();
        boolean liveAccepted = !w.liveRequiresEos() || atStep == EosMode.ENABLED;
        StopBeforeChange.Lane how = StopBeforeChange.lane(w.diff().edits(), w.liveState(), w.resumeMark(), w.targetState(),
                StopBeforeChange.canStop(w.desired().role(), facts.kafkaVersion(), facts.replicas(), liveAccepted));
        List<Change.Reason> reasons = new ArrayList<>();
        if (!w.diff().isEmpty()) {
            reasons.add(updateReason(w));
        }
        if (how == StopBeforeChange.Lane.PLAIN) {
            s.change(new Change(w.address(), w.ref(), Action.UPDATE, w.diff().attrs(), reasons));
            s.add(new Draft(StepKind.UPDATE_CONNECTOR, w.address(), w.ref(),
                    new StepPayload.PatchObject(w.diff().edits()), editSummary(w.diff().edits()), lane(s, w)));
            waitFor(s, w);
            return;
        }
        String name = w.ref().name();
        List<FieldEdit> edits = new ArrayList<>(w.diff().edits().stream()
                .filter(e -> !e.path().equals(STATE_PATH)).toList());
        List<AttributeChange> attrs = new ArrayList<>(w.diff().attrs());
        if (how == StopBeforeChange.Lane.STOP_FIRST) {
            reasons.add(ChangeReason.STOP_START.of());
            s.add(new Draft(StepKind.STOP_CONNECTOR, w.address(), w.ref(), new StepPayload.PatchObject(List.of(
                    FieldEdit.set(STATE_PATH, StopBeforeChange.STOPPED, false),
                    FieldEdit.set(MARK_PATH, w.targetState(), false))),
                    "stop " + name + " (spec.state: stopped): Kafka Connect drops the tasks of its current configuration",
                    lane(s, w)));
        } else {
            reasons.add(ChangeReason.RESUME_STOPPED.of(w.targetState()));
            if (attrs.stream().noneMatch(a -> a.path().equals("spec.state"))) {
                attrs.add(new AttributeChange("spec.state", Json.render(StopBeforeChange.STOPPED),
                        Json.render(w.targetState()), false));
            }
        }
        if (facts.replicas() > 0 && !(how == StopBeforeChange.Lane.ALREADY_STOPPED && w.seenStopped())) {
            s.add(new Draft(StepKind.WAIT_FOR_CONNECTOR_READY, w.address(), w.ref(),
                    new StepPayload.WaitForConnector("STOPPED", null), "wait until " + name
                    + " is STOPPED and none of its tasks runs", lane(s, w)));
        }
        s.change(new Change(w.address(), w.ref(), Action.UPDATE, attrs, reasons));
        edits.add(FieldEdit.set(STATE_PATH, w.targetState(), false));
        edits.add(FieldEdit.remove(MARK_PATH, false));
        String what = editSummary(w.diff().edits().stream().filter(e -> !e.path().equals(STATE_PATH)).toList());
        s.add(new Draft(StepKind.UPDATE_CONNECTOR, w.address(), w.ref(), new StepPayload.PatchObject(edits),
                (what.isEmpty() ? "" : what + ", ") + "then start " + name + " (spec.state: " + w.targetState() + ")",
                lane(s, w)));
        waitFor(s, w);
    }

    private static void waitFor(StepSequencer s, ConnectorWork w) {
        if (s.facts().replicas() == 0) {
            return;
        }
        s.add(new Draft(StepKind.WAIT_FOR_CONNECTOR_READY, w.address(), w.ref(),
                new StepPayload.WaitForConnector(w.expectedState(), null), "wait until " + w.ref().name()
                + (w.expectedState().equals("STOPPED") ? " is " : " and its tasks are ") + w.expectedState(), lane(s, w)));
    }

    /** @return the connector's lane when the cluster's connectors run concurrently, else null (the chain) */
    private static String lane(StepSequencer s, ConnectorWork w) {
        return s.lane(w.address());
    }

    private static Change.Reason updateReason(ConnectorWork w) {
        List<FieldEdit> edits = w.diff().edits();
        boolean eos = edits.stream().anyMatch(e -> e.key().equals(ConnectorRules.EXACTLY_ONCE_SUPPORT)
                || e.key().equals(ConnectorRules.SOURCE_ISOLATION_LEVEL) || e.key().equals(ConnectorRules.TRANSACTION_BOUNDARY));
        if (eos && w.desired().exactlyOnce()) {
            return ChangeReason.CONNECTOR_EOS_ON.of();
        }
        if (eos && edits.stream().anyMatch(e -> e.key().equals(ConnectorRules.EXACTLY_ONCE_SUPPORT) && e.remove())) {
            return ChangeReason.CONNECTOR_EOS_OFF.of();
        }
        return ChangeReason.CONNECTOR_CONFIG.of(w.desired().flowAddress());
    }

    private static String editSummary(List<FieldEdit> edits) {
        List<String> parts = new ArrayList<>();
        for (FieldEdit e : edits) {
            String name = e.path().get(e.path().size() - 1);
            parts.add(e.remove() ? "remove " + name
                    : name + "=" + (e.sensitive() ? SecretKeys.MASK : String.valueOf(e.value())));
        }
        return String.join(", ", parts);
    }
}
