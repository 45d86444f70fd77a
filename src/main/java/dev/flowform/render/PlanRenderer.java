package dev.flowform.render;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.SecretKeys;
import dev.flowform.plan.Action;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanSummary;
import dev.flowform.plan.Step;
import java.util.Map;

/**
 * Renders a {@link Plan} for people, following Terraform's layout: a legend, one block per changed
 * object ({@code + ~ -} with {@code # (reason)}), the summary line
 * {@code Plan: N to add, M to change, K to destroy, R rolling restarts.}, then the numbered steps.
 * Sensitive values show as {@code (sensitive value)}. Warnings are rendered by the caller.
 */
public final class PlanRenderer {

    private PlanRenderer() {
    }

    /**
     * @param plan  the plan (possibly decoded from a saved plan file)
     * @param style colouring
     * @return the text, ending with a newline
     */
    public static String render(Plan plan, Style style) {
        StringBuilder sb = new StringBuilder();
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
        for (Change c : plan.changes()) {
            renderChange(sb, c, style);
        }
        PlanSummary s = plan.summary();
        sb.append(style.bold("Plan:")).append(' ').append(s.add()).append(" to add, ").append(s.change())
                .append(" to change, ").append(s.destroy()).append(" to destroy, ").append(s.rolls())
                .append(s.rolls() == 1 ? " rolling restart.\n" : " rolling restarts.\n");
        sb.append('\n').append(style.bold("Steps, in order:")).append('\n');
        int kindWidth = plan.steps().stream().mapToInt(st -> st.kind().name().length()).max().orElse(10);
        int addrWidth = plan.steps().stream().mapToInt(st -> st.address().length()).max().orElse(10);
        for (Step st : plan.steps()) {
            sb.append(String.format("  %2d. %-" + kindWidth + "s  %-" + addrWidth + "s  %s%n",
                    st.id(), st.kind().name(), st.address(), st.summary()));
        }
        return sb.toString();
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
        int width = c.attributes().stream().mapToInt(a -> a.path().length()).max().orElse(0);
        for (AttributeChange a : c.attributes()) {
            Action act = a.before() == null ? Action.CREATE : a.after() == null ? Action.DELETE : Action.UPDATE;
            if (c.action() == Action.CREATE) {
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
        sb.append('\n');
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

    /** @return the warnings of the plan rendered Terraform-style (empty when none) */
    public static String renderWarnings(Plan plan, Style style) {
        StringBuilder sb = new StringBuilder();
        for (Diagnostic d : plan.diagnostics()) {
            if (!d.isError()) {
                sb.append(DiagnosticRenderer.render(d, Map.of(), style));
            }
        }
        return sb.toString();
    }
}
