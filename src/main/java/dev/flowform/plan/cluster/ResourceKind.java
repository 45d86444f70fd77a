package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredWorkers;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.AttributeChange;
import dev.flowform.plan.Change;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What differs between the two Connect-family resources planned through one path ({@link ClusterFacts},
 * {@link ClusterGuards}, {@link StepSequencer}), as Strimzi reconciles both through one {@code AbstractConnectOperator}:
 * a KafkaConnect whose connectors are KafkaConnectors of its flows ({@link ConnectKind}), or a KafkaMirrorMaker2 whose
 * connectors are its mirrors, part of the resource ({@link MirrorMakerKind}). The rules are the same for both
 * (docs/domain-rules.md); this says where the layouts differ and how messages name things. Pure.
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

    /** @return the path of the worker configuration that holds {@value EosMode#CONFIG_KEY} */
    List<String> workerConfigPath();

    /** @return the object to create, with its final mode and the ownership marks of {@code scope} */
    Map<String, Object> manifest(PlanScope scope);

    /** @return the configuration keys of the manifest whose values are sensitive */
    Set<String> sensitiveKeys();

    /** @return why the plan creates the resource */
    Change.Reason creationReason();

    /** @return the summary of a {@code SET_WORKER_EOS} step to {@code mode} with {@code more} other worker edits */
    String setModeSummary(EosMode mode, int more);

    /** @return the summary of a worker update of {@code edits} edits without a mode change */
    String updateSummary(int edits);

    /**
     * @return the summary of the roll wait after a worker step to {@code mode} (null: the new configuration), where
     *         {@code forced} says that the operator only writes the configuration and flowform forces the roll
     */
    String rolledSummary(EosMode mode, boolean forced);

    /** @return the verdict on what the Strimzi {@code v1} layout ignores or requires */
    Verdict v1Layout(ClusterFacts f);

    /** @return true when the plan writes a connector (for a KafkaMirrorMaker2: a mirror, which is the resource) */
    boolean connectorsChange();

    /** @return true when the connectors are part of the resource, so their changes are the resource's */
    boolean connectorsInResource();

    /** @return true when a connector write needs every worker at {@code enabled} (the connector requires it) */
    boolean connectorsNeedEnabled();

    /** @return true when the plan creates or updates a connector, which cannot run without workers */
    boolean writesConnectors();

    /** @return how messages name those writes: {@code the KafkaConnector changes} */
    String connectorWrites();

    /** @return true when a declared connector is to run exactly-once */
    boolean exactlyOnceConnectors();

    /**
     * @return what was found about the connectors; a KafkaConnect leaves a refused connector out, a KafkaMirrorMaker2
     *         (one object) is refused
     */
    Verdict connectors(ClusterFacts f);

    /** @return the kind's own warnings that come with an accepted plan */
    Verdict accepted(ClusterFacts f);

    /** @return the FAILED tasks to restart through the operator, for a plan that goes ahead */
    List<TaskRestart> restarts(ClusterFacts f);

    /** Adds the connector steps (and a KafkaConnect's connector changes) while the workers run {@code mode}. */
    void connectorSteps(StepSequencer s, EosMode mode);

    /** Adds what the resource's own change shows of its connectors (a KafkaMirrorMaker2's mirrors). */
    void resourceChange(ClusterFacts f, List<AttributeChange> attrs, List<Change.Reason> reasons);

    /** @return the changes listed after the steps' own (the connectors the operator deletes or creates) */
    List<Change> trailingChanges();

    /** @return the Connect group id the workers run with once the plan is applied */
    String groupId();

    /** @return the tasks each connector can run, by connector name ({@link TransactionalIds}) */
    Map<String, Integer> taskCounts(ClusterFacts f);

    /** @return address of each declared connector to the address of its flow (for {@code --target}) */
    Map<String, String> flowOf();
}
