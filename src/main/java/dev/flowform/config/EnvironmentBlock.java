package dev.flowform.config;

import dev.flowform.diag.SourceRange;
import java.util.Map;

/**
 * An {@code environment} block: one isolated target with its own state.
 *
 * @param name           the label, e.g. {@code demo}, {@code prod}
 * @param kubernetes     where the cluster is ({@link KubernetesTarget.Kubeconfig} when the block omits {@code kubernetes})
 * @param namespace      default namespace for blocks that do not set one, or null
 * @param variables      variable values this environment sets (JSON-like values), lower precedence than {@code --var}
 * @param expectedServer API server URL the environment must run against, or null
 */
public record EnvironmentBlock(
        String name,
        KubernetesTarget kubernetes,
        String namespace,
        Map<String, Object> variables,
        String expectedServer,
        SourceRange range) {
    public EnvironmentBlock {
        variables = dev.flowform.model.Maps.copy(variables);
    }
}
