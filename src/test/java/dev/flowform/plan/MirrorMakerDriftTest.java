package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * Drift of a KafkaMirrorMaker2 (pure): the live object compared with the state's snapshot of it, entries addressed by
 * their selector in both layouts, credentials compared as hashes and never shown, and what the plan does about it.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class MirrorMakerDriftTest {

    private static final UnaryOperator<String> HASH = v -> "sha256:" + Integer.toHexString(v.hashCode());
    private static final String JAAS = "ScramLoginModule required username=\"mm2\" password=\"%s\";";

    private static RecordedResource snapshot(LiveState live) {
        @SuppressWarnings("unchecked")
        Map<String, Object> copy = Json.MAPPER.readValue(Json.render(live.mirrorMakers().get(0).workers().raw()), Map.class);
        return new RecordedResource("mirrormaker2.mm2", "KafkaMirrorMaker2", MirrorMakerWorld.NS, MirrorMakerWorld.NAME,
                Drift.secretFree(copy, HASH), 3);
    }

    private static Plan plan(DesiredMirrorMaker2 m, LiveState live, RecordedResource recorded, boolean refreshOnly) {
        return Planner.plan(MirrorMakerWorld.desired(m), live, new PlanRequest("prod", null,
                Instant.parse("2026-12-01T00:00:00Z"), PlanOptions.DEFAULT.withRefreshOnly(refreshOnly), List.of(recorded),
                HASH));
    }

    @Test
    void an_unchanged_mirror_maker_has_no_drift() {
        MirrorMakerWorld world = new MirrorMakerWorld("disabled");
        world.sourceClusterConfig().put("sasl.jaas.config", JAAS.formatted("pw-old"));
        RecordedResource recorded = snapshot(world.toLive());
        assertThat(Json.render(recorded.body())).doesNotContain("pw-old");
        assertThat(plan(MirrorMakerWorld.adopt(false), world.toLive(), recorded, true).drift()).isEmpty();
    }

    @Test
    void changes_outside_flowform_are_drift_by_entry_and_a_changed_password_shows_masked() {
        MirrorMakerWorld world = new MirrorMakerWorld("disabled");
        world.sourceClusterConfig().put("sasl.jaas.config", JAAS.formatted("pw-old"));
        RecordedResource recorded = snapshot(world.toLive());
        world.mirrorEntry().put("topicsPattern", "payments.*");
        world.sourceClusterConfig().put("sasl.jaas.config", JAAS.formatted("pw-new"));

        Plan p = plan(MirrorMakerWorld.adopt(false), world.toLive(), recorded, true);
        assertThat(p.drift()).singleElement().satisfies(e -> {
            assertThat(e.address()).isEqualTo("mirrormaker2.mm2");
            assertThat(e.object().kind()).isEqualTo("KafkaMirrorMaker2");
            assertThat(e.attributes()).extracting(AttributeChange::path).containsExactly(
                    "spec.clusters[alias=dc1].config.\"sasl.jaas.config\"", "spec.mirrors[sourceCluster=dc1].topicsPattern");
            assertThat(e.attributes().get(0).sensitive()).isTrue();
            assertThat(e.attributes().get(1).after()).isEqualTo("\"payments.*\"");
            assertThat(e.resolution()).contains("refresh-only plan records the live values");
        });
        String json = PlanCodec.encode(p, "test", PlanCodec.MASK).toString();
        assertThat(json).doesNotContain("pw-old", "pw-new").contains("payments.*");
    }

    @Test
    void a_drifted_field_the_configuration_sets_is_set_back_and_the_others_are_left() {
        MirrorMakerWorld world = new MirrorMakerWorld("disabled");
        RecordedResource recorded = snapshot(world.toLive());
        world.mirrorEntry().put("topicsPattern", "payments.*");
        world.mirrorEntry().put("groupsPattern", "g.*");
        DesiredMirror declared = new DesiredMirror("dc1", null, Map.of(), ".*", null, null, Map.of(), Map.of(), false, null);

        Plan p = plan(MirrorMakerWorld.block(ManageMode.ADOPT, List.of(declared)), world.toLive(), recorded, false);
        assertThat(p.drift()).singleElement().satisfies(e -> {
            assertThat(e.reverted()).containsExactly("spec.mirrors[sourceCluster=dc1].topicsPattern");
            assertThat(e.resolution()).contains("flowform will set back spec.mirrors[sourceCluster=dc1].topicsPattern");
        });
        assertThat(p.changes()).singleElement().satisfies(c -> assertThat(c.attributes())
                .extracting(AttributeChange::path).contains("spec.mirrors[sourceCluster=dc1].topicsPattern"));
    }

    @Test
    void the_v1_layout_addresses_the_mirror_by_its_source_alias_and_sees_the_target_config() {
        MirrorMakerWorld world = new MirrorMakerWorld("disabled", true);
        RecordedResource recorded = snapshot(world.toLive());
        world.mirrorEntry().put("topicsPattern", "payments.*");
        world.workerConfig().put("ssl.truststore.password", "pw-v1");

        Plan p = plan(MirrorMakerWorld.adopt(false), world.toLive(), recorded, true);
        assertThat(p.drift()).singleElement().satisfies(e -> assertThat(e.attributes())
                .extracting(AttributeChange::path).containsExactly(
                        "spec.mirrors[source.alias=dc1].topicsPattern", "spec.target.config.\"ssl.truststore.password\""));
        assertThat(PlanCodec.encode(p, "test", PlanCodec.MASK).toString()).doesNotContain("pw-v1");
    }

    @Test
    void a_deleted_mirror_maker_is_drift_and_one_no_longer_declared_is_not() {
        MirrorMakerWorld world = new MirrorMakerWorld("disabled");
        RecordedResource recorded = snapshot(world.toLive());
        LiveState gone = new LiveState(world.api, "https://k8s.test", List.of(), List.of(), Map.of(), List.of());
        assertThat(plan(MirrorMakerWorld.adopt(false), gone, recorded, true).drift()).singleElement()
                .satisfies(e -> assertThat(e.deleted()).isTrue());
        RecordedResource other = new RecordedResource("mirrormaker2.old", "KafkaMirrorMaker2", MirrorMakerWorld.NS, "old",
                recorded.body(), 3);
        assertThat(plan(MirrorMakerWorld.adopt(false), gone, other, true).drift()).isEmpty();
    }
}
