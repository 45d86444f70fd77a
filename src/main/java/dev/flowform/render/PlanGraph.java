package dev.flowform.render;

import dev.flowform.diag.Diagnostic;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Rule;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepGraph;
import dev.flowform.plan.TransactionalId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The steps of a {@link Plan} and their order as a graph in Graphviz DOT or Mermaid ({@code flowform graph}): one
 * subgraph per Connect cluster's chain, an edge from each step to those depending on it, waits as dashed hexagons,
 * refusals as red nodes naming their rule. Deterministic; labels from the masked document.
 */
public final class PlanGraph {

    /** The output language. */
    public enum Notation {
        /** Graphviz DOT ({@code dot -Tsvg}). */
        DOT,
        /** Mermaid flowchart (rendered by GitHub and GitLab in a {@code mermaid} code block). */
        MERMAID
    }

    private static final int LABEL_WIDTH = 44;

    /** One subgraph: a Connect cluster's steps and refusals. */
    private record Group(String name, List<Step> steps, List<Diagnostic> refusals) {
    }

    /** The groups in plan order, and the refusals that belong to no group. */
    private record Layout(List<Group> groups, List<Diagnostic> loose) {
    }

    private PlanGraph() {
    }

    /** @return the graph of {@code plan} (decoded from its masked document, or fresh), ending with a newline */
    public static String render(Plan plan, Notation notation) {
        Layout layout = layout(plan);
        return notation == Notation.DOT ? dot(plan, layout) : mermaid(plan, layout);
    }

    private static Layout layout(Plan plan) {
        Map<String, Group> groups = new LinkedHashMap<>();
        for (List<Integer> chain : StepGraph.chains(plan.steps())) {
            List<Step> steps = chain.stream().map(plan.steps()::get).toList();
            String name = clusterOf(steps, plan.transactionalIds());
            groups.computeIfAbsent(name, n -> new Group(n, new ArrayList<>(), new ArrayList<>())).steps().addAll(steps);
        }
        List<Diagnostic> loose = new ArrayList<>();
        for (Diagnostic d : plan.diagnostics()) {
            if (!d.isError()) {
                continue;
            }
            Group home = d.address() == null ? null : groups.values().stream()
                    .filter(g -> g.name().equals(d.address()) || g.steps().stream().anyMatch(s -> s.address().equals(d.address())))
                    .findFirst().orElse(null);
            if (home == null && d.address() != null && d.address().startsWith("connect_cluster.")) {
                home = groups.computeIfAbsent(d.address(), n -> new Group(n, new ArrayList<>(), new ArrayList<>()));
            }
            if (home != null) {
                home.refusals().add(d);
            } else {
                loose.add(d);
            }
        }
        return new Layout(new ArrayList<>(groups.values()), loose);
    }

    /** @return the address of the chain's Connect cluster */
    private static String clusterOf(List<Step> chain, List<TransactionalId> ids) {
        for (Step s : chain) {
            if ("KafkaConnect".equals(s.object().kind())) {
                return s.address();
            }
        }
        for (Step s : chain) {
            for (TransactionalId t : ids) {
                if (s.object().name().equals(t.connector())) {
                    return t.connectCluster();
                }
            }
        }
        Step head = chain.get(0);
        return "Connect cluster of " + head.object().namespace() + "/" + head.object().name();
    }

    private static List<String> stepLines(Step s) {
        List<String> lines = new ArrayList<>();
        lines.add(s.id() + ". " + s.kind().name());
        lines.add(s.address());
        lines.addAll(Text.wrap(s.summary(), LABEL_WIDTH));
        return lines;
    }

    private static List<String> refusalLines(Diagnostic d) {
        List<String> lines = new ArrayList<>();
        lines.add("refused" + Rule.cited(d).map(r -> ": rule " + r.id()).orElse(""));
        lines.addAll(Text.wrap(d.summary(), LABEL_WIDTH));
        if (d.address() != null) {
            lines.add(d.address());
        }
        return lines;
    }

    // ------------------------------------------------------------------------------------------------ DOT

