package dev.flowform.cli.view;

import dev.flowform.apply.ApplyListener;
import dev.flowform.cli.Prompter;
import dev.flowform.cli.Terminal;
import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Action;
import dev.flowform.plan.Change;
import dev.flowform.plan.Json;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanSummary;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.render.Text;
import dev.flowform.state.OutputRecord;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.node.ObjectNode;

/**
 * Terraform's machine-readable UI ({@code internals/machine-readable-ui}): one JSON object per line with
 * {@code @level}, {@code @message}, {@code @module}, {@code @timestamp} and {@code type}, apply events with Terraform's
 * {@code hook} plus flowform's {@code step} and {@code progress}; every line passes the secret redaction
 * (docs/operations.md).
 */
public final class JsonApplyView extends ApplyView implements Terminal.JsonLines {

    /** Version of this event format, Terraform's {@code ui} field. */
    public static final String UI_VERSION = "1.0";

    private final Clock clock;
    private final Function<List<OutputRecord>, String> outputsText;

    private JsonApplyView(Terminal term, Prompter prompter, Clock clock, Function<List<OutputRecord>, String> outputsText) {
        super(term, prompter);
        this.clock = clock;
        this.outputsText = outputsText;
    }

    /**
     * Switches {@code term} to JSON lines and writes the {@code version} line that starts every stream. The
     * {@code prompter} is never reached: {@code --json} needs {@code --auto-approve} or a plan file.
     *
     * @param outputsText lays the outputs out as {@code output -json} prints them
     * @return the view
     */
    public static JsonApplyView open(Terminal term, Prompter prompter, Clock clock, String flowformVersion,
                                     Function<List<OutputRecord>, String> outputsText) {
        JsonApplyView view = new JsonApplyView(term, prompter, clock, outputsText);
        term.json(view);
        view.version(flowformVersion);
        return view;
    }

    private void version(String flowformVersion) {
        ObjectNode n = line("info", "flowform " + flowformVersion, "version");
        n.put("flowform", flowformVersion);
        n.put("ui", UI_VERSION);
        emit(n);
    }

    /** Writes one {@code diagnostic} line. */
    @Override
    public void diagnostic(Diagnostic d) {
        ObjectNode n = line(d.isError() ? "error" : "warn", (d.isError() ? "Error: " : "Warning: ") + d.summary(), "diagnostic");
        ObjectNode diag = n.putObject("diagnostic");
        diag.put("severity", d.isError() ? "error" : "warning");
        diag.put("summary", d.summary());
        diag.put("detail", d.detail() == null ? "" : d.detail());
        if (d.address() != null) {
            diag.put("address", d.address());
        }
        if (d.range() != null) {
            ObjectNode r = diag.putObject("range");
            r.put("filename", String.valueOf(d.range().filename()));
            r.putObject("start").put("line", d.range().start().line()).put("column", d.range().start().column());
            r.putObject("end").put("line", d.range().end().line()).put("column", d.range().end().column());
        }
        emit(n);
    }

    /** Writes one {@code planned_change} line per changed object of the plan. */
    private void plannedChanges(Plan plan) {
        for (Change c : plan.changes()) {
            ObjectNode n = line("info", c.address() + ": Plan to " + c.action().jsonName(), "planned_change");
            ObjectNode change = n.putObject("change");
            change.set("resource", resource(c.address()));
            change.put("action", c.action().jsonName());
            if (c.reason() != null) {
                change.put("reason", c.reason());
            }
            emit(n);
        }
    }

    /** Writes a {@code change_summary} line: the plan's counts, {@code plan} or {@code apply}, the human line. */
    private void changeSummary(Plan plan, String operation, String message) {
        PlanSummary s = plan.summary();
        ObjectNode n = line("info", message, "change_summary");
        ObjectNode changes = n.putObject("changes");
        changes.put("add", s.add());
        changes.put("change", s.change());
        changes.put("import", 0);
        changes.put("remove", s.destroy());
        changes.put("rolling_restarts", s.rolls());
        changes.put("steps", plan.steps().size());
        changes.put("operation", operation);
        emit(n);
    }

    /** Writes Terraform's {@code outputs} line from the outputs as {@code output -json} prints them. */
    private void outputs(String outputsJson) {
        ObjectNode n = line("info", "Outputs", "outputs");
        n.set("outputs", Json.MAPPER.readTree(outputsJson));
        emit(n);
    }

    /** Writes a {@code log} line. */
    @Override
    public void log(String level, String message) {
        emit(line(level, message, "log"));
    }

    @Override
    public void planned(Plan plan) {
        plannedChanges(plan);
        PlanSummary s = plan.summary();
        changeSummary(plan, "plan", "Plan: " + s.add() + " to add, " + s.change() + " to change, " + s.destroy()
                + " to destroy, " + s.rolls() + (s.rolls() == 1 ? " rolling restart." : " rolling restarts."));
    }

