package dev.flowform.plan;

import dev.flowform.model.EosMode;

/**
 * A Kafka transactional ID that needs {@code Write} and {@code Describe} ACLs once a Connect cluster
 * runs with exactly-once support (Kafka docs connect.html "ACL requirements").
 *
 * @param connectCluster the Connect cluster's address, e.g. {@code connect_cluster.west}
 * @param transactionalId the ID: {@code connect-cluster-<groupId>} for the workers' leader
 *                        ({@code DistributedConfig.transactionalProducerId}), {@code <groupId>-<connector>-<task>}
 *                        for a source task ({@code Worker.taskTransactionalId})
 * @param connector      the connector whose task uses it, or null for the worker ID
 * @param task           the task number (from 0), or null for the worker ID
 * @param neededFrom     {@code preparing} for the worker ID, {@code enabled} for task IDs
 */
public record TransactionalId(String connectCluster, String transactionalId, String connector, Integer task,
                              EosMode neededFrom) {
}
