package dev.flowform.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredState;
import dev.flowform.model.EosMode;
import dev.flowform.model.LiveConnectCluster;
import dev.flowform.model.LiveState;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.rules.RollCheck;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The planner over the whole cross product of live situations
 * ({@link StateSpace}), with every plan executed symbolically ({@link SymbolicApply}) and checked:
 * no connector gets {@code required} before a completed {@code enabled} roll, no {@code enabled} on an
 * existing cluster before a completed {@code preparing} roll, no KafkaConnect patch when only connector
 * configuration differs, every refusal carries a diagnostic naming its rule, and an applyable plan
 * converges: planning again against the state it leads to gives no steps.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PlannerSafetyTest {

    private static final PlanRequest REQUEST = new PlanRequest("test", new StateRef("lineage-1", 7),
            Instant.parse("2026-11-30T12:00:00Z"));

    /** How many orders of a plan's concurrent lanes are executed symbolically besides the plan's own. */
    private static final int INTERLEAVINGS = 24;

    private final Map<String, LongAdder> seen = new ConcurrentHashMap<>();

    @Test
    void every_plan_over_the_cross_product_of_live_states_is_safe_and_converges() {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        List<StateSpace.Case> cases = StateSpace.all();
        long start = System.nanoTime();
        cases.parallelStream().forEach(c -> {
            List<String> v = check(c);
            if (!v.isEmpty() && failures.size() < 25) {
                failures.add(c + ":\n    " + String.join("\n    ", v));
            }
        });
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("PlannerSafetyTest: %d combinations planned, executed symbolically and re-planned in %d ms; %s%n",
                cases.size(), millis, new java.util.TreeMap<>(seen));

        assertThat(cases).hasSizeGreaterThan(20_000);
        assertThat(failures).isEmpty();
        // the enumeration reaches every kind of outcome, so the invariants above were exercised
        for (String outcome : List.of("applyable", "refused", "set-preparing", "set-enabled", "set-disabled",
                "wait-in-progress", "connector-required", "connector-required-removed", "annotate", "delete-orphan",
                "connector-only", "accept-failed-with-edit", "no-connector-wait-replicas-0", "rule:" + Rule.FAILED_RECONCILE.id(),
                "rule:" + Rule.RECONCILIATION_PAUSED.id(), "rule:" + Rule.CONNECTOR_RESOURCES.id(),
                "rule:" + Rule.KAFKA_VERSION_WORKER.id(), "rule:" + Rule.KAFKA_VERSION_MM2.id(),
                "rule:" + Rule.KAFKA_VERSION_FENCING.id(), "rule:" + Rule.REVERSE_DISABLE.id(),
                "rule:" + Rule.CONNECTOR_FAILED.id(), "rule:" + Rule.REPLICAS_ZERO.id(), "rule:" + Rule.CONFIGURATION.id(),
                "converged", "concurrent-lanes", "interleaving")) {
            assertThat(seen).as("outcome %s", outcome).containsKey(outcome);
        }
    }

    private List<String> check(StateSpace.Case c) {
        List<String> v = new ArrayList<>();
        World world = StateSpace.world(c);
        LiveState live = world.toLive();
        checkModel(c, live, v);
        DesiredState desired = StateSpace.desired(c);
        PlanRequest request = REQUEST.withOptions(c.options());
        Plan plan = Planner.plan(desired, live, request);

        for (Diagnostic d : plan.diagnostics()) {
            if (d.address() == null || d.detail().isBlank() || !d.detail().contains("(rule ")) {
                v.add("diagnostic without address, detail or rule: " + d);
            }
            int at = d.detail().indexOf("(rule ");
            if (at >= 0) {
                count("rule:" + d.detail().substring(at + 6, d.detail().indexOf(';', at)));
            }
        }
        count(plan.isApplyable() ? "applyable" : "refused");
        if (!plan.isApplyable() && plan.diagnostics().stream().noneMatch(Diagnostic::isError)) {
            v.add("not applyable without an error");
        }
        checkLinks(c, plan, v);
        oracle(c, plan, v);

        World after = world.copy();
        SymbolicApply sym = new SymbolicApply(after, "test", c.enableAnnotation());
        v.addAll(sym.run(plan));
        outcomes(c, plan);
        List<List<Step>> orders = Interleavings.of(plan.steps(), INTERLEAVINGS);
        World other = null;
        for (List<Step> order : orders.subList(1, orders.size())) {
            other = world.copy();
            for (String violation : new SymbolicApply(other, "test", c.enableAnnotation()).run(order)) {
                v.add(violation + " (in the order " + order.stream().map(Step::id).toList() + ")");
            }
            count("interleaving");
        }
        if (other != null && plan.isApplyable() && v.isEmpty()
                && Planner.plan(desired, other.toLive(), request).hasChanges()) {
            v.add("planning again after the last interleaving of the plan's lanes still has steps");
        }

        if (plan.isApplyable() && v.isEmpty()) {
            Plan again = Planner.plan(desired, after.toLive(), request);
            if (again.hasChanges()) {
                v.add("planning again after the plan's steps still has steps: " + again.steps().stream()
                        .map(s -> s.kind() + " " + s.address() + " " + s.summary()).toList());
            } else if (plan.hasChanges()) {
                count("converged");
            }
        }
        return v;
    }

    /**
     * The links between the steps: ids in order, each depending only on earlier steps. Below Kafka 3.6, or without a
     * version, one chain, each step on the one before (KAFKA-15059). From 3.6 connector lanes may run concurrently,
     * but never beside a step on the KafkaConnect, and the steps on one object stay in order.
     */
    private void checkLinks(StateSpace.Case c, Plan plan, List<String> v) {
        List<Step> steps = plan.steps();
        Optional<KafkaVersion> version = KafkaVersion.parse(c.version());
        boolean lanesAllowed = version.isPresent() && !version.get().isBefore(3, 6);
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            List<Integer> expected = i == 0 ? List.of() : List.of(steps.get(i - 1).id());
            if (s.id() != i + 1 || s.dependsOn().stream().anyMatch(d -> d >= s.id())) {
                v.add("step " + s.id() + " depends on a later step or is out of order: " + s.dependsOn());
            }
            if (!lanesAllowed && !s.dependsOn().equals(expected)) {
                v.add("step " + s.id() + " is not chained to the one before below Kafka 3.6: " + s.dependsOn());
            }
        }
        Map<Integer, java.util.Set<Integer>> ancestors = Interleavings.ancestors(steps);
        for (Step a : steps) {
            for (Step b : steps) {
                boolean mustOrder = "KafkaConnect".equals(a.object().kind()) || "KafkaConnect".equals(b.object().kind())
                        || a.object().equals(b.object());
                if (a.id() < b.id() && mustOrder && !Interleavings.ordered(ancestors, a, b)) {
                    v.add("steps " + a.id() + " and " + b.id() + " may run concurrently but act on " + a.object() + " and "
                            + b.object());
                }
            }
        }
        if (!StepGraph.forks(steps).isEmpty()) {
            count("concurrent-lanes");
        }
    }

    /** What the test's oracle knows independently of the planner. */
    private void oracle(StateSpace.Case c, Plan plan, List<String> v) {
        boolean stepsOnCluster = !plan.steps().isEmpty();
        if (c.roll() == World.Roll.PAUSED) {
            if (stepsOnCluster) {
                v.add("steps on a cluster whose reconciliation is paused");
            }
            // differential oracle: what the same cluster without the pause would need must be refused
            World twin = StateSpace.world(c);
            World.map(World.map(twin.kc.get("metadata")).get("annotations")).remove(Strimzi.PAUSE_RECONCILIATION_ANNOTATION);
            twin.roll = World.Roll.ROLLED;
            Plan unpaused = Planner.plan(StateSpace.desired(c), twin.toLive(), REQUEST.withOptions(c.options()));
            if (unpaused.hasChanges() && (plan.isApplyable()
                    || plan.diagnostics().stream().noneMatch(d -> d.summary().equals("Reconciliation is paused")))) {
                v.add("a paused cluster that needs changes must be refused with \"Reconciliation is paused\"");
            }
        }
        if (c.roll() == World.Roll.NOT_READY && !c.ack() && stepsOnCluster) {
            v.add("steps on a cluster whose reconcile failed, without --accept-failed-reconcile");
        }
        for (Diagnostic d : plan.diagnostics()) {
            if (d.detail().contains("(rule " + Rule.FAILED_RECONCILE.id() + ";") && !d.detail().contains(World.FAILURE)) {
                v.add("a failed-reconcile diagnostic does not carry the operator's message: " + d.summary());
            }
        }
        if (!c.annotation() && !c.enableAnnotation() && stepsOnCluster) {
            v.add("steps on a cluster without the connector-resources annotation, without --enable-connector-resources");
        }
        Optional<KafkaVersion> version = KafkaVersion.parse(c.version());
        if (c.desiredEos() && c.roll() != World.Roll.PAUSED && version.isPresent() && version.get().isBefore(3, 5)
                && plan.isApplyable()) {
            v.add("exactly-once MirrorMaker 2 on Kafka " + c.version() + " must be refused");
        }
        if (c.other() == StateSpace.Other.UNMANAGED_REQUIRED && !c.desiredEos() && plan.isApplyable()) {
            v.add("disabling EOS under a connector that requires it and that flowform does not manage must be refused");
        }
        boolean clusterAtDesired = c.spec().mode() == c.target() && c.roll() == World.Roll.ROLLED && c.annotation()
                && !c.clusterEdit();
        if (clusterAtDesired) {
            for (Step s : plan.steps()) {
                if ("KafkaConnect".equals(s.object().kind())) {
                    v.add("step " + s.id() + " " + s.kind() + " touches the KafkaConnect although only connectors differ");
                }
            }
            if (!plan.steps().isEmpty()) {
                count("connector-only");
            }
        }
    }

    /** Checks the test model itself: a rolled cluster passes rule 7, a cluster mid-roll does not. */
    private static void checkModel(StateSpace.Case c, LiveState live, List<String> v) {
        LiveConnectCluster kc = live.clusters().get(0);
        Readiness r = RollCheck.evaluate(kc, kc.generation(), c.spec().mode());
        boolean expectComplete = c.roll() == World.Roll.ROLLED || (c.roll() == World.Roll.PODS_BEHIND && c.replicas() == 0);
        if (c.roll() != World.Roll.PAUSED && r.isComplete() != expectComplete) {
            v.add("model: RollCheck says " + r + " for " + c.roll());
        }
        if (c.roll() == World.Roll.NOT_READY && !(r instanceof Readiness.Failed)) {
            v.add("model: NotReady is not a failed roll: " + r);
        }
    }

    private void outcomes(StateSpace.Case c, Plan plan) {
        boolean sawConnectorWait = false;
        for (Step s : plan.steps()) {
            if (s.payload() instanceof StepPayload.SetWorkerEos e) {
                count("set-" + e.mode().value());
            }
            if (s.kind() == StepKind.WAIT_FOR_ROLL && ((StepPayload.WaitForRoll) s.payload()).generation() != null) {
                count("wait-in-progress");
            }
            if (s.kind() == StepKind.ANNOTATE) {
                count("annotate");
            }
            if (s.kind() == StepKind.DELETE_CONNECTOR) {
                count("delete-orphan");
            }
            if (s.kind() == StepKind.WAIT_FOR_CONNECTOR_READY) {
                sawConnectorWait = true;
            }
            if (s.payload() instanceof StepPayload.PatchObject p && s.kind() == StepKind.UPDATE_CONNECTOR) {
                for (FieldEdit e : p.edits()) {
                    if (e.key().equals("exactly.once.support")) {
                        count(e.remove() ? "connector-required-removed" : "connector-required");
                    }
                }
            }
            if (s.kind() == StepKind.UPDATE_CONNECT_CLUSTER && c.roll() == World.Roll.NOT_READY) {
                count("accept-failed-with-edit");
            }
        }
        if (c.replicas() == 0 && plan.steps().stream().anyMatch(s -> s.kind() == StepKind.UPDATE_CONNECTOR) && !sawConnectorWait) {
            count("no-connector-wait-replicas-0");
        }
        if (plan.steps().stream().anyMatch(s -> s.payload() instanceof StepPayload.SetWorkerEos e && e.mode() == EosMode.ENABLED)) {
            count("enabled-plans");
        }
    }

    private void count(String key) {
        seen.computeIfAbsent(key, k -> new LongAdder()).increment();
    }
}
