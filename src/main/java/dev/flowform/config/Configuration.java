package dev.flowform.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * A loaded configuration folder, resolved for one environment.
 *
 * @param dir             the configuration folder (absolute)
 * @param environments    every declared environment, in name order
 * @param environment     the selected environment
 * @param clusters        {@code connect_cluster} blocks, in address order
 * @param flows           {@code replication_flow} blocks, in address order
 * @param sensitiveValues every string value of a sensitive variable (in any module) or sensitive output, so output layers
 *                        can mask them wherever they appear
 * @param outputs         the root module's outputs, in name order
 */
public record Configuration(
        Path dir,
        List<EnvironmentBlock> environments,
        EnvironmentBlock environment,
        List<ConnectClusterBlock> clusters,
        List<ReplicationFlowBlock> flows,
        Set<String> sensitiveValues,
        List<OutputValue> outputs) {

    /** A configuration without outputs. */
    public Configuration(Path dir, List<EnvironmentBlock> environments, EnvironmentBlock environment,
                         List<ConnectClusterBlock> clusters, List<ReplicationFlowBlock> flows, Set<String> sensitiveValues) {
        this(dir, environments, environment, clusters, flows, sensitiveValues, List.of());
    }

    /** Copies the collections. */
    public Configuration {
        environments = List.copyOf(environments);
        clusters = List.copyOf(clusters);
        flows = List.copyOf(flows);
        sensitiveValues = Set.copyOf(sensitiveValues);
        outputs = List.copyOf(outputs);
    }
}
