package dev.flowform.plan.rules;

import dev.flowform.model.Condition;
import dev.flowform.model.Conditions;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.TaskStatus;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.plan.Readiness;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decides whether the connectors of a KafkaMirrorMaker2 run after a change (rule 8, for MirrorMaker 2's own resource).
 *
 * <p>For the generation {@code G} the change produced: {@code status.observedGeneration >= G} with {@code Ready=True}
 * ({@code NotReady} there is a failure, {@code ReconciliationPaused} an abort), and every connector the spec generates
 * ({@code <source>-><target>.MirrorSourceConnector} and, where the mirror has one, {@code .MirrorCheckpointConnector};
 * Strimzi {@code KafkaMirrorMaker2Connectors}) is listed in {@code status.connectors[]} as {@code RUNNING} with every
 * task {@code RUNNING}. A FAILED task is a failure although the resource is {@code Ready}: Strimzi sets
 * {@code NotReady} only for a FAILED connector (strimzi/strimzi-kafka-operator PR 5733), so task failures have to be
 * read from {@code connectors[].tasks[]}. Pure.
 */
public final class MirrorCheck {

    private MirrorCheck() {
    }

    /**
     * @param m          the KafkaMirrorMaker2 as read
     * @param generation the generation {@code G} the awaited change produced
     * @return complete, in progress (what is missing), failed (the operator's message or the failed task) or paused
     */
    public static Readiness evaluate(LiveMirrorMaker2 m, long generation) {
        return evaluate(m, generation, false);
    }

    /**
     * Like {@link #evaluate(LiveMirrorMaker2, long)}, but FAILED tasks count as in progress while
     * {@code taskFailureMayBeStale}: the status at {@code G} can show a task that failed before the change, which
     * Connect restarts with its new configuration (the same reason as for a KafkaConnector,
     * {@link ConnectorCheck#evaluate(dev.flowform.model.LiveConnector, long, String, boolean)}).
     *
     * @param m                     the KafkaMirrorMaker2 as read
     * @param generation            the generation {@code G} the awaited change produced
     * @param taskFailureMayBeStale true while a FAILED task may predate the change; the caller bounds how long
     * @return complete, in progress, failed or paused
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
        List<String> failed = failedTasks(m);
        boolean connectorFailed = m.connectors().stream().anyMatch(c -> "FAILED".equals(c.state()));
        if (!failed.isEmpty() && taskFailureMayBeStale && !connectorFailed) {
            return new Readiness.InProgress(String.join("; ", failed) + ", possibly before this change (Connect restarts "
                    + "reconfigured tasks): waiting for a later status, " + genText, 0, expected.size());
        }
        if (!failed.isEmpty()) {
            return new Readiness.Failed(String.join("; ", failed) + " while KafkaMirrorMaker2 " + m.name() + " is Ready");
        }
        int running = 0;
        List<String> waiting = new ArrayList<>();
        for (String name : expected) {
            Optional<LiveMirrorMaker2.ConnectorState> s = m.connector(name);
            if (s.isPresent() && "RUNNING".equals(s.get().state())
                    && s.get().tasks().stream().allMatch(t -> "RUNNING".equals(t.state()))) {
                running++;
            } else {
                waiting.add(name + (s.isEmpty() ? " not reported" : " " + s.get().state()));
            }
        }
        if (!waiting.isEmpty()) {
            return new Readiness.InProgress(running + "/" + expected.size() + " connectors RUNNING (" + String.join(", ", waiting)
                    + "), " + genText, running, expected.size());
        }
        return new Readiness.Complete(expected.size() + "/" + expected.size() + " connectors and their tasks RUNNING, "
                + genText + ", Ready");
    }

    /** @return {@code "task <id> of <connector> FAILED"} for every failed task and connector, in status order */
    public static List<String> failedTasks(LiveMirrorMaker2 m) {
        List<String> out = new ArrayList<>();
        for (LiveMirrorMaker2.ConnectorState c : m.connectors()) {
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
