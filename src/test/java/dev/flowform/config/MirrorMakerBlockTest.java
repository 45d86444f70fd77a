package dev.flowform.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostics;
import dev.flowform.model.DesiredMirror;
import dev.flowform.model.DesiredMirrorMaker2;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.ManageMode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@code mirrormaker2} block: decoding, derivation, and the keys it refuses where MirrorMaker 2 would misuse them. */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class MirrorMakerBlockTest {

    private final ConfigLoader loader = new ConfigLoader();

    @TempDir
    Path tmp;

    @Test
    void the_example_adopts_its_kafka_mirror_maker_2_with_exactly_once() {
        LoadResult result = loader.load(Path.of("examples", "mirrormaker2"), "mm2-demo", Map.of());

        assertThat(Fixtures.errors(result)).isEmpty();
        Diagnostics diags = new Diagnostics();
        DesiredState desired = DesiredStateFactory.build(result.configuration(), diags);
        assertThat(desired.mirrorMakers()).singleElement().satisfies(m -> {
            assertThat(m.address()).isEqualTo("mirrormaker2.mm2");
            assertThat(m.namespace()).isEqualTo("mirror");
            assertThat(m.manage()).isEqualTo(ManageMode.ADOPT);
            assertThat(m.eos()).isEqualTo(EosMode.ENABLED);
            assertThat(m.targetAlias()).isEqualTo("dc2");
            assertThat(m.mirrors()).extracting(DesiredMirror::sourceAlias, DesiredMirror::exactlyOnce)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("dc1", true));
        });
    }

    @Test
    void an_owned_block_reads_every_argument() {
        Fixtures.writeMain(tmp, """
                {"environment": {"prod": {"namespace": "mm"}},
                 "mirrormaker2": {"eu": {"replicas": 2, "version": "3.9.0",
                   "target": {"alias": "dc2", "bootstrap_servers": "dc2:9092", "config": {"group.id": "eu"}},
                   "mirror": [{"source": {"alias": "dc1", "bootstrap_servers": "dc1:9092"}, "topics": "orders.*",
                               "groups": ".*", "tasks_max": 4, "source_connector": {"replication.factor": 3},
                               "checkpoint_connector": {"emit.checkpoints.interval.seconds": 10}}]}}}
                """);
        LoadResult result = loader.load(tmp, "prod", Map.of());

        assertThat(Fixtures.errors(result)).isEmpty();
        DesiredMirrorMaker2 m = DesiredStateFactory.build(result.configuration(), new Diagnostics()).mirrorMakers().get(0);
        assertThat(m.manage()).isEqualTo(ManageMode.OWN);
        assertThat(m.eos()).isEqualTo(EosMode.DISABLED);
        assertThat(m.replicas()).isEqualTo(2);
        assertThat(m.targetBootstrap()).isEqualTo("dc2:9092");
        assertThat(m.config()).containsExactly(Map.entry("group.id", "eu"));
        DesiredMirror mirror = m.mirrors().get(0);
        assertThat(mirror.sourceBootstrap()).isEqualTo("dc1:9092");
        assertThat(mirror.topics()).isEqualTo("orders.*");
        assertThat(mirror.tasksMax()).isEqualTo(4);
        assertThat(mirror.sourceConnectorConfig()).containsExactly(Map.entry("replication.factor", "3"));
        assertThat(mirror.checkpointConnectorConfig()).containsExactly(Map.entry("emit.checkpoints.interval.seconds", "10"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "isolation.level in the source cluster's config|\"source\": {\"alias\": \"dc1\", \"config\": {\"isolation.level\": \"read_committed\"}}|isolation.level where MirrorMaker 2 drops it|rule mm2-read-committed",
        "consumer.isolation.level in the source cluster's config|\"source\": {\"alias\": \"dc1\", \"config\": {\"consumer.isolation.level\": \"read_committed\"}}|isolation.level where MirrorMaker 2 drops it|rule mm2-read-committed",
        "required on the checkpoint connector|\"source\": {\"alias\": \"dc1\"}, \"checkpoint_connector\": {\"exactly.once.support\": \"required\"}|exactly.once.support on the checkpoint connector|rule required-on-source-only",
        "exactly-once key in the source connector|\"source\": {\"alias\": \"dc1\"}, \"source_connector\": {\"exactly.once.support\": \"required\"}|Conflicting configuration key|rule connector-required-after-enabled"})
    void refuses_keys_mirror_maker_2_would_misuse(String name, String mirror, String summary, String rule) {
        Fixtures.writeMain(tmp, "{\"environment\": {\"prod\": {\"namespace\": \"mm\"}}, \"mirrormaker2\": {\"eu\": {"
                + "\"manage\": \"adopt\", \"target\": {\"alias\": \"dc2\"}, \"mirror\": [{" + mirror + "}]}}}");
        LoadResult result = loader.load(tmp, "prod", Map.of());

        assertThat(result.configuration()).isNull();
        assertThat(Fixtures.errors(result)).singleElement().satisfies(line -> assertThat(line)
                .startsWith("main.flow.json:1:").contains(summary + ": ").contains("(" + rule + ";"));
    }

    @Test
    void a_block_without_target_or_mirror_is_refused_at_its_label() {
        Fixtures.writeMain(tmp, "{\"environment\": {\"prod\": {\"namespace\": \"mm\"}}, \"mirrormaker2\": {\"eu\": {"
                + "\"manage\": \"adopt\"}}}");
        LoadResult result = loader.load(tmp, "prod", Map.of());

        assertThat(result.configuration()).isNull();
        assertThat(Fixtures.errors(result)).hasSize(2).allSatisfy(line -> assertThat(line).contains("Missing required block"));
    }
}
