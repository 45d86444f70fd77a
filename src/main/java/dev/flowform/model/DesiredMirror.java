package dev.flowform.model;

import dev.flowform.diag.SourceRange;

import java.util.Map;

/**
 * One entry of a {@code mirrormaker2} block's {@code mirror}: a source cluster mirrored into the target
 * (Strimzi {@code spec.mirrors[]}).
 *
 * <p>Under {@link ManageMode#ADOPT} the connector settings hold only the keys flowform owns; every other key of
 * the live entry stays. The exactly-once keys of the source connector are not part of
 * {@link #sourceConnectorConfig()}: they follow from {@link #exactlyOnce()}.
 *
 * @param sourceAlias               the source cluster's alias ({@code spec.mirrors[].sourceCluster})
 * @param sourceBootstrap           the source cluster's bootstrap servers, or null when not declared (adopt)
 * @param sourceClusterConfig       the source cluster entry's {@code config}, or empty
 * @param topics                    {@code topicsPattern}, or null when not declared
 * @param groups                    {@code groupsPattern}, or null when not declared
 * @param tasksMax                  {@code sourceConnector.tasksMax}, or null when not declared
 * @param sourceConnectorConfig     declared {@code sourceConnector.config} entries, without the exactly-once keys
 * @param checkpointConnectorConfig declared {@code checkpointConnector.config} entries
 * @param exactlyOnce               true when the mirror's source connector is to run exactly-once
 * @param range                     the entry in the configuration, may be null
 */
public record DesiredMirror(
        String sourceAlias,
        String sourceBootstrap,
        Map<String, String> sourceClusterConfig,
        String topics,
        String groups,
        Integer tasksMax,
        Map<String, String> sourceConnectorConfig,
        Map<String, String> checkpointConnectorConfig,
        boolean exactlyOnce,
        SourceRange range) {

    /** Sorts the maps by key. */
    public DesiredMirror {
        sourceClusterConfig = Maps.sorted(sourceClusterConfig);
        sourceConnectorConfig = Maps.sorted(sourceConnectorConfig);
        checkpointConnectorConfig = Maps.sorted(checkpointConnectorConfig);
    }
}
