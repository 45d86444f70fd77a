package dev.flowform.render;

import dev.flowform.model.SecretKeys;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.DriftEntry;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanSummary;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepGraph;
import dev.flowform.plan.TransactionalId;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders a {@link Plan} for people, following Terraform's layout: drift first ("Note: Objects have
 * changed outside of flowform", with what flowform does about each), a legend, one block per changed
 * object ({@code + ~ -} with {@code # (reason)}), the summary line
 * {@code Plan: N to add, M to change, K to destroy, R rolling restarts.}, the numbered steps, then the
 * transactional IDs that need ACLs. Sensitive values show as {@code (sensitive value)}. Warnings are
 * rendered by the caller. Callers render the plan decoded from its JSON document
 * ({@code PlanCodec}), so the text never shows anything the document does not hold.
 */
public final class PlanRenderer {

    private PlanRenderer() {
    }

    /** @return the text of {@code plan} (possibly decoded from a saved plan file), ending with a newline */
    public static String render(Plan plan, Style style) {
        StringBuilder sb = new StringBuilder();
        if (plan.hasDrift()) {
            renderDrift(sb, plan, style);
        }
        if (plan.isRefreshOnly()) {
            if (!plan.hasDrift() && plan.stateRecordsNothing()) {
                sb.append(style.green(style.bold("No changes."))).append(" The state of environment \"")
                        .append(plan.environment()).append("\" records no objects yet, so there is nothing to compare the "
                                + "live objects with; a plan without --refresh-only shows what apply would change.\n");
            } else if (!plan.hasDrift()) {
                sb.append(style.green(style.bold("No changes."))).append(" The live objects match the state of environment \"")
                        .append(plan.environment()).append("\".\n");
            } else {
                sb.append("This is a refresh-only plan, so flowform will not take any actions to undo these. If you were "
                        + "expecting these changes, apply this plan to record the updated values in the state of environment \"")
                        .append(plan.environment()).append("\" without changing any live object.\n");
            }
            return sb.toString();
        }
        if (!plan.hasChanges()) {
            sb.append(style.green(style.bold("No changes."))).append(" The live cluster matches the configuration of environment \"")
                    .append(plan.environment()).append("\".\n");
            return sb.toString();
        }
        sb.append("flowform will perform the following actions in environment \"").append(plan.environment())
                .append("\".\nResource actions are indicated with the following symbols:\n");
        sb.append("  ").append(style.green("+")).append(" create\n");
        sb.append("  ").append(style.yellow("~")).append(" update in-place\n");
        sb.append("  ").append(style.red("-")).append(" destroy\n\n");
        renderChanges(sb, plan, style);
        sb.append(style.bold("Plan:")).append(' ').append(summaryCounts(plan.summary())).append('\n');
        sb.append('\n').append(style.bold("Steps, in order:")).append('\n');
        int kindWidth = plan.steps().stream().mapToInt(st -> st.kind().name().length()).max().orElse(10);
        int addrWidth = plan.steps().stream().mapToInt(st -> st.address().length()).max().orElse(10);
        for (Step st : plan.steps()) {
            sb.append(String.format("  %2d. %-" + kindWidth + "s  %-" + addrWidth + "s  %s%n",
                    st.id(), st.kind().name(), st.address(), st.summary()));
        }
        List<String> order = new ArrayList<>(concurrency(plan.steps()));
        order.addAll(oneAtATime(plan.steps()));
        for (String sentence : order) {
            sb.append('\n').append(String.join("\n", Text.wrap(sentence, 100))).append('\n');
        }
        renderTransactionalIds(sb, plan, style);
        return sb.toString();
    }

    /**
     * @return one sentence per fork into connector lanes ({@link StepGraph#forks}), saying which steps run
     *         concurrently and why that is safe; empty when every connector step runs one at a time
     */
    static List<String> concurrency(List<Step> steps) {
        return StepGraph.forks(steps).stream().map(f -> "Steps " + f.first() + "-" + f.last() + " (" + f.lanes()
                + " connectors, each with its wait) run concurrently after step " + f.after() + ", at most --parallelism "
                + "steps at a time: the Connect cluster runs Kafka 3.6 or newer, where writing several connector "
                + "configurations at once no longer fails zombie fencing (KAFKA-15059). Below 3.6 they run one at a "
                + "time.").toList();
    }

    /**
     * @return one sentence per run of connector steps of several connectors that run one at a time
     *         ({@link StepGraph#serialConnectorRuns}), saying why
     */
    static List<String> oneAtATime(List<Step> steps) {
        return StepGraph.serialConnectorRuns(steps).stream().map(r -> "Steps " + r.first() + "-" + r.last() + " ("
                + r.connectors() + " connectors) run one at a time: the Connect cluster's Kafka version is below 3.6 or "
                + "not known to flowform, and there writing several connector configurations at once can fail zombie "
                + "fencing (KAFKA-15059).").toList();
    }

    /** @return {@code N to add, M to change, K to destroy, R rolling restarts.}, the counts of the summary line */
    static String summaryCounts(PlanSummary s) {
        return s.add() + " to add, " + s.change() + " to change, " + s.destroy() + " to destroy, " + s.rolls()
                + (s.rolls() == 1 ? " rolling restart." : " rolling restarts.");
    }

    /** Appends one block per changed object ({@code # address will be ...}, symbol line, attributes). */
    static void renderChanges(StringBuilder sb, Plan plan, Style style) {
        for (Change c : plan.changes()) {
            renderChange(sb, c, style);
        }
    }

    private static void renderDrift(StringBuilder sb, Plan plan, Style style) {
        sb.append(style.bold("Note: Objects have changed outside of flowform")).append("\n\n");
        sb.append("flowform detected the following changes made outside of flowform since the last \"flowform apply\":\n\n");
        renderDriftEntries(sb, plan, style);
        sb.append("-".repeat(77)).append("\n\n");
    }

    /** Appends one block per drifted object: what changed outside flowform and what the plan does about it. */
    static void renderDriftEntries(StringBuilder sb, Plan plan, Style style) {
        for (DriftEntry e : plan.drift()) {
            sb.append("  ").append(style.bold("# " + e.address() + (e.deleted() ? " has been deleted" : " has changed")))
                    .append('\n');
            sb.append("  ").append(symbol(e.deleted() ? Action.DELETE : Action.UPDATE, style)).append(' ')
                    .append(e.object().kind()).append(' ').append(e.object().namespace()).append('/')
                    .append(e.object().name()).append('\n');
            renderAttributes(sb, e.attributes(), Action.UPDATE, style);
            for (String line : Text.wrap(e.resolution(), 96)) {
                sb.append("  ").append(style.dim("# " + line)).append('\n');
            }
            sb.append('\n');
        }
    }

    private static void renderTransactionalIds(StringBuilder sb, Plan plan, Style style) {
        if (plan.transactionalIds().isEmpty()) {
            return;
        }
        sb.append('\n').append(style.bold("Transactional IDs that need Write and Describe ACLs once this plan is applied:"))
                .append('\n');
        int width = plan.transactionalIds().stream().mapToInt(t -> t.transactionalId().length()).max().orElse(10);
        String cluster = null;
        for (TransactionalId t : plan.transactionalIds()) {
            if (!t.connectCluster().equals(cluster)) {
                cluster = t.connectCluster();
                sb.append("  ").append(cluster).append('\n');
            }
            String who = t.connector() == null ? "the workers' leader (worker principal), from preparing on"
                    : "task " + t.task() + " of " + t.connector() + " (connector principal), from enabled on";
            // padded by hand: String.format parses its pattern again for each of the thousands of lines of a large plan
            sb.append("    ").append(t.transactionalId()).append(" ".repeat(width - t.transactionalId().length() + 2))
                    .append(who).append('\n');
        }
    }

    private static void renderChange(StringBuilder sb, Change c, Style style) {
        String verb = switch (c.action()) {
            case CREATE -> "will be created";
            case UPDATE -> "will be updated in-place";
            case DELETE -> "will be destroyed";
            default -> "is unchanged";
        };
        sb.append("  ").append(style.bold("# " + c.address() + " " + verb)).append('\n');
        if (c.reason() != null && !c.reason().isEmpty()) {
            sb.append("  ").append(style.dim("# (" + c.reason() + ")")).append('\n');
        }
        sb.append("  ").append(symbol(c.action(), style)).append(' ').append(c.object().kind()).append(' ')
                .append(c.object().namespace()).append('/').append(c.object().name()).append('\n');
        renderAttributes(sb, c.attributes(), c.action(), style);
        sb.append('\n');
    }

    private static void renderAttributes(StringBuilder sb, List<AttributeChange> attributes, Action objectAction, Style style) {
        int width = attributes.stream().mapToInt(a -> a.path().length()).max().orElse(0);
        for (AttributeChange a : attributes) {
            Action act = a.before() == null ? Action.CREATE : a.after() == null ? Action.DELETE : Action.UPDATE;
            if (objectAction == Action.CREATE) {
                act = Action.CREATE;
            }
            sb.append("      ").append(symbol(act, style)).append(' ').append(pad(a.path(), width)).append(" = ");
            switch (act) {
                case CREATE -> sb.append(value(a.after(), a.sensitive()));
                case DELETE -> sb.append(value(a.before(), a.sensitive())).append(style.dim(" -> null"));
                default -> sb.append(value(a.before(), a.sensitive())).append(" -> ").append(value(a.after(), a.sensitive()));
            }
            sb.append('\n');
        }
    }

    private static String value(String v, boolean sensitive) {
        return sensitive ? SecretKeys.MASK : v;
    }

    private static String symbol(Action a, Style style) {
        return switch (a) {
            case CREATE -> style.green("+");
            case UPDATE -> style.yellow("~");
            case DELETE -> style.red("-");
            default -> " ";
        };
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }
}
