package dev.flowform.plan.rules;

import dev.flowform.model.Condition;
import dev.flowform.model.Conditions;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.plan.Readiness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides whether the connectors of a KafkaMirrorMaker2 run after a change (rule 8 of docs/domain-rules.md):
 * {@code Ready} at the generation and every generated connector in {@code status.connectors[]} in the state its entry
 * asks for; a FAILED task is a failure although the resource is {@code Ready} (Strimzi PR 5733). Pure.
 */
public final class MirrorCheck {

    /** Task states of a task that runs, or is about to run again. */
    private static final java.util.Set<String> ACTIVE = java.util.Set.of("RUNNING", "PAUSED", "RESTARTING");

    private MirrorCheck() {
    }

    /**
     * @return at the generation {@code G} the awaited change produced: complete, in progress (what is missing), failed
     *         (the operator's message or the failed task) or paused
     */
    public static Readiness evaluate(LiveMirrorMaker2 m, long generation) {
        return evaluate(m, generation, false);
    }

    /**
     * Like {@link #evaluate(LiveMirrorMaker2, long)}, but FAILED tasks count as in progress while
     * {@code taskFailureMayBeStale}: the status at {@code G} can show a task that failed before the change, which
     * Connect restarts with its new configuration (the same reason as for a KafkaConnector,
     * {@link ConnectorCheck#evaluate(dev.flowform.model.LiveConnector, long, String, boolean)}). The caller bounds how
     * long a failure may be stale.
     */
    public static Readiness evaluate(LiveMirrorMaker2 m, long generation, boolean taskFailureMayBeStale) {
        if (m.workers().reconciliationPaused()) {
            return new Readiness.Paused("reconciliation of KafkaMirrorMaker2 " + m.name() + " is paused "
                    + "(strimzi.io/pause-reconciliation)");
        }
        Long observed = m.workers().observedGeneration();
        String genText = "observedGeneration " + (observed == null ? "none" : observed) + "/" + generation;
        List<String> expected = expectedConnectors(m);
        if (observed == null || observed < generation) {
            return new Readiness.InProgress("waiting for the operator, " + genText, 0, expected.size());
        }
        Optional<Condition> notReady = Conditions.trueCondition(m.workers().conditions(), "NotReady");
        if (notReady.isPresent()) {
            return new Readiness.Failed("the operator reported NotReady at generation " + observed
                    + (notReady.get().message() == null ? "" : ": " + notReady.get().message()));
        }
        if (!Conditions.isTrue(m.workers().conditions(), "Ready")) {
            return new Readiness.InProgress("waiting for condition Ready, " + genText, 0, expected.size());
        }
        Map<String, String> wanted = expectedStates(m);
        List<String> notStopped = m.connectors().stream().filter(c -> "FAILED".equals(c.state())
                && "STOPPED".equals(wanted.get(c.name()))).map(LiveMirrorMaker2.ConnectorState::name).toList();
        if (!notStopped.isEmpty()) {
            return taskFailureMayBeStale ? new Readiness.InProgress("connector " + String.join(", ", notStopped)
                    + " FAILED, possibly before the stop: waiting for a later status, " + genText, 0, expected.size())
                    : new Readiness.Failed("connector " + String.join(", ", notStopped) + " is FAILED and was not stopped "
                    + "(Strimzi before 1.1.0 does not stop a FAILED connector, whose tasks may still run). Restart it "
                    + "(kubectl annotate kafkamirrormaker2 " + m.name() + " strimzi.io/restart-connector="
                    + notStopped.get(0) + ") and run apply again");
        }
        List<String> failed = failedTasks(m, wanted);
        boolean connectorFailed = m.connectors().stream().anyMatch(c -> "FAILED".equals(c.state()));
        if (!failed.isEmpty() && taskFailureMayBeStale && !connectorFailed) {
            return new Readiness.InProgress(String.join("; ", failed) + ", possibly before this change (Connect restarts "
                    + "reconfigured tasks): waiting for a later status, " + genText, 0, expected.size());
        }
        if (!failed.isEmpty()) {
            return new Readiness.Failed(String.join("; ", failed) + " while KafkaMirrorMaker2 " + m.name() + " is Ready");
        }
        int settled = 0;
        List<String> waiting = new ArrayList<>();
        for (String name : expected) {
            Optional<LiveMirrorMaker2.ConnectorState> s = m.connector(name);
            String want = wanted.getOrDefault(name, "RUNNING");
            if (s.isPresent() && settled(s.get(), want)) {
                settled++;
            } else {
                waiting.add(name + (s.isEmpty() ? " not reported" : " " + s.get().state()
                        + (want.equals("RUNNING") ? "" : ", to be " + want)));
            }
        }
        if (!waiting.isEmpty()) {
            return new Readiness.InProgress(settled + "/" + expected.size() + " connectors as their spec asks ("
                    + String.join(", ", waiting) + "), " + genText, settled, expected.size());
        }
        boolean allRunning = wanted.values().stream().allMatch("RUNNING"::equals);
        return new Readiness.Complete(expected.size() + "/" + expected.size() + " connectors and their tasks "
                + (allRunning ? "RUNNING" : "as their spec asks (" + describe(expected, wanted) + ")") + ", " + genText
                + ", Ready");
    }

