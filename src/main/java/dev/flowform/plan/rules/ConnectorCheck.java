package dev.flowform.plan.rules;

import dev.flowform.model.Condition;
import dev.flowform.model.Conditions;
import dev.flowform.model.ConnectorRole;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.TaskStatus;
import dev.flowform.plan.Readiness;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a KafkaConnector change has settled (rule 8 of docs/domain-rules.md): {@code Ready} at the
 * generation and the connector and every task in the expected state ({@code STOPPED}: no task running, KIP-875);
 * Ready alone is not trusted (strimzi/strimzi-kafka-operator#6624). A running connector needs a task, except a
 * {@code MirrorCheckpointConnector}, which runs with none until a matching group exists.
 */
public final class ConnectorCheck {

    private static final int TRACE_HEAD_CHARS = 400;
    /** Task states of a task that runs, or is about to run again. */
    private static final Set<String> ACTIVE = Set.of("RUNNING", "PAUSED", "RESTARTING");

    private ConnectorCheck() {
    }

    /**
     * @param generation    the generation {@code G} the awaited change produced
     * @param expectedState {@code RUNNING}, {@code PAUSED} or {@code STOPPED}
     * @return complete, in progress, or failed with the connector's or task's trace head
     */
    public static Readiness evaluate(LiveConnector c, long generation, String expectedState) {
        return evaluate(c, generation, expectedState, false);
    }

    /**
     * Like {@link #evaluate(LiveConnector, long, String)}, but a FAILED task of a connector that is not itself FAILED
     * counts as in progress while {@code taskFailureMayBeStale}: the operator's first status at {@code G} may show a
     * task that failed before the change, which Connect restarts with the new configuration (docs/domain-rules.md, 8).
     * The caller bounds how long a failure may be stale.
     */
    public static Readiness evaluate(LiveConnector c, long generation, String expectedState,
                                     boolean taskFailureMayBeStale) {
        Long observed = c.observedGeneration();
        String genText = "observedGeneration " + (observed == null ? "none" : observed) + "/" + generation;
        int total = c.tasks().size();
        if (observed == null || observed < generation) {
            return new Readiness.InProgress("waiting for the operator, " + genText, 0, Math.max(total, 1));
        }
        boolean stopping = "STOPPED".equals(expectedState);
        if ("FAILED".equals(c.connectorState()) && stopping) {
            return notStopped(c, genText, taskFailureMayBeStale);
        }
        if ("FAILED".equals(c.connectorState())) {
            return new Readiness.Failed("connector " + c.name() + " is FAILED: " + head(c.connectorTrace()));
        }
        for (TaskStatus t : stopping ? List.<TaskStatus>of() : c.tasks()) {
            if ("FAILED".equals(t.state()) && taskFailureMayBeStale) {
                return new Readiness.InProgress("task " + c.name() + "-" + t.id() + " FAILED, possibly before this change "
                        + "(Connect restarts reconfigured tasks): waiting for a later status, " + genText,
                        (int) c.tasks().stream().filter(x -> expectedState.equals(x.state())).count(), Math.max(total, 1));
            }
            if ("FAILED".equals(t.state())) {
                return new Readiness.Failed("task " + c.name() + "-" + t.id() + " is FAILED: " + head(t.trace())
                        + ". Once the cause is fixed, restart it (kubectl annotate kafkaconnector -n " + c.ref().namespace()
                        + " " + c.name() + " strimzi.io/restart-task=" + t.id() + ") and run apply again");
            }
        }
        Optional<Condition> notReady = Conditions.trueCondition(c.conditions(), "NotReady");
        if (notReady.isPresent()) {
            return new Readiness.Failed("connector " + c.name() + " is NotReady: " + head(notReady.get().message()));
        }
        long ok = c.tasks().stream().filter(t -> expectedState.equals(t.state())).count();
        boolean mayHaveNoTask = ConnectorRole.ofClass(c.className()) == ConnectorRole.CHECKPOINT;
        // a stopped connector has no task configurations (KIP-875); a task reported RUNNING has not stopped yet
        boolean tasksOk = stopping ? c.tasks().stream().noneMatch(t -> ACTIVE.contains(t.state()))
                : (total > 0 || mayHaveNoTask) && ok == total;
        if (Conditions.isTrue(c.conditions(), "Ready") && expectedState.equals(c.connectorState()) && tasksOk) {
            return new Readiness.Complete("connector " + expectedState + ", " + (stopping ? "no task running"
                    : ok + "/" + total + " tasks " + expectedState) + ", " + genText);
        }
        if (stopping) {
            long active = c.tasks().stream().filter(t -> ACTIVE.contains(t.state())).count();
            return new Readiness.InProgress("connector " + (c.connectorState() == null ? "not reported" : c.connectorState())
                    + ", " + active + " task(s) still running, " + genText, c.connectorState() == null ? 0 : 1, 1);
        }
        return new Readiness.InProgress("connector " + (c.connectorState() == null ? "not reported" : c.connectorState())
                + ", " + ok + "/" + total + " tasks " + expectedState + ", " + genText, (int) ok, Math.max(total, 1));
    }

    /**
     * A connector awaited as STOPPED reports FAILED: right after the stop that can be a status from before it; later it
     * means the operator did not stop it. Strimzi before 1.1.0 leaves a FAILED connector as it is when
     * {@code spec.state} asks for {@code stopped} (strimzi/strimzi-kafka-operator#12542), while its tasks may still run.
     */
    private static Readiness notStopped(LiveConnector c, String genText, boolean mayBeStale) {
        if (mayBeStale) {
            return new Readiness.InProgress("connector FAILED, possibly before the stop: waiting for a later status, "
                    + genText, 0, 1);
        }
        return new Readiness.Failed("connector " + c.name() + " is FAILED and was not stopped (Strimzi before 1.1.0 does "
                + "not stop a FAILED connector, whose tasks may still run): " + head(c.connectorTrace()) + ". Restart it "
                + "(kubectl annotate kafkaconnector -n " + c.ref().namespace() + " " + c.name()
                + " strimzi.io/restart=true) and run apply again");
    }

    /** @return the first line(s) of a trace, at most a few hundred characters */
    public static String head(String trace) {
        if (trace == null || trace.isBlank()) {
            return "(no trace reported)";
        }
        String t = trace.strip();
        int nl = t.indexOf("\n\tat ");
        if (nl > 0) {
            t = t.substring(0, nl);
        }
        return t.length() > TRACE_HEAD_CHARS ? t.substring(0, TRACE_HEAD_CHARS) + "..." : t;
    }
}