    /**
     * @param plan the plan being applied, for each step's Terraform action
     * @return a listener writing {@code apply_*} lines
     */
    @Override
    public ApplyListener applying(Plan plan) {
        Map<String, String> actions = new HashMap<>();
        for (Change c : plan.changes()) {
            actions.put(c.address(), c.action().jsonName());
        }
        return new StepLines(actions);
    }

    /** Nothing to close: every event was a line of its own. */
    @Override
    public void applied() {
        // the JSON view keeps no display between events
    }

    @Override
    public void complete(Plan plan, boolean refreshOnly, String detail) {
        String message = COMPLETE + " " + detail;
        if (refreshOnly) {
            log("info", message);
        } else {
            changeSummary(plan, "apply", message);
        }
    }

    @Override
    public void outputs(List<OutputRecord> outputs) {
        outputs(outputsText.apply(outputs));
    }

    /** The connection line is a {@code log} line, as every note. */
    @Override
    public void connecting(String line) {
        log("info", line);
    }

    /** JSON lines need no separator. */
    @Override
    protected void gap() {
        // each report is a line of its own
    }

    /** Writes the {@code apply_*} lines of the steps. */
    private final class StepLines implements ApplyListener {
        private final Map<String, String> actions;

        StepLines(Map<String, String> actions) {
            this.actions = actions;
        }

        @Override
        public void stepStarted(Step step, int index, int total) {
            ObjectNode n = line("info", step.address() + ": [" + index + "/" + total + "] " + step.kind() + " "
                    + step.summary(), "apply_start");
            hook(n, step, index, total, null);
            emit(n);
        }

        @Override
        public void stepProgress(Step step, int index, int total, Readiness state, Duration elapsed) {
            ObjectNode n = line("info", step.address() + ": Still waiting... [" + Text.elapsed(elapsed) + " elapsed]: "
                    + state.detail(), "apply_progress");
            ObjectNode hook = hook(n, step, index, total, elapsed);
            ObjectNode progress = hook.putObject("progress");
            if (state instanceof Readiness.InProgress p) {
                progress.put("done", p.done());
                progress.put("total", p.total());
            }
            progress.put("detail", state.detail());
            emit(n);
        }

        @Override
        public void stepDone(Step step, int index, int total, String detail, Duration took) {
            ended("info", step, index, total, " complete after ", detail, took, "apply_complete");
        }

        @Override
        public void stepFailed(Step step, int index, int total, String detail, Duration took) {
            ended("error", step, index, total, " errored after ", detail, took, "apply_errored");
        }

        private void ended(String level, Step step, int index, int total, String verb, String detail, Duration took,
                           String type) {
            ObjectNode n = line(level, step.address() + ": [" + index + "/" + total + "] " + step.kind() + verb
                    + Text.duration(took) + ": " + detail, type);
            hook(n, step, index, total, took).put("detail", detail);
            emit(n);
        }

        @Override
        public void stepSkipped(Step step, int index, int total, String reason) {
            ObjectNode n = line("warn", step.address() + ": [" + index + "/" + total + "] " + step.kind() + " not run: "
                    + reason, "log");
            emit(n);
        }

        private ObjectNode hook(ObjectNode n, Step step, int index, int total, Duration elapsed) {
            ObjectNode hook = n.putObject("hook");
            hook.set("resource", resource(step.address()));
            hook.put("action", actions.getOrDefault(step.address(), Action.UPDATE.jsonName()));
            if (elapsed != null) {
                hook.put("elapsed_seconds", elapsed.toSeconds());
            }
            ObjectNode s = hook.putObject("step");
            s.put("id", step.id());
            s.put("index", index);
            s.put("total", total);
            s.put("kind", step.kind().name());
            s.put("summary", step.summary());
            return hook;
        }
    }

    private static ObjectNode resource(String address) {
        ObjectNode r = Json.MAPPER.createObjectNode();
        int dot = address.indexOf('.');
        r.put("addr", address);
        r.put("module", "");
        r.put("resource", address);
        r.put("implied_provider", "flowform");
        r.put("resource_type", dot < 0 ? address : address.substring(0, dot));
        r.put("resource_name", dot < 0 ? address : address.substring(dot + 1));
        r.put("resource_key", (String) null);
        return r;
    }

    private ObjectNode line(String level, String message, String type) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("@level", level);
        n.put("@message", message);
        n.put("@module", "flowform.ui");
        n.put("@timestamp", clock.instant().toString());
        n.put("type", type);
        return n;
    }

    private void emit(ObjectNode n) {
        term.printJsonLine(n.toString());
    }
}
