package dev.flowform.render;

import dev.flowform.plan.Drift;
import dev.flowform.plan.RecordedResource;
import dev.flowform.plan.StateView;
import java.util.Map;

/**
 * Renders an environment's state for people (Terraform's {@code show} without a plan file): the state
 * version, then every managed object with the attributes drift is measured against (labels,
 * annotations, spec). Secret values were hashed before they reached the state and show as
 * {@code (sensitive value)}.
 */
public final class StateRenderer {

    private StateRenderer() {
    }

    /** @return the text of the state {@code view}, ending with a newline */
    public static String render(StateView view, Style style) {
        StringBuilder sb = new StringBuilder();
        sb.append(style.bold("Environment \"" + view.environment() + "\"")).append(": lineage ").append(view.lineage())
                .append(", serial ").append(view.serial()).append(".\n");
        if (view.resources().isEmpty()) {
            sb.append("\nThe state records no objects yet (nothing has been applied).\n");
            return sb.toString();
        }
        for (RecordedResource r : view.resources()) {
            sb.append('\n').append(style.bold("# " + r.address())).append(style.dim("  (recorded at serial " + r.serial() + ")"))
                    .append('\n');
            sb.append("  ").append(r.kind()).append(' ').append(r.namespace()).append('/').append(r.name()).append('\n');
            Map<String, String> attrs = Drift.comparable(r.body());
            int width = attrs.keySet().stream().mapToInt(String::length).max().orElse(0);
            attrs.forEach((path, value) -> sb.append("      ").append(path).append(" ".repeat(width - path.length()))
                    .append(" = ").append(value.startsWith("\"sha256:") ? dev.flowform.model.SecretKeys.MASK : value)
                    .append('\n'));
        }
        return sb.toString();
    }
}
