package dev.flowform.plan;

/** The kinds of steps an apply executes (docs/architecture.md). */
public enum StepKind {
    /** Create a KafkaConnect (new clusters start at {@code enabled} directly, KIP-618). */
    CREATE_CONNECT_CLUSTER,
    /** Change KafkaConnect spec fields other than the EOS mode; causes a rolling restart. */
    UPDATE_CONNECT_CLUSTER,
    /** Set {@code exactly.once.source.support} in the KafkaConnect {@code spec.config} (plus any other pending spec edits). */
    SET_WORKER_EOS,
    /**
     * Annotate an object without a new generation: {@code strimzi.io/use-connector-resources} on a KafkaConnect
     * (destructive for REST-only connectors), or the annotation that asks the operator to restart a FAILED task.
     */
    ANNOTATE,
    /**
     * Rewrite the ownership marks of an object that another environment or state lineage owned
     * ({@code --transfer-ownership}): annotations only, so no new generation and no restart.
     */
    TRANSFER_OWNERSHIP,
    /** Wait until the operator has rolled every worker for a generation (rule 7). */
    WAIT_FOR_ROLL,
    /** Create a KafkaConnector. */
    CREATE_CONNECTOR,
    /** Change a KafkaConnector's spec (or a KafkaMirrorMaker2's mirrors). */
    UPDATE_CONNECTOR,
    /**
     * Stop a connector before a change to its exactly-once settings ({@code spec.state: stopped}, KIP-875), marking the
     * state it returns to ({@link dev.flowform.plan.rules.StopBeforeChange}); no restart of the workers.
     */
    STOP_CONNECTOR,
    /** Delete a KafkaConnector flowform manages. */
    DELETE_CONNECTOR,
    /** Wait until a KafkaConnector and all its tasks run at the new generation (rule 8). */
    WAIT_FOR_CONNECTOR_READY,
    /**
     * Annotate a KafkaMirrorMaker2's StrimziPodSet {@code strimzi.io/manual-rolling-update: "true"} so that the
     * operator rolls every pod (Strimzi 0.46-0.48 do not roll them on a worker configuration change, PR 11926).
     */
    FORCE_ROLL,
    /**
     * Wait until a forced roll is over: the annotation is gone, every pod was created after it was set, every pod is
     * Ready and the KafkaMirrorMaker2 is Ready ({@link dev.flowform.plan.rules.ForcedRoll}).
     */
    WAIT_FOR_FORCED_ROLL;

    /** @return true for steps that change the cluster (as opposed to waits) */
    public boolean isMutation() {
        return this != WAIT_FOR_ROLL && this != WAIT_FOR_CONNECTOR_READY && this != WAIT_FOR_FORCED_ROLL;
    }

    /** @return true for steps whose patch makes Strimzi restart every worker */
    public boolean causesRoll() {
        return this == SET_WORKER_EOS || this == UPDATE_CONNECT_CLUSTER;
    }
}
