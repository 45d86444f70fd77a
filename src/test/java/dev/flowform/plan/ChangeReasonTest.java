package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * A change's reasons render the words the plan document keeps, and a document's words are read back into the
 * same reasons.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ChangeReasonTest {

    @Test
    void every_reason_in_the_golden_plans_is_read_back_as_a_reason_this_version_writes() throws IOException {
        List<String> seen = new ArrayList<>();
        try (Stream<Path> folders = Files.list(Path.of("src", "test", "resources", "golden-plans"))) {
            for (Path folder : folders.sorted().toList()) {
                Plan plan = PlanCodec.decode(Files.readString(folder.resolve("plan.json")));
                for (Change c : plan.changes()) {
                    assertThat(c.codes()).as("%s %s: %s", folder.getFileName(), c.address(), c.reason())
                            .isNotEmpty().doesNotContain(ChangeReason.OTHER);
                    c.codes().forEach(r -> seen.add(r.name()));
                }
            }
        }
        assertThat(seen).contains("CONNECT_CLUSTER_MISSING", "EOS_ROLLOUT", "EOS_MODE_UP", "EOS_MODE_DOWN", "SPEC_CHANGED",
                "NEW_CLUSTER_IDENTITY", "CONNECTOR_MISSING", "CONNECTOR_EOS_ON", "CONNECTOR_EOS_OFF", "CONNECTOR_CONFIG",
                "NO_FLOW");
    }

    @Test
    void joined_words_split_only_where_a_whole_reason_ends_and_another_begins() {
        Change.Reason identity = ChangeReason.NEW_CLUSTER_IDENTITY.of("group id \"a\" -> \"b\": new transactional IDs, the "
                + "old ones not fenced; offsets topic \"a-offsets\" -> \"b-offsets\": source offsets not carried over");
        Change.Reason transfer = ChangeReason.OWNERSHIP_TAKEN_OVER.of("environment \"staging\" (lineage l-1)");
        Change planned = new Change("connect_cluster.west", null, Action.UPDATE, List.of(),
                List.of(ChangeReason.SPEC_CHANGED.of(), identity, transfer));

        List<Change.Reason> read = ChangeReason.read(planned.reason());

        assertThat(read).isEqualTo(planned.reasons());
        assertThat(read).extracting(Change.Reason::code).containsExactly(ChangeReason.SPEC_CHANGED,
                ChangeReason.NEW_CLUSTER_IDENTITY, ChangeReason.OWNERSHIP_TAKEN_OVER);
    }

    @Test
    void words_this_version_does_not_write_are_kept_as_they_are() {
        assertThat(ChangeReason.read("the operator asked for it; twice")).containsExactly(
                new Change.Reason(ChangeReason.OTHER, "the operator asked for it; twice"));
        assertThat(ChangeReason.read(null)).isEmpty();
    }

    @Test
    void a_reason_takes_exactly_the_values_its_words_name() {
        assertThat(ChangeReason.EOS_MODE_DOWN.of("enabled", "disabled").words()).isEqualTo("exactly.once.source.support "
                + "enabled -> disabled, one rolling restart, after the connectors (KIP-618 reverse order)");
        assertThatThrownBy(() -> ChangeReason.CONNECTOR_MISSING.of()).isInstanceOf(IllegalArgumentException.class);
    }
}
