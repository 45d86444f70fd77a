package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The ownership guard and marks on a KafkaMirrorMaker2 (pure), with a KafkaConnect's semantics: another environment's
 * or lineage's resource is refused, {@code --transfer-ownership mirrormaker2.NAME} takes it over in a step of its own,
 * an unmarked one gets the marks with its first write (annotations only, never labels: Strimzi copies the resource's
 * labels onto its pods).
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class MirrorMakerOwnershipTest {

    private static final String LINEAGE = "6f1c2a9e-0b7d-4e55-9a31-2c8d4b7e1f00";
    private static final String OTHER = "9c7d0000-1111-2222-3333-444455556666";

    private static Plan plan(MirrorMakerWorld world, boolean exactlyOnce, List<String> transfer) {
        return Planner.plan(MirrorMakerWorld.desired(MirrorMakerWorld.adopt(exactlyOnce)), world.toLive(),
                new PlanRequest("prod", new StateRef(LINEAGE, 42), Instant.parse("2026-12-01T00:00:00Z"),
                        PlanOptions.DEFAULT.withTransferOwnership(transfer), List.of(), v -> "h"));
    }

    private static MirrorMakerWorld markedBy(String environment, String lineage) {
        MirrorMakerWorld w = new MirrorMakerWorld(null);
        w.annotations.put(Ownership.ENVIRONMENT_ANNOTATION, environment);
        w.annotations.put(Ownership.LINEAGE_ANNOTATION, lineage);
        return w;
    }

    @Test
    void a_mirror_maker_of_another_environment_is_refused_naming_its_owner_and_the_transfer_flag() {
        Plan p = plan(markedBy("staging", OTHER), true, List.of());
        assertThat(p.steps()).isEmpty();
        assertThat(p.diagnostics()).filteredOn(Diagnostic::isError).singleElement().satisfies(d -> {
            assertThat(d.summary()).isEqualTo("Object is managed by another flowform state");
            assertThat(d.detail()).contains("KafkaMirrorMaker2 replication/mm2 carries the ownership marks of environment "
                    + "\"staging\" (lineage " + OTHER + ")", "environment \"prod\" (lineage " + LINEAGE + ")",
                    "--transfer-ownership mirrormaker2.mm2");
            assertThat(d.address()).isEqualTo("mirrormaker2.mm2");
        });
    }

    @Test
    void another_lineage_of_the_same_environment_is_refused_too() {
        assertThat(plan(markedBy("prod", OTHER), true, List.of()).diagnostics()).anyMatch(d -> d.isError()
                && d.detail().contains("lineage " + OTHER));
    }

    @Test
    void transfer_ownership_takes_it_over_in_a_first_metadata_only_step_then_plans_the_rollout() {
        Plan p = plan(markedBy("staging", OTHER), true, List.of("mirrormaker2.mm2"));
        assertThat(p.diagnostics()).noneMatch(Diagnostic::isError);
        assertThat(p.steps().get(0).kind()).isEqualTo(StepKind.TRANSFER_OWNERSHIP);
        assertThat(p.steps().get(0).summary()).contains("take over from environment \"staging\"");
        assertThat(((StepPayload.PatchObject) p.steps().get(0).payload()).edits()).extracting(FieldEdit::path)
                .containsExactly(List.of("metadata", "annotations", Ownership.ENVIRONMENT_ANNOTATION),
                        List.of("metadata", "annotations", Ownership.LINEAGE_ANNOTATION));
        assertThat(p.steps()).extracting(Step::kind).contains(StepKind.SET_WORKER_EOS, StepKind.WAIT_FOR_CONNECTOR_READY);
        assertThat(p.changes()).singleElement().satisfies(c -> assertThat(c.reasons().toString()).contains("staging"));
    }

    @Test
    void transfer_ownership_of_our_own_mirror_maker_is_a_warning_and_changes_no_mark() {
        Plan p = plan(markedBy("prod", LINEAGE), true, List.of("mirrormaker2.mm2"));
        assertThat(p.diagnostics()).anyMatch(d -> !d.isError() && d.summary().equals("Nothing to transfer"));
        assertThat(p.steps()).noneMatch(s -> s.kind() == StepKind.TRANSFER_OWNERSHIP);
        assertThat(p.steps()).flatExtracting(s -> s.payload() instanceof StepPayload.SetWorkerEos e ? e.edits() : List.of())
                .noneMatch(e -> Ownership.isMark(((FieldEdit) e).path()));
    }

    @Test
    void an_unmarked_mirror_maker_gets_the_mark_annotations_with_its_first_write_and_no_label() {
        Plan p = plan(new MirrorMakerWorld(null), true, List.of());
        assertThat(p.diagnostics()).noneMatch(Diagnostic::isError);
        Step first = p.steps().stream().filter(s -> s.kind() == StepKind.SET_WORKER_EOS).findFirst().orElseThrow();
        assertThat(((StepPayload.SetWorkerEos) first.payload()).edits()).extracting(FieldEdit::path)
                .contains(List.of("metadata", "annotations", Ownership.ENVIRONMENT_ANNOTATION),
                        List.of("metadata", "annotations", Ownership.LINEAGE_ANNOTATION))
                .noneMatch(path -> path.get(1).equals("labels"));
        assertThat(p.steps()).noneMatch(s -> s.kind() == StepKind.TRANSFER_OWNERSHIP);
    }

    @Test
    void an_unknown_transfer_address_is_an_error_that_names_the_mirrormaker2_form() {
        Plan p = plan(new MirrorMakerWorld(null), true, List.of("mirrormaker2.nope"));
        assertThat(p.diagnostics()).anyMatch(d -> d.isError() && d.summary().equals("Unknown address to transfer")
                && d.detail().contains("mirrormaker2.NAME"));
    }
}
