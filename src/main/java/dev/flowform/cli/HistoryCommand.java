package dev.flowform.cli;

import dev.flowform.plan.Json;
import dev.flowform.render.Text;
import dev.flowform.state.EnvironmentRecord;
import dev.flowform.state.RunRecord;
import dev.flowform.state.StateStore;
import dev.flowform.state.StepRecord;
import dev.flowform.state.StepStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code flowform history}: the runs recorded in an environment's state, newest first, numbered in their environment,
 * with outcome, duration, who and their journaled steps (a stopped step shows as {@code STOPPED}, as {@code FAILED} in
 * the JSON document of format version 1). Reads the state only; {@code --json} prints one document (docs/operations.md, "History and state").
 */
@Command(name = "history", mixinStandardHelpOptions = true,
        description = "Show the runs recorded for an environment: outcome, duration, who, steps.")
public final class HistoryCommand extends FlowformSubcommand implements Callable<Integer> {

    /** Version of the {@code --json} document. */
    public static final String FORMAT_VERSION = "1";

    @Option(names = {"--json", "-json"}, description = "Print the history as one JSON document.")
    boolean json;

    @Option(names = {"--limit"}, paramLabel = "N", defaultValue = "20",
            description = "Show at most N runs, newest first (default: ${DEFAULT-VALUE}).")
    int limit;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        if (limit < 1) {
            term.error("Invalid --limit", "--limit must be at least 1, got " + limit + ".");
            return 1;
        }
        try (StateStore state = CommandState.open(common, parent.context(), term)) {
            EnvironmentRecord env = state.environment();
            List<RunRecord> runs = state.journal().runs(limit);
            if (json) {
                term.println(document(state, env, runs).toPrettyString());
                return 0;
            }
            term.println(term.style().bold("History of environment \"" + env.name() + "\"") + " (lineage " + env.lineage()
                    + ", serial " + env.serial() + (env.kubeServer() == null ? "" : ", applied to " + env.kubeServer()) + ")");
            if (runs.isEmpty()) {
                term.println("");
                term.println("No runs yet.");
                return 0;
            }
            for (RunRecord r : runs) {
                List<StepRecord> steps = state.journal().steps(r.id());
                term.println("");
                term.println(term.style().bold("Run " + r.number()) + "  " + r.kind() + "  " + outcome(term, r) + "  "
                        + r.startedAt() + "  " + duration(r) + "  by " + r.who() + "  (flowform " + r.flowformVersion() + ")");
                term.println("  " + count(steps, StepStatus.DONE) + " done, " + count(steps, StepStatus.FAILED) + " failed, "
                        + (count(steps, StepStatus.STARTED) + count(steps, StepStatus.STOPPED)) + " interrupted"
                        + (r.summary() == null ? "" : ": " + r.summary()));
                for (StepRecord s : steps) {
                    term.println(String.format("  %3d. %-24s %-40s %-8s %7s  %s", s.stepId(), s.kind(),
                            s.address() == null ? "" : s.address(), s.status(),
                            s.durationMs() == null ? "" : Text.duration(Duration.ofMillis(s.durationMs())),
                            s.detail() == null ? (s.status() == StepStatus.STARTED ? "(no outcome recorded)" : "") : s.detail()));
                }
            }
            return 0;
        } catch (CommandFailed e) {
            return e.exitCode();
        }
    }

    private static String outcome(Terminal term, RunRecord r) {
        return switch (r.outcome()) {
            case SUCCEEDED -> term.style().green(r.outcome().name());
            case FAILED -> term.style().red(r.outcome().name());
            default -> term.style().yellow(r.outcome().name());
        };
    }

    private static String duration(RunRecord r) {
        return r.finishedAt() == null ? "(running or interrupted)" : Text.duration(Duration.between(r.startedAt(), r.finishedAt()));
    }

    private static long count(List<StepRecord> steps, StepStatus status) {
        return steps.stream().filter(s -> s.status() == status).count();
    }

    private static ObjectNode document(StateStore state, EnvironmentRecord env, List<RunRecord> runs) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format_version", FORMAT_VERSION);
        root.put("environment", env.name());
        root.put("lineage", env.lineage());
        root.put("serial", env.serial());
        root.put("kube_server", env.kubeServer());
        ArrayNode out = root.putArray("runs");
        for (RunRecord r : runs) {
            ObjectNode n = out.addObject();
            n.put("id", r.id());
            n.put("number", r.number());
            n.put("kind", r.kind());
            n.put("outcome", r.outcome().name());
            n.put("who", r.who());
            n.put("flowform_version", r.flowformVersion());
            n.put("started_at", r.startedAt().toString());
            n.put("finished_at", r.finishedAt() == null ? null : r.finishedAt().toString());
            if (r.finishedAt() == null) {
                n.putNull("duration_ms");
            } else {
                n.put("duration_ms", Duration.between(r.startedAt(), r.finishedAt()).toMillis());
            }
            n.put("summary", r.summary());
            ArrayNode steps = n.putArray("steps");
            for (StepRecord s : state.journal().steps(r.id())) {
                ObjectNode sn = steps.addObject();
                sn.put("step_id", s.stepId());
                sn.put("index", s.stepIndex());
                sn.put("kind", s.kind());
                sn.put("address", s.address());
                sn.put("status", s.status().shown().name());
                sn.put("started_at", s.startedAt().toString());
                sn.put("finished_at", s.finishedAt() == null ? null : s.finishedAt().toString());
                if (s.durationMs() == null) {
                    sn.putNull("duration_ms");
                } else {
                    sn.put("duration_ms", s.durationMs());
                }
                sn.put("detail", s.detail());
            }
        }
        return root;
    }
}