    private static String dot(Plan plan, Layout layout) {
        StringBuilder sb = new StringBuilder();
        sb.append("digraph flowform_plan {\n");
        sb.append("  label=\"").append(dotText("flowform plan for environment " + plan.environment())).append("\";\n");
        sb.append("  labelloc=t;\n  rankdir=TB;\n");
        sb.append("  node [fontname=\"Helvetica\", fontsize=10];\n");
        if (plan.steps().isEmpty() && layout.loose().isEmpty() && layout.groups().isEmpty()) {
            sb.append("  no_changes [shape=note, label=\"No changes\"];\n");
        }
        int n = 0;
        for (Group g : layout.groups()) {
            n++;
            sb.append("  subgraph cluster_").append(n).append(" {\n");
            sb.append("    label=\"").append(dotText(g.name())).append("\";\n");
            for (Step s : g.steps()) {
                sb.append("    ").append(dotNode("s" + s.id(), stepLines(s), s.kind().isMutation()
                        ? "shape=box" : "shape=hexagon, style=dashed"));
            }
            refusalNodes(sb, "    ", g.refusals(), plan);
            sb.append("  }\n");
        }
        refusalNodes(sb, "  ", layout.loose(), plan);
        for (Step s : plan.steps()) {
            for (int dep : s.dependsOn()) {
                sb.append("  s").append(dep).append(" -> s").append(s.id()).append(";\n");
            }
        }
        return sb.append("}\n").toString();
    }

    private static void refusalNodes(StringBuilder sb, String indent, List<Diagnostic> refusals, Plan plan) {
        for (Diagnostic d : refusals) {
            sb.append(indent).append(dotNode(refusalId(d, plan), refusalLines(d),
                    "shape=octagon, color=red, fontcolor=red, style=bold"));
        }
    }

    private static String dotNode(String id, List<String> lines, String attributes) {
        List<String> escaped = lines.stream().map(PlanGraph::dotText).toList();
        return id + " [" + attributes + ", label=\"" + String.join("\\n", escaped) + "\"];\n";
    }

    private static String dotText(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** @return {@code r<n>}, n the 1-based position of the refusal among the plan's diagnostics */
    private static String refusalId(Diagnostic d, Plan plan) {
        return "r" + (plan.diagnostics().indexOf(d) + 1);
    }

    // ------------------------------------------------------------------------------------------------ Mermaid

    private static String mermaid(Plan plan, Layout layout) {
        StringBuilder sb = new StringBuilder();
        sb.append("flowchart TD\n");
        if (plan.steps().isEmpty() && layout.loose().isEmpty() && layout.groups().isEmpty()) {
            sb.append("  no_changes[\"No changes\"]\n");
        }
        List<String> waits = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        int n = 0;
        for (Group g : layout.groups()) {
            n++;
            sb.append("  subgraph c").append(n).append("[\"").append(mermaidText(g.name())).append("\"]\n");
            for (Step s : g.steps()) {
                String id = "s" + s.id();
                String label = mermaidLabel(stepLines(s));
                sb.append("    ").append(id).append(s.kind().isMutation() ? "[" + label + "]" : "{{" + label + "}}")
                        .append('\n');
                if (!s.kind().isMutation()) {
                    waits.add(id);
                }
            }
            mermaidRefusals(sb, "    ", g.refusals(), plan, refused);
            sb.append("  end\n");
        }
        mermaidRefusals(sb, "  ", layout.loose(), plan, refused);
        for (Step s : plan.steps()) {
            for (int dep : s.dependsOn()) {
                sb.append("  s").append(dep).append(" --> s").append(s.id()).append('\n');
            }
        }
        if (!waits.isEmpty()) {
            sb.append("  classDef wait stroke-dasharray: 5 5\n");
            sb.append("  class ").append(String.join(",", waits)).append(" wait\n");
        }
        if (!refused.isEmpty()) {
            sb.append("  classDef refused fill:#fdd,stroke:#c00,color:#900\n");
            sb.append("  class ").append(String.join(",", refused)).append(" refused\n");
        }
        return sb.toString();
    }

    private static void mermaidRefusals(StringBuilder sb, String indent, List<Diagnostic> refusals, Plan plan,
                                        List<String> ids) {
        for (Diagnostic d : refusals) {
            String id = refusalId(d, plan);
            ids.add(id);
            sb.append(indent).append(id).append('>').append(mermaidLabel(refusalLines(d))).append("]\n");
        }
    }

    private static String mermaidLabel(List<String> lines) {
        return "\"" + String.join("<br/>", lines.stream().map(PlanGraph::mermaidText).toList()) + "\"";
    }

    /** @return {@code s} inside a quoted Mermaid label: quotes and angle brackets as Mermaid's entity codes */
    private static String mermaidText(String s) {
        return s.replace("#", "#35;").replace("\"", "#quot;").replace("<", "#lt;").replace(">", "#gt;");
    }
}
