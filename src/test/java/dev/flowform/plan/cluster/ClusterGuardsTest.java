package dev.flowform.plan.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveState;
import dev.flowform.model.ManageMode;
import dev.flowform.model.StrimziApi;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Ownership;
import dev.flowform.plan.PlanOptions;
import dev.flowform.plan.Rule;
import dev.flowform.testing.Configs;
import dev.flowform.testing.Fixtures;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * Each guard speaks only for the rules it names, and the lists hold the guards the planner's contract lists,
 * in that order.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ClusterGuardsTest {

    private static final PlanOptions ACCEPT_ALL = PlanOptions.DEFAULT.withAcceptUnknownKafkaVersion(true)
            .withAcceptFailedReconcile(true).withEnableConnectorResources(true).withAcceptNewClusterIdentity(true);

    /** Changes to the live KafkaConnect that make one guard or another speak. */
    private static final List<Consumer<GenericKubernetesResource>> CHANGES = List.of(
            kc -> { },
            kc -> spec(kc).put("version", "3.2.0"),
            kc -> spec(kc).put("version", "3.4.0"),
            kc -> spec(kc).put("version", "3.5.0"),
            kc -> spec(kc).put("version", "latest"),
            kc -> spec(kc).put("replicas", 0),
            kc -> spec(kc).clear(),
            kc -> config(kc).put(EosMode.CONFIG_KEY, "bogus"),
            kc -> config(kc).put("group.id", "someone-else"),
            kc -> kc.getMetadata().getAnnotations().remove(Strimzi.USE_CONNECTOR_RESOURCES_ANNOTATION),
            kc -> kc.getMetadata().getAnnotations().put(Strimzi.PAUSE_RECONCILIATION_ANNOTATION, "true"),
            kc -> kc.getMetadata().getAnnotations().put(Ownership.ENVIRONMENT_ANNOTATION, "staging"),
            kc -> status(kc).put("conditions", List.of(Map.of("type", "NotReady", "status", "True", "reason", "Boom"))));

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource kc) {
        return (Map<String, Object>) kc.getAdditionalProperties().get("spec");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> config(GenericKubernetesResource kc) {
        return (Map<String, Object>) spec(kc).computeIfAbsent("config", k -> new LinkedHashMap<>());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> status(GenericKubernetesResource kc) {
        return (Map<String, Object>) kc.getAdditionalProperties().get("status");
    }

    @Test
    void every_diagnostic_a_guard_reports_names_one_of_its_rules() {
        List<String> wrong = new ArrayList<>();
        Set<String> spoke = new TreeSet<>();
        for (String fixture : List.of("existing-v1beta2", "existing-v1", "roll-in-progress", "half-done-preparing")) {
            for (Consumer<GenericKubernetesResource> change : CHANGES) {
                List<HasMetadata> objects = Fixtures.objects(fixture);
                objects.stream().filter(o -> "KafkaConnect".equals(o.getKind()))
                        .forEach(o -> change.accept((GenericKubernetesResource) o));
                LiveState live = Fixtures.live(objects);
                for (EosMode eos : EosMode.values()) {
                    for (boolean exactlyOnce : new boolean[] {true, false}) {
                        if (exactlyOnce && eos != EosMode.ENABLED) {
                            continue; // configuration refuses it before planning
                        }
                        for (PlanOptions options : List.of(PlanOptions.DEFAULT, ACCEPT_ALL)) {
                            DesiredState desired = Configs.desired(List.of(Configs.cluster(ManageMode.ADOPT, eos)),
                                    List.of(Configs.adoptedFlow(exactlyOnce)));
                            check(desired, live, options, wrong, spoke);
                        }
                    }
                }
            }
        }
        DesiredState created = Configs.desired(List.of(Configs.cluster(ManageMode.OWN, null)),
                List.of(Configs.ownedFlow("orders", true, List.of("orders"))));
        check(created, LiveState.empty(StrimziApi.V1), PlanOptions.DEFAULT, wrong, spoke);

        assertThat(wrong).isEmpty();
        assertThat(spoke).as("guards that reported something").contains("ownership", "Kafka version",
                "exactly-once mode readable", "reconciliation not paused", "connector resources", "live spec complete",
                "failed reconcile");
    }

    @Test
    void a_new_cluster_is_checked_before_it_is_created_and_an_existing_one_before_it_is_changed() {
        assertThat(ClusterGuards.NEW_CLUSTER).extracting(Guard::name).containsExactly("adopted cluster exists",
                "Kafka version", "Strimzi v1 config keys", "connectors", "workers to run connectors");
        assertThat(ClusterGuards.EXISTING_CLUSTER).extracting(Guard::name).startsWith("exactly-once mode readable")
                .containsSubsequence("exactly-once identity kept", "connectors", "unmanaged connectors",
                        "reconciliation not paused", "connector resources", "failed reconcile", "new identity accepted");
        for (Guard g : ClusterGuards.EXISTING_CLUSTER) {
            assertThat(g.rules()).as(g.name()).isNotEmpty();
        }
    }

    /** Asks the guards as the planner does, up to the first refusal, and records rules a guard does not name. */
    private static void check(DesiredState desired, LiveState live, PlanOptions options, List<String> wrong, Set<String> spoke) {
        PlanScope scope = new PlanScope(desired, live, "test", "lineage-1", options);
        for (DesiredConnectCluster dc : desired.clusters()) {
            ClusterFacts facts = ClusterFacts.of(scope, dc);
            List<Guard> guards = new ArrayList<>();
            guards.add(new Guard("ownership", List.of(Rule.OWNERSHIP), OwnershipGuard::check));
            guards.addAll(ClusterGuards.of(facts));
            for (Guard g : guards) {
                Verdict v = g.check(facts);
                for (Diagnostic d : v.diagnostics()) {
                    spoke.add(g.name());
                    if (g.rules().stream().noneMatch(r -> d.detail().endsWith(r.citation()))) {
                        wrong.add(g.name() + ": " + d.summary() + " / " + d.detail());
                    }
                }
                if (v.refused()) {
                    break;
                }
            }
        }
    }
}