    /**
     * @return true when a connector is in the runtime state its spec asks for: RUNNING or PAUSED with every task so, or
     *         STOPPED with no task running (KIP-875: a stopped connector has no task configurations)
     */
    private static boolean settled(LiveMirrorMaker2.ConnectorState s, String want) {
        if (!want.equals(s.state())) {
            return false;
        }
        if ("STOPPED".equals(want)) {
            return s.tasks().stream().noneMatch(t -> ACTIVE.contains(t.state()));
        }
        return s.tasks().stream().allMatch(t -> want.equals(t.state()));
    }

    private static String describe(List<String> names, Map<String, String> wanted) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            out.add(n + " " + wanted.getOrDefault(n, "RUNNING"));
        }
        return String.join(", ", out);
    }

    /**
     * The runtime state the spec asks of each connector: its entry's {@code state} ({@code sourceConnector} or
     * {@code checkpointConnector}, Strimzi 0.38+), else the deprecated {@code pause: true}, else RUNNING.
     *
     * @return connector name to {@code RUNNING}, {@code PAUSED} or {@code STOPPED}
     */
    public static Map<String, String> expectedStates(LiveMirrorMaker2 m) {
        Map<String, String> out = new LinkedHashMap<>();
        for (LiveMirrorMaker2.Mirror mirror : m.mirrors()) {
            out.put(MirrorMaker2Names.sourceConnector(mirror.source(), m.target()), state(mirror.raw().get("sourceConnector")));
            out.put(MirrorMaker2Names.checkpointConnector(mirror.source(), m.target()),
                    state(mirror.raw().get("checkpointConnector")));
        }
        return out;
    }

    private static String state(Object connectorSpec) {
        if (!(connectorSpec instanceof Map<?, ?> spec)) {
            return "RUNNING";
        }
        Object state = spec.get("state");
        if (state == null && Boolean.parseBoolean(String.valueOf(spec.get("pause")))) {
            return "PAUSED";
        }
        return StopBeforeChange.runtimeState(state == null ? null : state.toString());
    }

    /** @return {@code "task <id> of <connector> FAILED"} for every failed task and connector, in status order */
    public static List<String> failedTasks(LiveMirrorMaker2 m) {
        return failedTasks(m, Map.of());
    }

    /** @return the failed tasks and connectors, leaving out those of a connector its spec asks to stop */
    private static List<String> failedTasks(LiveMirrorMaker2 m, Map<String, String> wanted) {
        List<String> out = new ArrayList<>();
        for (LiveMirrorMaker2.ConnectorState c : m.connectors()) {
            if ("STOPPED".equals(wanted.get(c.name()))) {
                continue;
            }
            if ("FAILED".equals(c.state())) {
                out.add("connector " + c.name() + " FAILED");
            }
            for (TaskStatus t : c.tasks()) {
                if ("FAILED".equals(t.state())) {
                    out.add("task " + t.id() + " of " + c.name() + " FAILED");
                }
            }
        }
        return out;
    }

    /** @return the connectors the spec generates, source before checkpoint, in mirror order */
    public static List<String> expectedConnectors(LiveMirrorMaker2 m) {
        List<String> out = new ArrayList<>();
        for (LiveMirrorMaker2.Mirror mirror : m.mirrors()) {
            out.add(MirrorMaker2Names.sourceConnector(mirror.source(), m.target()));
            if (mirror.checkpoint() || !m.v1Layout()) {
                out.add(MirrorMaker2Names.checkpointConnector(mirror.source(), m.target()));
            }
        }
        return out;
    }
}
