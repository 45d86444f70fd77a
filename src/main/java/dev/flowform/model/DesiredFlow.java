package dev.flowform.model;

import dev.flowform.diag.SourceRange;
import java.util.List;

/**
 * A {@code replication_flow} block after variables are resolved.
 *
 * @param address        e.g. {@code replication_flow.east-to-west} or {@code module.m.replication_flow.f}
 * @param name           the flow name; connectors are named {@code <name>-source} etc.
 * @param connectCluster the KafkaConnect name it runs on
 * @param namespace      the Connect cluster's namespace
 * @param manage         ownership of its connectors
 * @param exactlyOnce    true when the flow wants EOS
 * @param connectors     the connectors it becomes (source first)
 * @param range          the block in the configuration, may be null
 */
public record DesiredFlow(
        String address,
        String name,
        String connectCluster,
        String namespace,
        ManageMode manage,
        boolean exactlyOnce,
        List<DesiredConnector> connectors,
        SourceRange range) {
    public DesiredFlow {
        connectors = List.copyOf(connectors);
    }
}
