package dev.flowform.plan;

import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.StrimziApi;
import java.util.Map;

/**
 * The one world builder for both kinds of the Connect family: a KafkaConnect with the quickstart's flow
 * ({@link World}) or a KafkaMirrorMaker2 with one mirror ({@link MirrorMakerWorld}), put in the same situation by the
 * same knobs, with the configuration that adopts it. Tests that state a rule once for both kinds, and the golden-plan
 * harness, build their worlds here; what only one kind has is set on the world itself.
 */
interface FamilyWorld {

    /** The two kinds the planner plans through one path. */
    enum Kind { KAFKA_CONNECT, KAFKA_MIRROR_MAKER_2 }

    /**
     * @param kind the kind
     * @param api  the API version and layout
     * @param mode the workers' {@code exactly.once.source.support} in the spec, or null for unset
     * @return a world whose workers rolled to {@code mode} and whose connectors all run, without exactly-once keys
     */
    static FamilyWorld of(Kind kind, StrimziApi api, String mode) {
        return kind == Kind.KAFKA_CONNECT ? World.quickstart(api, mode, World.Roll.ROLLED, null)
                : new MirrorMakerWorld(mode, api == StrimziApi.V1);
    }

    /**
     * @param roll    how far the operator got with the current generation ({@link World.Roll#PAUSED} also sets
     *                {@code strimzi.io/pause-reconciliation})
     * @param podsRun the mode workers not yet rolled still run, or null
     * @return this world
     */
    FamilyWorld roll(World.Roll roll, EosMode podsRun);

    /** @return this world with {@code spec.version} set */
    FamilyWorld version(String version);

    /** @return this world with {@code spec.replicas} set */
    FamilyWorld replicas(int replicas);

    /** @return this world with one worker configuration entry set */
    FamilyWorld workerConfig(String key, String value);

    /** @return this world whose source connector requires exactly-once already (read_committed, required) */
    FamilyWorld sourceExactlyOnce();

    /** @return this world whose source connector runs with a FAILED task */
    FamilyWorld failSourceTask();

    /** @return the live state a reader would return */
    LiveState toLive();

    /**
     * @param exactlyOnce  whether the flow or mirror is to run exactly-once
     * @param workerConfig declared worker configuration
     * @return the configuration that adopts this world's resource
     */
    DesiredState adopt(boolean exactlyOnce, Map<String, String> workerConfig);

    /** @return the resource's address */
    String address();
}
