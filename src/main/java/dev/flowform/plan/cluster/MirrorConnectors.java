package dev.flowform.plan.cluster;

import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.LiveMirrorMaker2;
import dev.flowform.model.ManageMode;
import dev.flowform.model.Maps;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The group id and the connectors of a KafkaMirrorMaker2 for {@link TransactionalIds}: the target's group id
 * ({@code spec.target.groupId} in {@code v1}, {@code config."group.id"} in {@code v1beta2}, default
 * {@value #STRIMZI_DEFAULT_GROUP_ID}) and Strimzi's connector names per mirror ({@code KafkaMirrorMaker2Connectors}).
 * Pure.
 */
final class MirrorConnectors {

    /** The Connect group id of a {@code v1beta2} KafkaMirrorMaker2 whose target entry sets none. */
    static final String STRIMZI_DEFAULT_GROUP_ID = "mirrormaker2-cluster";

    private MirrorConnectors() {
    }

    /**
     * Tasks per connector, the upper bound Connect can use: the block's {@code tasksMax} (declared, else live, else 1;
     * heartbeat always 1), new mirrors' source and checkpoint connectors, and under adopt the undeclared live mirrors.
     * {@code live} is null when the resource is to be created.
     *
     * @return the tasks per connector, by name
     */
    static Map<String, Integer> tasks(DesiredMirrorMaker2 dm, LiveMirrorMaker2 live) {
        String target = dm.targetAlias() != null ? dm.targetAlias() : live == null ? null : live.target();
        Map<String, Integer> tasks = new TreeMap<>();
        Set<String> sources = new LinkedHashSet<>();
        for (DesiredMirror m : dm.mirrors()) {
            sources.add(m.sourceAlias());
            Map<String, Object> entry = live == null ? null : live.mirror(m.sourceAlias()).map(LiveMirrorMaker2.Mirror::raw)
                    .orElse(null);
            connectors(m.sourceAlias(), target, entry, m.tasksMax(), tasks);
        }
        if (live != null && dm.manage() == ManageMode.ADOPT) {
            live.mirrors().stream().filter(l -> l.source() != null && !sources.contains(l.source()))
                    .forEach(l -> connectors(l.source(), target, l.raw(), null, tasks));
        }
        return tasks;
    }

    /** @return the Connect group id the workers run with once the plan is applied */
    static String groupId(DesiredMirrorMaker2 dm, LiveMirrorMaker2 live) {
        String declared = dm.config().get("group.id");
        if (declared != null) {
            return declared;
        }
        if (live != null) {
            Object g = live.v1Layout() ? Maps.object(live.workers().spec().get("target")).get("groupId")
                    : live.workers().config().get("group.id");
            if (g != null) {
                return g.toString();
            }
        }
        return STRIMZI_DEFAULT_GROUP_ID;
    }

    /** Adds the connectors of one mirror with their task counts; {@code entry} (live) is null for a new mirror. */
    private static void connectors(String source, String target, Map<String, Object> entry, Integer declaredTasks,
                                   Map<String, Integer> tasks) {
        Map<String, Object> sourceBlock = entry == null ? Map.of() : Maps.object(entry.get("sourceConnector"));
        tasks.put(MirrorMaker2Names.sourceConnector(source, target),
                declaredTasks != null ? declaredTasks : tasksMax(sourceBlock));
        if (entry == null || entry.get("checkpointConnector") instanceof Map<?, ?>) {
            tasks.put(MirrorMaker2Names.checkpointConnector(source, target),
                    tasksMax(entry == null ? Map.of() : Maps.object(entry.get("checkpointConnector"))));
        }
        if (entry != null && entry.get("heartbeatConnector") instanceof Map<?, ?>) {
            tasks.put(MirrorMaker2Names.heartbeatConnector(source, target), 1);
        }
    }

    /** @return the block's {@code tasksMax} when it is a positive whole number, else Connect's default 1 */
    private static int tasksMax(Map<String, Object> block) {
        return block.get("tasksMax") instanceof Number n && n.intValue() > 0 ? n.intValue() : 1;
    }
}
