package dev.flowform.render;

import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Rule;
import dev.flowform.plan.Step;
import dev.flowform.plan.TransactionalId;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Renders a {@link Plan} as Markdown for a pull-request comment: heading, summary, refusals, warnings, the changes in
 * a {@code diff} block (symbols in the first column, {@code ~} as {@code !}, as Atlantis does), the steps as a table
 * and the transactional IDs needing ACLs. Render the decoded masked document; deterministic.
 */
public final class PlanMarkdown {

    /**
     * Rows of the transactional ID table at most: a comment must stay under GitHub's 65,536 characters, and a plan
     * of many connectors lists one ID per task.
     */
    static final int MAX_TRANSACTIONAL_IDS = 100;

    /** Characters a GitHub pull-request comment may hold (its API rejects a longer body). */
    static final int MAX_COMMENT_CHARS = 65_536;

    /** Characters kept free for closing an open code block or details element and for the cut notice. */
    private static final int CUT_RESERVE = 400;

    private static final Pattern ACTION_LINE = Pattern.compile("^( *)([-+~]) (.*)$");

    private PlanMarkdown() {
    }

    /**
     * @return Markdown text of {@code plan} (decoded from its masked document), ending with a newline, at most
     *         {@value #MAX_COMMENT_CHARS} characters: a longer plan is cut at a line boundary ({@link #fit})
     */
    public static String render(Plan plan) {
        return render(plan, MAX_COMMENT_CHARS);
    }

    /** @return {@link #render(Plan)} cut to {@code limit} characters (at least 1,000) */
    static String render(Plan plan, int limit) {
        return fit(full(plan), limit);
    }

    private static String full(Plan plan) {
        StringBuilder sb = new StringBuilder();
        sb.append("### flowform plan for environment `").append(code(plan.environment())).append("`\n\n");
        List<Diagnostic> errors = plan.diagnostics().stream().filter(Diagnostic::isError).toList();
        List<Diagnostic> warnings = plan.diagnostics().stream().filter(d -> !d.isError()).toList();
        sb.append(summaryLine(plan, errors.size())).append("\n\n");
        diagnostics(sb, "Refusals", errors);
        diagnostics(sb, "Warnings", warnings);
        if (!errors.isEmpty()) {
            return sb.toString();
        }
        if (plan.hasDrift()) {
            StringBuilder drift = new StringBuilder();
            PlanRenderer.renderDriftEntries(drift, plan, Style.PLAIN);
            sb.append("#### Objects changed outside flowform\n\n");
            diffBlock(sb, drift.toString());
        }
        if (!plan.changes().isEmpty()) {
            StringBuilder changes = new StringBuilder();
            PlanRenderer.renderChanges(changes, plan, Style.PLAIN);
            sb.append("#### Changes\n\n");
            diffBlock(sb, changes.toString());
        }
        if (plan.hasChanges()) {
            steps(sb, plan.steps());
        }
        transactionalIds(sb, plan.transactionalIds());
        return sb.toString();
    }

    /**
     * @return {@code text} when it fits in {@code limit}; otherwise its whole lines that fit, an open {@code ```}
     *         block and {@code <details>} element closed, and a notice with the number of lines left out
     */
    static String fit(String text, int limit) {
        if (text.length() <= limit) {
            return text;
        }
        String[] lines = text.split("\n", -1);
        StringBuilder out = new StringBuilder(limit);
        boolean inFence = false;
        boolean inDetails = false;
        int kept = 0;
        while (kept < lines.length && out.length() + lines[kept].length() + 1 <= limit - CUT_RESERVE) {
            String line = lines[kept++];
            inFence ^= line.startsWith("```");
            inDetails = line.startsWith("<details>") || inDetails && !line.startsWith("</details>");
            out.append(line).append('\n');
        }
        if (inFence) {
            out.append("```\n");
        }
        out.append("\n**Cut here:** ").append(lines.length - kept).append(" more lines would pass the ")
                .append(String.format(Locale.ROOT, "%,d", limit))
                .append(" characters a pull-request comment may hold; `flowform show FILE` shows the whole plan.\n");
        if (inDetails) {
            out.append("\n</details>\n");
        }
        return out.toString();
    }

    private static String summaryLine(Plan plan, int errors) {
        if (errors > 0) {
            return "**Plan refused:** " + errors + (errors == 1 ? " error" : " errors")
                    + "; nothing can be applied until " + (errors == 1 ? "it is" : "they are") + " fixed.";
        }
        if (plan.isRefreshOnly()) {
            return plan.hasDrift()
                    ? "**Refresh-only plan:** " + plan.drift().size() + (plan.drift().size() == 1 ? " object" : " objects")
                            + " changed outside flowform; applying it records the "
                            + "live values in the state without changing any live object."
                    : plan.stateRecordsNothing() ? "**No changes.** The state of environment `" + code(plan.environment())
                            + "` records no objects yet, so there is nothing to compare the live objects with."
                    : "**No changes.** The live objects match the state of environment `" + code(plan.environment()) + "`.";
        }
        if (!plan.hasChanges()) {
            return "**No changes.** The live cluster matches the configuration of environment `"
                    + code(plan.environment()) + "`.";
        }
        return "**Plan:** " + PlanRenderer.summaryCounts(plan.summary());
    }

