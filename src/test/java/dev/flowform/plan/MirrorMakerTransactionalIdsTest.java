package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The transactional IDs a KafkaMirrorMaker2 plan lists for ACLs: the Connect group id of the target cluster
 * (Strimzi's default when none is set), and one ID per task of every MirrorMaker 2 connector the resource runs.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class MirrorMakerTransactionalIdsTest {

    @Test
    void an_eos_rollout_lists_the_leader_and_every_task_of_the_source_checkpoint_and_heartbeat_connectors() {
        MirrorMakerWorld w = new MirrorMakerWorld(null);
        w.mirrorEntry().put("heartbeatConnector", new LinkedHashMap<>(Map.of("config", Map.of())));

        assertThat(ids(MirrorMakerWorld.adopt(true), w.toLive())).containsExactly(
                "connect-cluster-mm2-cluster",
                "mm2-cluster-dc1->dc2.MirrorCheckpointConnector-0",
                "mm2-cluster-dc1->dc2.MirrorHeartbeatConnector-0",
                "mm2-cluster-dc1->dc2.MirrorSourceConnector-0",
                "mm2-cluster-dc1->dc2.MirrorSourceConnector-1");
    }

    @Test
    @SuppressWarnings("unchecked")
    void without_a_group_id_the_workers_use_strimzis_default_and_a_v1_resource_its_target_group_id() {
        MirrorMakerWorld v1beta2 = new MirrorMakerWorld(null);
        v1beta2.workerConfig().remove("group.id");
        MirrorMakerWorld v1 = new MirrorMakerWorld(null, true);
        ((Map<String, Object>) v1.spec.get("target")).put("groupId", "v1-group");

        assertThat(ids(MirrorMakerWorld.adopt(true), v1beta2.toLive())).first().isEqualTo("connect-cluster-mirrormaker2-cluster");
        assertThat(ids(MirrorMakerWorld.adopt(true), v1.toLive())).first().isEqualTo("connect-cluster-v1-group");
    }

    @Test
    void a_new_resource_uses_the_declared_group_id_and_tasks_max() {
        DesiredMirrorMaker2 create = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.OWN, null,
                1, null, "dc2", "dc2:9092", Map.of("group.id", "declared"), List.of(new DesiredMirror("dc1", "dc1:9092",
                Map.of(), null, null, 3, Map.of(), Map.of(), true, null)), Set.of(), null).derived("replication");

        assertThat(ids(create, LiveState.empty(StrimziApi.V1BETA2))).containsExactly("connect-cluster-declared",
                "declared-dc1->dc2.MirrorCheckpointConnector-0", "declared-dc1->dc2.MirrorSourceConnector-0",
                "declared-dc1->dc2.MirrorSourceConnector-1", "declared-dc1->dc2.MirrorSourceConnector-2");
    }

    @Test
    void an_adopted_resource_keeps_its_undeclared_mirrors_and_they_count() {
        MirrorMakerWorld w = new MirrorMakerWorld(null);
        @SuppressWarnings("unchecked")
        List<Object> mirrors = (List<Object>) w.spec.get("mirrors");
        Map<String, Object> other = new LinkedHashMap<>(w.mirrorEntry());
        other.put("sourceCluster", "dc3");
        other.remove("checkpointConnector");
        mirrors.add(other);

        assertThat(ids(MirrorMakerWorld.adopt(true), w.toLive())).contains("mm2-cluster-dc3->dc2.MirrorSourceConnector-1")
                .doesNotContain("mm2-cluster-dc3->dc2.MirrorCheckpointConnector-0");
    }

    @Test
    void preparing_lists_only_the_leader_and_disabled_or_no_change_nothing() {
        DesiredMirrorMaker2 preparing = new DesiredMirrorMaker2("mirrormaker2.mm2", "mm2", "replication", ManageMode.ADOPT,
                EosMode.PREPARING, null, null, "dc2", null, Map.of(), List.of(MirrorMakerWorld.mirror(false)), Set.of(), null)
                .derived("replication");

        assertThat(ids(preparing, new MirrorMakerWorld(null).toLive())).containsExactly("connect-cluster-mm2-cluster");
        assertThat(ids(MirrorMakerWorld.adopt(false), new MirrorMakerWorld("enabled").toLive())).isEmpty();
        MirrorMakerWorld done = new MirrorMakerWorld("enabled");
        done.sourceConfig().put("source.consumer.isolation.level", "read_committed");
        done.sourceConfig().put("exactly.once.support", "required");
        assertThat(ids(MirrorMakerWorld.adopt(true), done.toLive())).as("nothing to change").isEmpty();
    }

    private static List<String> ids(DesiredMirrorMaker2 dm, LiveState live) {
        Plan plan = MirrorMakerPlannerTest.plan(dm, live);
        assertThat(plan.diagnostics().stream().filter(d -> d.isError()).toList()).isEmpty();
        List<String> out = new ArrayList<>();
        plan.transactionalIds().forEach(t -> out.add(t.transactionalId()));
        return out;
    }
}
