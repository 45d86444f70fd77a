package dev.flowform.run;

import dev.flowform.apply.Journal;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.Step;
import dev.flowform.state.RunJournal;
import dev.flowform.state.SecretCipher;
import dev.flowform.state.StateStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link Journal} an {@link dev.flowform.apply.Applier} writes one run's steps through, kept in the environment's
 * {@link RunJournal}: each call is one committed transaction (serial +1). The intent is the step as JSON with
 * sensitive values replaced by the environment's salted hash, and every text passes through the redactor first, so a
 * secret quoted in an error message never reaches the database. The adapter between the applier's port and the state
 * lives here, in {@code run}, so that neither {@code apply} nor {@code state} depends on the other.
 */
public final class StepJournal implements Journal {

    private final RunJournal journal;
    private final SecretCipher cipher;
    private final long runId;
    private final String version;
    private final UnaryOperator<String> redact;

    private StepJournal(RunJournal journal, SecretCipher cipher, long runId, String version,
                        UnaryOperator<String> redact) {
        this.journal = journal;
        this.cipher = cipher;
        this.runId = runId;
        this.version = version;
        this.redact = redact;
    }

    /**
     * @param state   the environment's state
     * @param runId   the run, from {@link RunJournal#startRun}
     * @param version flowform's version, recorded with each intent
     * @param redact  removes secret values from free text
     * @return the journal of that run
     */
    public static StepJournal of(StateStore state, long runId, String version, UnaryOperator<String> redact) {
        return new StepJournal(state.journal(), state.cipher(), runId, version, redact);
    }

    @Override
    public long started(Step step, int index) {
        return journal.intent(runId, index - 1, step.id(), step.kind().name(), step.address(), redact.apply(intent(step)));
    }

    @Override
    public void done(long handle, String detail) {
        journal.done(handle, redact.apply(detail));
    }

    @Override
    public void failed(long handle, String detail) {
        journal.failed(handle, redact.apply(detail));
    }

    @Override
    public void stopped(long handle, String detail) {
        journal.stopped(handle, redact.apply(detail));
    }

    /** @return the step as JSON, secrets replaced by the environment's salted hash */
    private String intent(Step step) {
        Plan one = new Plan(Plan.FORMAT_VERSION, "", Instant.EPOCH, null, Map.of(), List.of(), List.of(step), List.of());
        ObjectNode doc = PlanCodec.encode(one, version, cipher::hash);
        return doc.get("steps").get(0).toString();
    }
}