    private static void diagnostics(StringBuilder sb, String title, List<Diagnostic> list) {
        if (list.isEmpty()) {
            return;
        }
        sb.append("#### ").append(title).append("\n\n");
        for (Diagnostic d : list) {
            sb.append("> **").append(d.isError() ? "Error" : "Warning").append(":** ").append(inline(d.summary()));
            String about = about(d);
            if (!about.isEmpty()) {
                sb.append(" (").append(about).append(')');
            }
            sb.append("\n");
            if (!d.detail().isEmpty()) {
                sb.append(">\n");
                for (String line : d.detail().split("\n", -1)) {
                    sb.append(line.isEmpty() ? ">" : "> " + inline(line)).append('\n');
                }
            }
            sb.append('\n');
        }
    }

    /** @return {@code `address`, rule `id`} for the parts the diagnostic has */
    private static String about(Diagnostic d) {
        StringBuilder sb = new StringBuilder();
        if (d.address() != null) {
            sb.append('`').append(code(d.address())).append('`');
        }
        Rule.cited(d).ifPresent(r -> sb.append(sb.length() > 0 ? ", " : "").append("rule `").append(r.id()).append('`'));
        return sb.toString();
    }

    private static void diffBlock(StringBuilder sb, String text) {
        sb.append("```diff\n");
        for (String line : text.stripTrailing().split("\n")) {
            Matcher m = ACTION_LINE.matcher(line);
            if (m.matches()) {
                String symbol = m.group(2).equals("~") ? "!" : m.group(2);
                sb.append(symbol).append(m.group(1)).append(m.group(3));
            } else {
                sb.append(line);
            }
            sb.append('\n');
        }
        sb.append("```\n\n");
    }

    private static void steps(StringBuilder sb, List<Step> steps) {
        sb.append("#### Steps, in order\n\n");
        sb.append("| # | Step | Resource | What | After |\n");
        sb.append("|--:|------|----------|------|-------|\n");
        for (Step s : steps) {
            String kind = s.kind().isMutation() ? "`" + s.kind().name() + "`" : "wait: `" + s.kind().name() + "`";
            String after = s.dependsOn().isEmpty() ? "" : s.dependsOn().stream().map(String::valueOf)
                    .collect(Collectors.joining(", "));
            sb.append("| ").append(s.id()).append(" | ").append(kind).append(" | `").append(code(s.address()))
                    .append("` | ").append(inline(s.summary())).append(" | ").append(after).append(" |\n");
        }
        sb.append('\n');
        List<String> concurrency = PlanRenderer.concurrency(steps);
        sb.append("Waits hold their chain until Strimzi reports the roll or the connector done; the steps of one "
                + "Connect cluster run in order" + (concurrency.isEmpty() ? "" : " (apart from the connector lanes below)")
                + ", different clusters in parallel.\n\n");
        for (String line : concurrency) {
            sb.append(line).append("\n\n");
        }
        for (String line : PlanRenderer.oneAtATime(steps)) {
            sb.append(line).append("\n\n");
        }
    }

    private static void transactionalIds(StringBuilder sb, List<TransactionalId> ids) {
        if (ids.isEmpty()) {
            return;
        }
        sb.append("<details><summary>Transactional IDs that need Write and Describe ACLs once this plan is applied (")
                .append(ids.size()).append(")</summary>\n\n");
        sb.append("| Connect cluster | Transactional ID | Used by |\n");
        sb.append("|-----------------|------------------|---------|\n");
        for (TransactionalId t : ids.subList(0, Math.min(ids.size(), MAX_TRANSACTIONAL_IDS))) {
            String who = t.connector() == null ? "the workers' leader (worker principal), from preparing on"
                    : "task " + t.task() + " of " + t.connector() + " (connector principal), from enabled on";
            sb.append("| `").append(code(t.connectCluster())).append("` | `").append(code(t.transactionalId()))
                    .append("` | ").append(inline(who)).append(" |\n");
        }
        if (ids.size() > MAX_TRANSACTIONAL_IDS) {
            sb.append("\n... and ").append(ids.size() - MAX_TRANSACTIONAL_IDS)
                    .append(" more: `flowform show FILE` lists them all.\n");
        }
        sb.append("\n</details>\n");
    }

    /** @return {@code s} safe inside a code span in a table cell: no backticks, pipes escaped */
    private static String code(String s) {
        return s.replace('`', '\'').replace("|", "\\|");
    }

    /**
     * @return {@code s} safe as inline Markdown in a table cell or a quote: no HTML; pipes, asterisks, backticks,
     *         backslashes and brackets escaped (GFM: an underscore inside a word is not emphasis, so it is kept)
     */
    private static String inline(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '|', '*', '`', '\\', '[', ']' -> out.append('\\').append(c);
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
