package dev.flowform.config;

import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredMirrorMaker2;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * A loaded configuration folder, resolved for one environment.
 *
 * @param dir             the configuration folder (absolute)
 * @param environments    every declared environment, in name order
 * @param environment     the selected environment
 * @param clusters        {@code connect_cluster} blocks as declared, in address order: {@code eos} may be unset
 *                        and {@code config} keeps source order until {@code DesiredStateFactory} derives them
 * @param flows           {@code replication_flow} blocks, in address order
 * @param sensitiveValues every string value of a sensitive variable (in any module) or sensitive output, so output layers
 *                        can mask them wherever they appear
 * @param outputs         the root module's outputs, in name order
 * @param backend         where the environments' state lives (the {@code backend} block, or the default
 *                        {@code <dir>/state})
 * @param mirrorMakers    {@code mirrormaker2} blocks as declared, in address order
 */
public record Configuration(
        Path dir,
        List<EnvironmentBlock> environments,
        EnvironmentBlock environment,
        List<DesiredConnectCluster> clusters,
        List<ReplicationFlowBlock> flows,
        Set<String> sensitiveValues,
        List<OutputValue> outputs,
        StateBackend backend,
        List<DesiredMirrorMaker2> mirrorMakers) {

    /** A configuration without {@code mirrormaker2} blocks. */
    public Configuration(Path dir, List<EnvironmentBlock> environments, EnvironmentBlock environment,
                         List<DesiredConnectCluster> clusters, List<ReplicationFlowBlock> flows, Set<String> sensitiveValues,
                         List<OutputValue> outputs, StateBackend backend) {
        this(dir, environments, environment, clusters, flows, sensitiveValues, outputs, backend, List.of());
    }

    /** A configuration without outputs, with the default backend. */
    public Configuration(Path dir, List<EnvironmentBlock> environments, EnvironmentBlock environment,
                         List<DesiredConnectCluster> clusters, List<ReplicationFlowBlock> flows, Set<String> sensitiveValues) {
        this(dir, environments, environment, clusters, flows, sensitiveValues, List.of());
    }

    /** A configuration with the default backend. */
    public Configuration(Path dir, List<EnvironmentBlock> environments, EnvironmentBlock environment,
                         List<DesiredConnectCluster> clusters, List<ReplicationFlowBlock> flows, Set<String> sensitiveValues,
                         List<OutputValue> outputs) {
        this(dir, environments, environment, clusters, flows, sensitiveValues, outputs, StateBackend.defaultFor(dir));
    }

    /** Copies the collections. */
    public Configuration {
        environments = List.copyOf(environments);
        clusters = List.copyOf(clusters);
        flows = List.copyOf(flows);
        sensitiveValues = Set.copyOf(sensitiveValues);
        outputs = List.copyOf(outputs);
        mirrorMakers = List.copyOf(mirrorMakers);
    }
}
