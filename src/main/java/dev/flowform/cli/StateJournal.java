package dev.flowform.cli;

import dev.flowform.apply.Journal;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.Step;
import dev.flowform.state.StateStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link Journal} of one apply run, written to the environment's {@link StateStore}: each call
 * is one committed transaction (serial +1). The intent is the step as JSON, sensitive values replaced
 * by the state's salted hash; details pass through the terminal's redaction first, so a secret quoted
 * in an error message never reaches the database.
 */
final class StateJournal implements Journal {

    private final StateStore state;
    private final long runId;
    private final String version;
    private final UnaryOperator<String> redact;

    /**
     * @param state   the environment's state
     * @param runId   the run being journaled
     * @param version flowform's version, recorded with each intent
     * @param redact  removes secret values from free text
     */
    StateJournal(StateStore state, long runId, String version, UnaryOperator<String> redact) {
        this.state = state;
        this.runId = runId;
        this.version = version;
        this.redact = redact;
    }

    @Override
    public long started(Step step, int index) {
        return state.journalIntent(runId, index - 1, step.id(), step.kind().name(), step.address(), redact.apply(intent(step)));
    }

    @Override
    public void done(long handle, String detail) {
        state.journalDone(handle, redact.apply(detail));
    }

    @Override
    public void failed(long handle, String detail) {
        state.journalFailed(handle, redact.apply(detail));
    }

    /** @return the step as JSON, secrets replaced by the state's salted hash */
    private String intent(Step step) {
        Plan one = new Plan(Plan.FORMAT_VERSION, "", Instant.EPOCH, null, Map.of(), List.of(), List.of(step), List.of());
        ObjectNode doc = PlanCodec.encode(one, version, state::hashSecret);
        return doc.get("steps").get(0).toString();
    }
}
