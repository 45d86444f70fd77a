package dev.flowform.cli;

import dev.flowform.apply.ApplyListener;
import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Action;
import dev.flowform.plan.Change;
import dev.flowform.plan.Json;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanSummary;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.render.Text;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * Terraform's machine-readable UI ({@code internals/machine-readable-ui}): one JSON object per line on
 * stdout, each with {@code @level}, {@code @message}, {@code @module} ({@code flowform.ui}),
 * {@code @timestamp} and {@code type}. Types written: {@code version}, {@code diagnostic},
 * {@code planned_change}, {@code change_summary} (with {@code operation} {@code plan} or
 * {@code apply}), {@code apply_start}, {@code apply_progress} (with {@code elapsed_seconds}),
 * {@code apply_complete}, {@code apply_errored}, {@code outputs} and {@code log}.
 *
 * <p>Apply events carry Terraform's {@code hook} object ({@code resource} with {@code addr},
 * {@code resource_type}, {@code resource_name}; {@code action}; {@code elapsed_seconds}) plus flowform's
 * {@code step} ({@code id}, {@code index}, {@code total}, {@code kind}, {@code summary}) and, for
 * progress, {@code progress} ({@code done}, {@code total}, {@code detail}). Every line passes the
 * terminal's secret redaction.
 */
public final class JsonUi implements Terminal.JsonLines {

    /** Version of this event format, Terraform's {@code ui} field. */
    public static final String UI_VERSION = "1.0";

    private final Terminal term;
    private final Clock clock;

    /**
     * @param term  where lines go (stdout, redacted)
     * @param clock time source for {@code @timestamp}
     */
    public JsonUi(Terminal term, Clock clock) {
        this.term = term;
        this.clock = clock;
    }

    /** Writes the {@code version} line that starts every stream. */
    public void version(String flowformVersion) {
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
    public void plannedChanges(Plan plan) {
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

    /**
     * Writes a {@code change_summary} line.
     *
     * @param plan      the plan whose counts to write
     * @param operation {@code plan} or {@code apply}
     * @param message   the human summary line
     */
    public void changeSummary(Plan plan, String operation, String message) {
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

    /**
     * Writes Terraform's {@code outputs} line.
     *
     * @param outputsJson the outputs as {@code output -json} prints them: name to {@code sensitive}, {@code type}
     *                    and {@code value} (or {@code value_hash} for a sensitive one)
     */
    public void outputs(String outputsJson) {
        ObjectNode n = line("info", "Outputs", "outputs");
        n.set("outputs", Json.MAPPER.readTree(outputsJson));
        emit(n);
    }

    /** Writes a {@code log} line. */
    @Override
    public void log(String level, String message) {
        emit(line(level, message, "log"));
    }

    /**
     * @param plan the plan being applied, for each step's Terraform action
     * @return a listener writing {@code apply_*} lines
     */
    public ApplyListener listener(Plan plan) {
        Map<String, String> actions = new HashMap<>();
        for (Change c : plan.changes()) {
            actions.put(c.address(), c.action().jsonName());
        }
        return new ApplyListener() {
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
                ObjectNode n = line("info", step.address() + ": [" + index + "/" + total + "] " + step.kind() + " complete after "
                        + Text.duration(took) + ": " + detail, "apply_complete");
                hook(n, step, index, total, took).put("detail", detail);
                emit(n);
            }

            @Override
            public void stepFailed(Step step, int index, int total, String detail, Duration took) {
                ObjectNode n = line("error", step.address() + ": [" + index + "/" + total + "] " + step.kind() + " errored after "
                        + Text.duration(took) + ": " + detail, "apply_errored");
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
        };
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
