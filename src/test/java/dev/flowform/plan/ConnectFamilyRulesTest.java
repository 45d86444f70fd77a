package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.EosMode;
import dev.flowform.model.StrimziApi;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each rule behaves the same for a KafkaConnect and a KafkaMirrorMaker2 (docs/domain-rules.md, docs/architecture.md
 * "The planner"): the same situation, built for each kind by {@link FamilyWorld}, gets the same refusal, warning or
 * steps.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ConnectFamilyRulesTest {

    private static final Pattern RULE = Pattern.compile("\\(rule ([a-z0-9-]+);");

    private static Plan plan(FamilyWorld w, boolean exactlyOnce, Map<String, String> config, PlanOptions options) {
        return Planner.plan(w.adopt(exactlyOnce, config), w.toLive(), new PlanRequest("prod",
                new StateRef("lineage-1", 3), Instant.parse("2026-12-01T00:00:00Z"), options, List.of(), v -> "h"));
    }

    private static Plan plan(FamilyWorld w, boolean exactlyOnce) {
        return plan(w, exactlyOnce, Map.of(), PlanOptions.DEFAULT);
    }

    /** @return the rules the plan's diagnostics of that kind cite */
    private static List<String> rules(Plan p, boolean errors) {
        return p.diagnostics().stream().filter(d -> d.isError() == errors).map(Diagnostic::detail).map(d -> {
            Matcher m = RULE.matcher(d);
            return m.find() ? m.group(1) : "(none)";
        }).toList();
    }

    private static List<StepKind> kinds(Plan p) {
        return p.steps().stream().map(Step::kind).toList();
    }

    /** An enabled resource whose source connector is exactly-once already: nothing to change. */
    private static FamilyWorld converged(FamilyWorld.Kind kind) {
        return FamilyWorld.of(kind, StrimziApi.V1BETA2, "enabled").sourceExactlyOnce();
    }

    @ParameterizedTest
    @EnumSource(FamilyWorld.Kind.class)
    void a_paused_resource_is_refused_only_when_the_plan_would_change_it(FamilyWorld.Kind kind) {
        Plan unchanged = plan(converged(kind).roll(World.Roll.PAUSED, null), true);
        assertThat(unchanged.isApplyable()).isTrue();
        assertThat(unchanged.steps()).isEmpty();
        assertThat(rules(unchanged, false)).containsExactly("reconciliation-paused");

        Plan changed = plan(FamilyWorld.of(kind, StrimziApi.V1BETA2, null).roll(World.Roll.PAUSED, null), true);
        assertThat(changed.steps()).isEmpty();
        assertThat(rules(changed, true)).containsExactly("reconciliation-paused");
    }

    @ParameterizedTest
    @EnumSource(FamilyWorld.Kind.class)
    void a_failed_reconcile_is_a_warning_without_changes_and_a_refusal_with_them_unless_accepted(FamilyWorld.Kind kind) {
        Plan unchanged = plan(converged(kind).roll(World.Roll.NOT_READY, EosMode.ENABLED), true);
        assertThat(unchanged.isApplyable()).isTrue();
        assertThat(unchanged.steps()).isEmpty();
        assertThat(rules(unchanged, false)).containsExactly("failed-reconcile");

        FamilyWorld preparing = FamilyWorld.of(kind, StrimziApi.V1BETA2, "preparing").roll(World.Roll.NOT_READY,
                EosMode.DISABLED);
        assertThat(rules(plan(preparing, true), true)).containsExactly("failed-reconcile");
        PlanOptions accept = PlanOptions.DEFAULT.withAcceptFailedReconcile(true);
        assertThat(rules(plan(preparing, true, Map.of(), accept), true)).as("nothing makes the operator roll again")
                .containsExactly("failed-reconcile");

        Plan fixed = plan(preparing, true, Map.of("offset.flush.interval.ms", "10000"), accept);
        assertThat(rules(fixed, true)).isEmpty();
        assertThat(rules(fixed, false)).contains("failed-reconcile");
        assertThat(kinds(fixed)).startsWith(StepKind.UPDATE_CONNECT_CLUSTER, StepKind.WAIT_FOR_ROLL,
                StepKind.SET_WORKER_EOS, StepKind.WAIT_FOR_ROLL);
    }

    @ParameterizedTest
    @EnumSource(FamilyWorld.Kind.class)
    void the_kip_618_minimums_are_checked(FamilyWorld.Kind kind) {
        assertThat(rules(plan(FamilyWorld.of(kind, StrimziApi.V1BETA2, null).version("3.2.3"), true), true))
                .containsExactly("kafka-version-eos");
        assertThat(rules(plan(FamilyWorld.of(kind, StrimziApi.V1BETA2, null).version("3.4.1"), true), true))
                .containsExactly("kafka-version-mm2-eos");
        Plan fencing = plan(FamilyWorld.of(kind, StrimziApi.V1BETA2, null).version("3.5.2"), true);
        assertThat(fencing.isApplyable()).isTrue();
        assertThat(rules(fencing, false)).containsExactly("kafka-version-fencing");
        assertThat(rules(plan(FamilyWorld.of(kind, StrimziApi.V1BETA2, null).version("latest"), true), true))
                .containsExactly("kafka-version-unknown");
    }

    @ParameterizedTest
    @EnumSource(FamilyWorld.Kind.class)
    void a_new_identity_of_exactly_once_workers_is_refused_unless_accepted(FamilyWorld.Kind kind) {
        Map<String, String> group = Map.of("group.id", "repl-eu");
        assertThat(rules(plan(converged(kind), true, group, PlanOptions.DEFAULT), true))
                .containsExactly("eos-cluster-identity");
        Plan accepted = plan(converged(kind), true, group, PlanOptions.DEFAULT.withAcceptNewClusterIdentity(true));
        assertThat(accepted.isApplyable()).isTrue();
        assertThat(rules(accepted, false)).containsExactly("eos-cluster-identity");
        assertThat(accepted.changes()).anySatisfy(c -> assertThat(c.reason()).contains("new exactly-once identity"));
        Plan disabled = plan(FamilyWorld.of(kind, StrimziApi.V1BETA2, "disabled"), false, group, PlanOptions.DEFAULT);
        assertThat(rules(disabled, true)).as("workers that do not run exactly-once have no identity to keep").isEmpty();
    }

    @ParameterizedTest
    @EnumSource(FamilyWorld.Kind.class)
    void connectors_written_to_a_resource_without_workers_are_not_waited_for(FamilyWorld.Kind kind) {
        Plan p = plan(FamilyWorld.of(kind, StrimziApi.V1BETA2, "enabled").replicas(0), true);
        assertThat(rules(p, false)).containsExactly("connect-replicas-zero");
        assertThat(kinds(p)).isNotEmpty().doesNotContain(StepKind.WAIT_FOR_CONNECTOR_READY);
    }

    @ParameterizedTest
    @EnumSource(FamilyWorld.Kind.class)
    void a_mode_kafka_does_not_accept_is_refused(FamilyWorld.Kind kind) {
        Plan p = plan(FamilyWorld.of(kind, StrimziApi.V1BETA2, "bogus"), true);
        assertThat(rules(p, true)).containsExactly("eos-mode-value");
        assertThat(p.diagnostics().get(0).summary()).isEqualTo("Unknown exactly.once.source.support value");
    }

    @ParameterizedTest
    @EnumSource(FamilyWorld.Kind.class)
    void a_failed_task_is_restarted_by_the_operator_only_when_nothing_else_restarts_it(FamilyWorld.Kind kind) {
        Plan restart = plan(converged(kind).failSourceTask(), true);
        assertThat(kinds(restart)).containsExactly(StepKind.ANNOTATE);
        assertThat(restart.changes()).singleElement().satisfies(c -> assertThat(c.reason()).startsWith("restart FAILED task"));
        assertThat(rules(restart, false)).containsExactly("connector-failed");

        Plan rolling = plan(converged(kind).failSourceTask().roll(World.Roll.IN_PROGRESS, EosMode.ENABLED), true);
        assertThat(kinds(rolling)).doesNotContain(StepKind.ANNOTATE);
        Plan changing = plan(FamilyWorld.of(kind, StrimziApi.V1BETA2, "enabled").failSourceTask(), true);
        assertThat(kinds(changing)).isNotEmpty().doesNotContain(StepKind.ANNOTATE);
    }
}
