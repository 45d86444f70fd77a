package dev.flowform.state;

import dev.flowform.apply.Journal;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.Step;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link Journal} of one apply run, written to the environment's {@link RunJournal}: each call is one committed
 * transaction (serial +1). Made by {@link RunJournal#forRun}; see there for what is written.
 */
final class StepJournal implements Journal {

    private final RunJournal journal;
    private final SecretCipher cipher;
    private final long runId;
    private final String version;
    private final UnaryOperator<String> redact;

    StepJournal(RunJournal journal, SecretCipher cipher, long runId, String version, UnaryOperator<String> redact) {
        this.journal = journal;
        this.cipher = cipher;
        this.runId = runId;
        this.version = version;
        this.redact = redact;
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
