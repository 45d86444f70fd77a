package dev.flowform.connect;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The port between the embedded cluster's operator and kubelet and the Kafka Connect behind the worker pods, shaped
 * after the REST calls Strimzi's {@code AbstractConnectOperator} makes. Implemented in memory
 * ({@code sim.connect.SimulatedConnectRuntime}) and on real Kafka ({@code dev.flowform.kafka}). Workers are named by pod
 * ({@code namespace/podName}), connectors by cluster ({@code namespace/name}) and name. Implementations are thread-safe.
 */
public interface ConnectRuntime extends AutoCloseable {

    /**
     * Starts the Connect worker of one pod (the container start). Returns at once: the worker answers
     * {@link #healthy(String)} with true once it has started, as its {@code GET /health} does.
     * Starting a pod that already runs a worker stops that one first.
     *
     * @param worker the worker's pod and cluster, and its properties as the operator rendered them
     * @throws ConnectRuntimeException when the worker process cannot be launched at all
     */
    void startWorker(WorkerSpec worker);

    /**
     * @param pod {@code namespace/podName}
     * @return true when the pod's worker runs and reports itself healthy ({@code GET /health} 200)
     */
    boolean healthy(String pod);

    /**
     * Stops the worker of one pod: gracefully (SIGTERM, Connect's shutdown hook commits offsets and ends
     * transactions) or, with {@code kill}, abruptly (SIGKILL: open transactions are left to be fenced).
     * Blocks until the worker is gone; unknown pods are ignored.
     *
     * @param pod  {@code namespace/podName}
     * @param kill true for SIGKILL
     */
    void stopWorker(String pod, boolean kill);

    /**
     * {@code PUT /connectors/{name}/config}: creates or reconfigures a connector. The configuration is
     * validated by a worker of the cluster (KIP-618's preflight checks included).
     *
     * @param cluster {@code namespace/KafkaConnect name}
     * @param name    the connector name
     * @param config  the full connector configuration, {@code connector.class} included
     * @return 200/201 on success, 400 with Kafka's message when the configuration is invalid, 409 while
     *         the cluster rebalances, or an error when no worker of the cluster answers
     */
    RestResult putConnectorConfig(String cluster, String name, Map<String, String> config);

    /**
     * {@code GET /connectors/{name}/config} compared with what the operator would send; Strimzi PUTs only when they
     * differ ({@code maybeCreateOrUpdateConnector}).
     *
     * @param cluster {@code namespace/KafkaConnect name}
     * @param name    the connector name
     * @param config  the full configuration, {@code connector.class} (and {@code tasks.max}, when set) included
     * @return true when Kafka Connect stores exactly this configuration; false when another, none, or no worker answers
     */
    boolean holdsConfig(String cluster, String name, Map<String, String> config);

    /**
     * Moves a connector to a target state: {@code PUT /connectors/{name}/resume}, {@code /pause} or
     * {@code /stop}.
     *
     * @param cluster {@code namespace/KafkaConnect name}
     * @param name    the connector name
     * @param state   the wanted state
     * @return 202/204 on success, 404 when the connector does not exist
     */
    RestResult setTargetState(String cluster, String name, TargetState state);

    /**
     * {@code DELETE /connectors/{name}}.
     *
     * @param cluster {@code namespace/KafkaConnect name}
     * @param name    the connector name
     * @return 204 on success, 404 when it does not exist
     */
    RestResult deleteConnector(String cluster, String name);

    /**
     * {@code POST /connectors/{name}/tasks/{task}/restart}: restarts one task; a FAILED task runs again. Strimzi's
     * operator calls it for the {@code strimzi.io/restart-connector-task} annotation.
     *
     * @param cluster {@code namespace/KafkaConnect name}
     * @param name    the connector name
     * @param task    the task id
     * @return 204 on success, 404 when the connector or the task does not exist
     */
    RestResult restartTask(String cluster, String name, int task);

    /**
     * {@code GET /connectors/{name}/status}.
     *
     * @param cluster {@code namespace/KafkaConnect name}
     * @param name    the connector name
     * @return the status, or empty when the connector does not exist or no worker answers
     */
    Optional<ConnectorStatus> status(String cluster, String name);

    /**
     * {@code GET /connectors}.
     *
     * @param cluster {@code namespace/KafkaConnect name}
     * @return the names of the connectors Kafka Connect runs for that cluster (empty when none answers)
     */
    Set<String> connectors(String cluster);

    /**
     * {@code GET /connectors/{name}/topics} (KIP-558): the topics the connector used since it was created or
     * its active topics were reset, which Strimzi copies into {@code KafkaConnector.status.topics}.
     *
     * @param cluster {@code namespace/KafkaConnect name}
     * @param name    the connector name
     * @return the topic names; empty when there are none, the connector does not exist or topic tracking
     *         is off (this default)
     */
    default List<String> topics(String cluster, String name) {
        return List.of();
    }

    /** Stops every worker and releases what the runtime holds. */
    @Override
    void close();

    /** Connector target states of the Connect REST API. */
    enum TargetState {
        /** {@code PUT /connectors/{name}/resume}. */
        RUNNING,
        /** {@code PUT /connectors/{name}/pause}. */
        PAUSED,
        /** {@code PUT /connectors/{name}/stop} (Kafka 3.5+, KIP-875). */
        STOPPED
    }
}
