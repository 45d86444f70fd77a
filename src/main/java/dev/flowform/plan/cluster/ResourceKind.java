package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredWorkers;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import dev.flowform.plan.TransactionalId;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What differs between the two Connect-family resources the planner plans through one path ({@link ClusterFacts},
 * {@link ClusterGuards}, {@link StepSequencer}), as Strimzi reconciles both through one {@code AbstractConnectOperator}:
 * a KafkaConnect whose connectors are KafkaConnectors of the flows on it ({@link ConnectKind}), or a KafkaMirrorMaker2
 * whose connectors are its mirrors, part of the resource itself ({@link MirrorMakerKind}). The rules are the same for
 * both (docs/domain-rules.md); this says where the layouts differ and how messages name things. Pure.
 */
sealed interface ResourceKind permits ConnectKind, MirrorMakerKind {

    /** @return the resource as declared */
    DesiredWorkers desired();

    /** @return the live object, or the one to create */
    ObjectRef ref();

    /** @return the block type of the configuration: {@code connect_cluster} or {@code mirrormaker2} */
    String blockType();

    /** @return how messages name the block: {@code connect_cluster "west"} */
    default String block() {
        return blockType() + " \"" + desired().name() + "\"";
    }

    /** @return how messages name the object: {@code KafkaConnect ns/name} */
    default String who() {
        return ref().kind() + " " + desired().namespace() + "/" + desired().name();
    }

    // ------------------------------------------------------------------------------------------ the resource

    /** @return the path of the worker configuration that holds {@value EosMode#CONFIG_KEY} */
    List<String> workerConfigPath();

    /**
     * @param scope the plan's scope
     * @return the object to create, with its final mode
     */
    Map<String, Object> manifest(PlanScope scope);

    /** @return the configuration keys of the manifest whose values are sensitive */
    Set<String> sensitiveKeys();

    /** @return why the plan creates the resource */
    Change.Reason creationReason();

    /**
     * @param mode the mode set
     * @param more the number of other worker edits in the same patch
     * @return the summary of a {@code SET_WORKER_EOS} step
     */
    String setModeSummary(EosMode mode, int more);

    /**
     * @param edits the number of worker edits
     * @return the summary of a worker update without a mode change
     */
    String updateSummary(int edits);

    /**
     * @param mode   the mode the workers restart with, or null for "the new configuration"
     * @param forced true when the operator only writes the configuration and flowform forces the roll
     * @return the summary of the roll wait after a worker step
     */
    String rolledSummary(EosMode mode, boolean forced);

    /**
     * @param f the facts
     * @return the verdict on the Strimzi {@code v1} layout: keys it ignores, fields it requires
     */
    Verdict v1Layout(ClusterFacts f);

    // ------------------------------------------------------------------------------------------ the connectors

    /** @return true when the plan writes a connector (for a KafkaMirrorMaker2: a mirror, which is the resource) */
    boolean connectorsChange();

    /** @return true when the connectors are part of the resource, so their changes are changes of the resource */
    boolean connectorsInResource();

    /** @return true when a connector write needs every worker at {@code enabled} (a connector that requires it) */
    boolean connectorsNeedEnabled();

    /** @return true when the plan creates or updates a connector (one that cannot run without workers) */
    boolean writesConnectors();

    /** @return how messages name those writes: {@code the KafkaConnector changes} */
    String connectorWrites();

    /** @return true when a declared connector is to run exactly-once */
    boolean exactlyOnceConnectors();

    /**
     * @param f the facts
     * @return what was found about the connectors; a KafkaConnect leaves a refused connector out, a KafkaMirrorMaker2
     *         (one object) is refused
     */
    Verdict connectors(ClusterFacts f);

    /**
     * @param f the facts
     * @return the warnings that come with an accepted plan and are the kind's own (none for a KafkaConnect)
     */
    Verdict accepted(ClusterFacts f);

    /**
     * @param f the facts of a resource whose plan goes ahead
     * @return the FAILED tasks to restart through the operator
     */
    List<TaskRestart> restarts(ClusterFacts f);

    /**
     * Adds the connector steps (and, for a KafkaConnect, the connectors' changes).
     *
     * @param s    the sequencer
     * @param mode the workers' mode when the steps run
     */
    void connectorSteps(StepSequencer s, EosMode mode);

    /**
     * Adds what the resource's own change shows of the connectors (a KafkaMirrorMaker2's mirrors).
     *
     * @param f       the facts
     * @param attrs   the attribute changes so far
     * @param reasons the reasons so far
     */
    void resourceChange(ClusterFacts f, List<AttributeChange> attrs, List<Change.Reason> reasons);

    /** @return the changes listed after the steps' own (the connectors the operator deletes or creates) */
    List<Change> trailingChanges();

    /**
     * @param f     the facts
     * @param chain the steps the sequencer emitted
     * @return the IDs that need ACLs once the chain has run
     */
    List<TransactionalId> transactionalIds(ClusterFacts f, List<Draft> chain);

    /** @return address of each declared connector to the address of its flow (for {@code --target}) */
    Map<String, String> flowOf();
}
