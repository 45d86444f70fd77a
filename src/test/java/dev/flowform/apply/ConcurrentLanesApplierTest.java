package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;

import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The applier on a plan whose connectors run in lanes after the roll they need (Kafka 3.6 or newer): the lanes
 * start only once the roll wait is done, run concurrently up to {@code parallelism} steps, each write still waited
 * for, and a failed lane stops the writes not yet started while a lane whose write went through still waits.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ConcurrentLanesApplierTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final ObjectRef CLUSTER = new ObjectRef("kafka.strimzi.io/v1", "KafkaConnect", "ns", "c");

    private static ObjectRef connector(String name) {
        return new ObjectRef("kafka.strimzi.io/v1", "KafkaConnector", "ns", name);
    }

    /** SET_WORKER_EOS, WAIT_FOR_ROLL, then one lane per connector: its create, then its wait, after the roll wait. */
    private static Plan lanes(int connectors) {
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(1, StepKind.SET_WORKER_EOS, "connect_cluster.c", CLUSTER, List.of(),
                new StepPayload.SetWorkerEos(EosMode.ENABLED, List.of(FieldEdit.set(List.of("spec", "config",
                        EosMode.CONFIG_KEY), "enabled", false))), "enabled"));
        steps.add(new Step(2, StepKind.WAIT_FOR_ROLL, "connect_cluster.c", CLUSTER, List.of(1),
                new StepPayload.WaitForRoll(EosMode.ENABLED, null), "wait"));
        for (int i = 1; i <= connectors; i++) {
            ObjectRef ref = connector("k" + i);
            Map<String, Object> manifest = Map.of("kind", "KafkaConnector", "metadata", Map.of("name", "k" + i));
            int create = steps.size() + 1;
            steps.add(new Step(create, StepKind.CREATE_CONNECTOR, "kafka_connector.k" + i, ref, List.of(2),
                    new StepPayload.CreateObject(manifest, Set.of()), "create k" + i));
            steps.add(new Step(create + 1, StepKind.WAIT_FOR_CONNECTOR_READY, "kafka_connector.k" + i, ref, List.of(create),
                    new StepPayload.WaitForConnector("RUNNING", null), "wait k" + i));
        }
        return new Plan(Plan.FORMAT_VERSION, "test", Instant.EPOCH, null, Map.of(), List.of(), steps, List.of());
    }

    /** Records every call in order; the create of {@code failCreate} fails. */
    static final class Cluster implements ClusterWriter, RolloutWatcher {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger waiting = new AtomicInteger();
        final AtomicInteger maxWaiting = new AtomicInteger();
        volatile int needTogether = 1;
        volatile String failCreate;
        /** Connector waits hold until this is true (then a little longer), so a failure elsewhere is taken first. */
        volatile java.util.function.BooleanSupplier holdWaits = () -> true;

        @Override
        public long create(Map<String, Object> manifest) {
            String name = String.valueOf(((Map<?, ?>) manifest.get("metadata")).get("name"));
            events.add("create " + name);
            if (name.equals(failCreate)) {
                throw new ApplyException("could not create " + name + ": HTTP 422 Invalid", false, null);
            }
            return 1;
        }

        @Override
        public long patch(ObjectRef ref, List<FieldEdit> edits) {
            events.add("patch " + ref.name());
            return 2;
        }

        @Override
        public void delete(ObjectRef ref) {
            events.add("delete " + ref.name());
        }

        @Override
        public long generation(ObjectRef ref) {
            return 1;
        }

        @Override
        public Readiness awaitRoll(ObjectRef ref, long generation, EosMode expectedMode, Duration timeout, Progress progress) {
            events.add("rolled " + ref.name());
            return new Readiness.Complete("3/3 workers on the new revision");
        }

        @Override
        public Readiness awaitForcedRoll(ObjectRef ref, Instant annotatedAt, EosMode expectedMode, Duration timeout,
                                         Progress progress) {
            throw new AssertionError("no forced roll in a KafkaConnect plan");
        }

        /** Holds each wait until {@code needTogether} waits are inside at once (or 5 s passed). */
        @Override
        public Readiness awaitConnector(ObjectRef ref, long generation, String expectedState, Duration timeout,
                                        Progress progress) throws InterruptedException {
            int now = waiting.incrementAndGet();
            maxWaiting.accumulateAndGet(now, Math::max);
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while ((maxWaiting.get() < needTogether || !holdWaits.getAsBoolean()) && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                if (failCreate != null) {
                    Thread.sleep(50);
                }
                events.add("running " + ref.name());
                return new Readiness.Complete("RUNNING");
            } finally {
                waiting.decrementAndGet();
            }
        }
    }

    private static ApplyResult apply(Cluster cluster, ApplierTest.MemoryJournal journal, int parallelism, Plan plan) {
        return new Applier(cluster, cluster, journal, new ApplyOrderTest.RecordingListener(), Clock.systemUTC(),
                new StepTimeouts(LIMIT, LIMIT), parallelism, new StopSignal()).apply(plan);
    }

    @Test
    void lanes_start_after_the_roll_and_wait_for_their_connectors_at_the_same_time() {
        Cluster cluster = new Cluster();
        cluster.needTogether = 3;
        ApplierTest.MemoryJournal journal = new ApplierTest.MemoryJournal();

        ApplyResult r = apply(cluster, journal, 10, lanes(3));

        assertThat(r.succeeded()).as("%s", r.results()).isTrue();
        assertThat(cluster.maxWaiting.get()).as("connector waits in flight at once").isEqualTo(3);
        assertThat(cluster.events.subList(0, 2)).containsExactly("patch c", "rolled c");
        for (int i = 1; i <= 3; i++) {
            assertThat(cluster.events.indexOf("create k" + i)).isLessThan(cluster.events.indexOf("running k" + i));
        }
        assertThat(journal.outcomes).hasSize(8).allMatch(o -> o.startsWith("DONE "));
    }

    @Test
    void parallelism_bounds_the_steps_in_flight() {
        Cluster cluster = new Cluster();
        cluster.needTogether = 2;

        ApplyResult r = apply(cluster, new ApplierTest.MemoryJournal(), 2, lanes(4));

        assertThat(r.succeeded()).as("%s", r.results()).isTrue();
        assertThat(cluster.maxWaiting.get()).isEqualTo(2);
    }

    @Test
    void parallelism_one_runs_the_lanes_one_after_another_in_plan_order() {
        Cluster cluster = new Cluster();

        ApplyResult r = apply(cluster, new ApplierTest.MemoryJournal(), 1, lanes(2));

        assertThat(r.succeeded()).isTrue();
        assertThat(cluster.events).containsExactly("patch c", "rolled c", "create k1", "running k1", "create k2",
                "running k2");
    }

    @Test
    void a_failed_lane_stops_the_writes_not_started_while_a_written_lane_still_waits() {
        Cluster cluster = new Cluster();
        cluster.failCreate = "k1";
        ApplierTest.MemoryJournal journal = new ApplierTest.MemoryJournal();
        cluster.holdWaits = () -> journal.outcomes.stream().anyMatch(o -> o.startsWith("FAILED 3"));

        ApplyResult r = apply(cluster, journal, 2, lanes(3));

        // steps 3 and 5 (the creates of k1 and k2) start together; 3 fails
        assertThat(r.succeeded()).isFalse();
        assertThat(r.results()).extracting(StepResult::outcome).containsExactly(StepResult.Outcome.DONE,
                StepResult.Outcome.DONE, StepResult.Outcome.FAILED, StepResult.Outcome.SKIPPED, StepResult.Outcome.DONE,
                StepResult.Outcome.DONE, StepResult.Outcome.SKIPPED, StepResult.Outcome.SKIPPED);
        assertThat(r.results().get(3).detail()).isEqualTo("step 3 did not complete");
        assertThat(r.results().get(6).detail()).isEqualTo("step 3 of the same Connect cluster failed");
        assertThat(cluster.events).contains("create k2", "running k2").doesNotContain("create k3");
        assertThat(journal.outcomes).anyMatch(o -> o.startsWith("FAILED 3: could not create k1"))
                .contains("DONE 5", "DONE 6").noneMatch(o -> o.endsWith(" 7") || o.endsWith(" 8"));
    }
}
