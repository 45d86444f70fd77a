package dev.flowform.cli;

import dev.flowform.apply.Journal;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.Step;
import dev.flowform.state.StateStore;
import java.util.List;
import tools.jackson.databind.node.ObjectNode;

/** The {@link Journal} of one apply run, written to the environment's {@link StateStore}. */
final class StateJournal implements Journal {

    private final StateStore state;
    private final long runId;
    private final String version;

    StateJournal(StateStore state, long runId, String version) {
        this.state = state;
        this.runId = runId;
        this.version = version;
    }

    @Override
    public long started(Step step, int index) {
        return state.journalIntent(runId, index, step.id(), step.kind().name(), step.address(), intent(step));
    }

    @Override
    public void done(long handle, String detail) {
        state.journalDone(handle, detail);
    }

    @Override
    public void failed(long handle, String detail) {
        state.journalFailed(handle, detail);
    }

    /** @return the step as JSON, secrets replaced by the state's salted hash */
    private String intent(Step step) {
        dev.flowform.plan.Plan one = new dev.flowform.plan.Plan(dev.flowform.plan.Plan.FORMAT_VERSION, "", java.time.Instant.EPOCH,
                null, java.util.Map.of(), List.of(), List.of(step), List.of());
        ObjectNode doc = PlanCodec.encode(one, version, state::hashSecret);
        return doc.get("steps").get(0).toString();
    }
}
