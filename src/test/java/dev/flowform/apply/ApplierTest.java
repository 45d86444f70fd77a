package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.FieldEdit;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Readiness;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepGraph;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The applier alone, with a scripted cluster: chains of different Connect clusters run in parallel up
 * to the limit, a failure stops only its chain, a stop lets the write in flight finish and ends the
 * wait, waits journal the generation they wait for, and a journal that fails stops everything.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ApplierTest {

    private static final Duration LIMIT = Duration.ofSeconds(20);

    private static ObjectRef connect(String name) {
        return new ObjectRef("kafka.strimzi.io/v1", "KafkaConnect", "ns", name);
    }

    /** Two clusters, each: SET_WORKER_EOS then WAIT_FOR_ROLL. */
    private static Plan twoClusters() {
        List<Step> steps = new ArrayList<>();
        int id = 0;
        for (String name : List.of("a", "b")) {
            ObjectRef ref = connect(name);
            steps.add(new Step(++id, StepKind.SET_WORKER_EOS, "connect_cluster." + name, ref, List.of(),
                    new StepPayload.SetWorkerEos(EosMode.PREPARING, List.of(FieldEdit.set(List.of("spec", "config",
                            EosMode.CONFIG_KEY), "preparing", false))), "preparing"));
            steps.add(new Step(++id, StepKind.WAIT_FOR_ROLL, "connect_cluster." + name, ref, List.of(id - 1),
                    new StepPayload.WaitForRoll(EosMode.PREPARING, null), "wait"));
        }
        return new Plan(Plan.FORMAT_VERSION, "test", Instant.EPOCH, null, Map.of(), List.of(), steps, List.of());
    }

    /** Counts calls; patch of a cluster named in {@code failPatch} fails; generation 7 for every write. */
    static final class FakeWriter implements ClusterWriter {
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
        volatile String failPatch;
        volatile CountDownLatch patchGate;
        final CountDownLatch patchEntered = new CountDownLatch(1);

        @Override
        public long create(Map<String, Object> manifest) {
            calls.add("create");
            return 1;
        }

        @Override
        public long patch(ObjectRef ref, List<FieldEdit> edits) {
            calls.add("patch " + ref.name());
            patchEntered.countDown();
            if (patchGate != null) {
                try {
                    patchGate.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new AssertionError("a write must never be interrupted", e);
                }
            }
            if (ref.name().equals(failPatch)) {
                throw new ApplyException("could not update " + ref + ": HTTP 422 Invalid", false, null);
            }
            return 7;
        }

        @Override
        public void delete(ObjectRef ref) {
            calls.add("delete " + ref.name());
        }

        @Override
        public long generation(ObjectRef ref) {
            return 7;
        }
    }

    /** Records the generation of each wait; waits until {@code gate} opens (or is interrupted). */
    static final class FakeWatcher implements RolloutWatcher {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger maxInside = new AtomicInteger();
        final List<Long> generations = Collections.synchronizedList(new ArrayList<>());
        final CountDownLatch entered = new CountDownLatch(1);
        volatile CountDownLatch gate = new CountDownLatch(0);
        volatile int needTogether = 1;

        @Override
        public Readiness awaitRoll(ObjectRef ref, long generation, EosMode expectedMode, Duration timeout, Progress progress)
                throws InterruptedException {
            generations.add(generation);
            int now = inside.incrementAndGet();
            maxInside.accumulateAndGet(now, Math::max);
            entered.countDown();
            try {
                progress.report(new Readiness.InProgress("1/3 workers on the new revision", 1, 3), Duration.ZERO);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
                while (maxInside.get() < needTogether && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                if (!gate.await(10, TimeUnit.SECONDS)) {
                    return new Readiness.TimedOut("gate never opened");
                }
                return new Readiness.Complete("3/3 workers on the new revision");
            } finally {
                inside.decrementAndGet();
            }
        }

        @Override
        public Readiness awaitConnector(ObjectRef ref, long generation, String expectedState, Duration timeout,
                                        Progress progress) {
            return new Readiness.Complete("RUNNING");
        }

        /** What each forced-roll wait was asked for: the object and the annotate time the applier passed. */
        final List<String> forced = Collections.synchronizedList(new ArrayList<>());

        @Override
        public Readiness awaitForcedRoll(ObjectRef ref, java.time.Instant annotatedAt, EosMode expectedMode,
                                         Duration timeout, Progress progress) {
            forced.add(ref.kind() + " " + ref.name() + " since " + annotatedAt + " " + expectedMode.value());
            return new Readiness.Complete("3/3 pods restarted by the forced roll");
        }
    }

    /** A journal in memory: step kind, payload and outcome per row. */
    static final class MemoryJournal implements Journal {
        final List<Step> intents = Collections.synchronizedList(new ArrayList<>());
        final List<String> outcomes = Collections.synchronizedList(new ArrayList<>());
        volatile int failOnIntent = -1;

        /** Synchronized: lanes start steps at the same time, and each must get the index of its own intent. */
        @Override
        public synchronized long started(Step step, int index) {
            if (intents.size() == failOnIntent) {
                throw new IllegalStateException("database is gone");
            }
            intents.add(step);
            return intents.size() - 1;
        }

        @Override
        public void done(long handle, String detail) {
            outcomes.add("DONE " + intents.get((int) handle).id());
        }

        @Override
        public void failed(long handle, String detail) {
            outcomes.add("FAILED " + intents.get((int) handle).id() + ": " + detail);
        }
    }

    private static Applier applier(FakeWriter w, FakeWatcher r, Journal j, int parallelism, StopSignal stop) {
        return new Applier(w, r, j, new ApplyOrderTest.RecordingListener(), Clock.systemUTC(), new StepTimeouts(LIMIT, LIMIT),
                parallelism, stop);
    }

    @Test
    void independent_clusters_wait_at_the_same_time() {
        FakeWatcher watcher = new FakeWatcher();
        watcher.needTogether = 2;

        ApplyResult r = applier(new FakeWriter(), watcher, new MemoryJournal(), 10, new StopSignal()).apply(twoClusters());

        assertThat(r.succeeded()).as("%s", r.results()).isTrue();
        assertThat(watcher.maxInside.get()).isEqualTo(2);
    }

    @Test
    void parallelism_one_applies_one_cluster_after_the_other_in_plan_order() {
        FakeWriter writer = new FakeWriter();
        FakeWatcher watcher = new FakeWatcher();

        ApplyResult r = applier(writer, watcher, new MemoryJournal(), 1, new StopSignal()).apply(twoClusters());

        assertThat(r.succeeded()).isTrue();
        assertThat(watcher.maxInside.get()).isEqualTo(1);
        assertThat(writer.calls).containsExactly("patch a", "patch b");
    }

    @Test
    void a_failed_step_stops_its_chain_and_the_other_cluster_goes_on() {
        FakeWriter writer = new FakeWriter();
        writer.failPatch = "a";
        MemoryJournal journal = new MemoryJournal();

        ApplyResult r = applier(writer, new FakeWatcher(), journal, 10, new StopSignal()).apply(twoClusters());

        assertThat(r.results()).extracting(StepResult::outcome).containsExactly(StepResult.Outcome.FAILED,
                StepResult.Outcome.SKIPPED, StepResult.Outcome.DONE, StepResult.Outcome.DONE);
        assertThat(r.results().get(1).detail()).isEqualTo("step 1 did not complete");
        assertThat(journal.outcomes).contains("DONE 3", "DONE 4").anyMatch(o -> o.startsWith("FAILED 1: could not update"));
    }

    @Test
    void a_forced_roll_annotates_the_pod_set_and_its_wait_gets_the_time_of_the_annotation() {
        ObjectRef mm2 = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaMirrorMaker2", "ns", "mm2");
        ObjectRef podSet = new ObjectRef("core.strimzi.io/v1beta2", "StrimziPodSet", "ns", "mm2-mirrormaker2");
        List<Step> steps = List.of(
                new Step(1, StepKind.FORCE_ROLL, "mirrormaker2.mm2", podSet, List.of(), new StepPayload.PatchObject(List.of(
                        FieldEdit.set(List.of("metadata", "annotations", "strimzi.io/manual-rolling-update"), "true", false))),
                        "annotate"),
                new Step(2, StepKind.WAIT_FOR_FORCED_ROLL, "mirrormaker2.mm2", mm2, List.of(1),
                        new StepPayload.WaitForRoll(EosMode.PREPARING, null), "wait"));
        FakeWriter writer = new FakeWriter();
        FakeWatcher watcher = new FakeWatcher();
        Instant at = Instant.parse("2026-12-01T12:00:00Z");
        ApplyResult r = new Applier(writer, watcher, new MemoryJournal(), new ApplyOrderTest.RecordingListener(),
                Clock.fixed(at, java.time.ZoneOffset.UTC), new StepTimeouts(LIMIT, LIMIT), 1, new StopSignal())
                .apply(new Plan(Plan.FORMAT_VERSION, "test", Instant.EPOCH, null, Map.of(), List.of(), steps, List.of()));

        assertThat(r.succeeded()).as("%s", r.results()).isTrue();
        assertThat(writer.calls).containsExactly("patch mm2-mirrormaker2");
        assertThat(watcher.forced).containsExactly("KafkaMirrorMaker2 mm2 since " + at + " preparing");
        assertThat(watcher.generations).as("not a plain roll wait").isEmpty();
    }

    @Test
    void a_wait_journals_the_generation_the_write_before_it_produced() {
        MemoryJournal journal = new MemoryJournal();
        FakeWatcher watcher = new FakeWatcher();

        applier(new FakeWriter(), watcher, journal, 1, new StopSignal()).apply(twoClusters());

        assertThat(journal.intents).filteredOn(s -> s.kind() == StepKind.WAIT_FOR_ROLL)
                .extracting(s -> ((StepPayload.WaitForRoll) s.payload()).generation()).containsExactly(7L, 7L);
        assertThat(watcher.generations).containsExactly(7L, 7L);
    }

    @Test
    void a_stop_ends_the_waits_journals_them_and_starts_nothing_more() throws InterruptedException {
        FakeWatcher watcher = new FakeWatcher();
        watcher.gate = new CountDownLatch(1);
        MemoryJournal journal = new MemoryJournal();
        StopSignal stop = new StopSignal();
        FakeWriter writer = new FakeWriter();
        Thread stopper = new Thread(() -> {
            try {
                watcher.entered.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                return;
            }
            stop.requestStop("interrupted by Ctrl-C (SIGINT)");
        });
        stopper.start();

        ApplyResult r = applier(writer, watcher, journal, 1, stop).apply(twoClusters());
        stopper.join();

        assertThat(r.interrupted()).isTrue();
        assertThat(r.stopReason()).isEqualTo("interrupted by Ctrl-C (SIGINT)");
        assertThat(r.results()).extracting(StepResult::outcome).containsExactly(StepResult.Outcome.DONE,
                StepResult.Outcome.FAILED, StepResult.Outcome.SKIPPED, StepResult.Outcome.SKIPPED);
        assertThat(r.results().get(1).detail()).startsWith(Applier.STOPPED);
        assertThat(journal.outcomes).containsExactly("DONE 1", "FAILED 2: " + Applier.STOPPED + " (interrupted by Ctrl-C (SIGINT))");
        assertThat(writer.calls).containsExactly("patch a");
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void a_stop_during_a_write_lets_the_write_finish_and_be_journaled() throws InterruptedException {
        FakeWriter writer = new FakeWriter();
        writer.patchGate = new CountDownLatch(1);
        MemoryJournal journal = new MemoryJournal();
        StopSignal stop = new StopSignal();
        Thread stopper = new Thread(() -> {
            try {
                writer.patchEntered.await(10, TimeUnit.SECONDS);
                stop.requestStop("interrupted by SIGTERM");
                writer.patchGate.countDown();
            } catch (InterruptedException e) {
                writer.patchGate.countDown();
            }
        });
        stopper.start();

        ApplyResult r = applier(writer, new FakeWatcher(), journal, 1, stop).apply(twoClusters());
        stopper.join();

        assertThat(r.results().get(0).outcome()).isEqualTo(StepResult.Outcome.DONE);
        assertThat(r.results().subList(1, 4)).allMatch(s -> s.outcome() == StepResult.Outcome.SKIPPED);
        assertThat(journal.outcomes).containsExactly("DONE 1");
    }

    @Test
    void a_journal_that_cannot_write_stops_the_run_before_anything_else_is_done() {
        MemoryJournal journal = new MemoryJournal();
        journal.failOnIntent = 1;
        FakeWriter writer = new FakeWriter();

        assertThatThrownBy(() -> applier(writer, new FakeWatcher(), journal, 1, new StopSignal()).apply(twoClusters()))
                .hasMessage("database is gone");
        assertThat(writer.calls).as("nothing acts without its intent recorded").containsExactly("patch a");
    }

    @Test
    void chains_follow_depends_on() {
        Plan p = twoClusters();

        assertThat(StepGraph.chains(p.steps())).containsExactly(List.of(0, 1), List.of(2, 3));
    }
}
