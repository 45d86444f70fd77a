package dev.flowform.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.flowform.apply.ClusterLease.Attempt;
import dev.flowform.apply.ClusterLease.Owner;
import dev.flowform.apply.ClusterLease.State;
import dev.flowform.apply.ClusterLease.Target;
import dev.flowform.model.EosMode;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.sim.SimSettings;
import dev.flowform.testing.Sim;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster lease: the pure decision (free, mine, held, expired) from a Lease and the time, the Connect
 * clusters a plan writes to, and the lease's life on the embedded API server (create, conflicting updates
 * refused by resourceVersion, renew, release, take-over of an expired holder).
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ClusterLeaseTest {

    private static final Instant T0 = Instant.parse("2030-01-01T10:00:00Z");
    private static final Duration THIRTY = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    /** A clock the test moves by hand. */
    private static final class TestClock extends java.time.Clock {
        private volatile Instant now;

        TestClock(Instant start) {
            now = start;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static Lease lease(String holder, Instant renewed, Integer seconds) {
        return new LeaseBuilder().withMetadata(new ObjectMetaBuilder().withName("flowform-c").withNamespace("ns").build())
                .withNewSpec().withHolderIdentity(holder).withLeaseDurationSeconds(seconds)
                .withRenewTime(renewed == null ? null : renewed.atZone(ZoneOffset.UTC)).endSpec().build();
    }

    @Test
    void no_lease_or_no_holder_is_free() {
        assertThat(ClusterLease.decide(null, "me", T0, THIRTY, Set.of())).isEqualTo(State.FREE);
        assertThat(ClusterLease.decide(lease(null, T0, 30), "me", T0, THIRTY, Set.of())).isEqualTo(State.FREE);
        assertThat(ClusterLease.decide(lease("", T0, 30), "me", T0, THIRTY, Set.of())).isEqualTo(State.FREE);
        assertThat(ClusterLease.decide(new Lease(), "me", T0, THIRTY, Set.of())).isEqualTo(State.FREE);
    }

    @Test
    void our_own_lease_is_mine_even_when_expired() {
        assertThat(ClusterLease.decide(lease("me", T0.minusSeconds(300), 30), "me", T0, THIRTY, Set.of()))
                .isEqualTo(State.MINE);
    }

    @Test
    void another_holder_is_held_until_renew_time_plus_duration_then_expired() {
        Lease l = lease("other", T0, 30);
        assertThat(ClusterLease.decide(l, "me", T0, THIRTY, Set.of())).isEqualTo(State.HELD);
        assertThat(ClusterLease.decide(l, "me", T0.plusSeconds(29), THIRTY, Set.of())).isEqualTo(State.HELD);
        assertThat(ClusterLease.decide(l, "me", T0.plusSeconds(30), THIRTY, Set.of())).isEqualTo(State.EXPIRED);
        assertThat(ClusterLease.decide(l, "me", T0.plusSeconds(31), THIRTY, Set.of())).isEqualTo(State.EXPIRED);
    }

    @Test
    void the_lease_own_duration_wins_over_the_fallback_and_a_missing_one_uses_it() {
        assertThat(ClusterLease.decide(lease("other", T0, 5), "me", T0.plusSeconds(10), THIRTY, Set.of()))
                .isEqualTo(State.EXPIRED);
        assertThat(ClusterLease.decide(lease("other", T0, null), "me", T0.plusSeconds(10), THIRTY, Set.of()))
                .isEqualTo(State.HELD);
        assertThat(ClusterLease.decide(lease("other", T0, null), "me", T0.plusSeconds(31), THIRTY, Set.of()))
                .isEqualTo(State.EXPIRED);
    }

    @Test
    void acquire_time_stands_in_for_a_missing_renew_time_and_without_either_the_holder_counts_as_gone() {
        Lease acquiredOnly = lease("other", null, 30);
        acquiredOnly.getSpec().setAcquireTime(T0.atZone(ZoneOffset.UTC));
        assertThat(ClusterLease.decide(acquiredOnly, "me", T0.plusSeconds(10), THIRTY, Set.of())).isEqualTo(State.HELD);
        assertThat(ClusterLease.decide(lease("other", null, 30), "me", T0, THIRTY, Set.of())).isEqualTo(State.EXPIRED);
    }

    @Test
    void a_holder_known_to_be_gone_is_expired_at_once() {
        assertThat(ClusterLease.decide(lease("dead-lock-id", T0, 30), "me", T0, THIRTY, Set.of("dead-lock-id")))
                .isEqualTo(State.EXPIRED);
    }

    @Test
    void holder_reads_identity_annotations_and_expiry() {
        Lease l = lease("id-1", T0, 30);
        l.getMetadata().setAnnotations(Map.of("flowform.dev/lease-who", "alice@build-7", "flowform.dev/lease-operation", "apply",
                "flowform.dev/lease-environment", "prod", "flowform.dev/lease-lineage", "L", "flowform.dev/lease-since",
                "2030-01-01T09:59:00Z"));
        ClusterLease.Holder h = ClusterLease.holder(l, THIRTY);
        assertThat(h).isEqualTo(new ClusterLease.Holder("id-1", "alice@build-7", "apply", "prod", "L",
                Instant.parse("2030-01-01T09:59:00Z"), T0, T0.plusSeconds(30)));
    }

    @Test
    void duration_comes_from_the_environment_variable_when_valid() {
        assertThat(ClusterLease.duration(Map.of())).isEqualTo(THIRTY);
        assertThat(ClusterLease.duration(Map.of(ClusterLease.DURATION_ENV, "3"))).isEqualTo(Duration.ofSeconds(3));
        assertThat(ClusterLease.duration(Map.of(ClusterLease.DURATION_ENV, "0"))).isEqualTo(THIRTY);
        assertThat(ClusterLease.duration(Map.of(ClusterLease.DURATION_ENV, "x"))).isEqualTo(THIRTY);
        assertThat(ClusterLease.renewInterval(THIRTY)).isEqualTo(Duration.ofSeconds(10));
        assertThat(ClusterLease.renewInterval(Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void targets_are_the_connect_clusters_of_mutating_steps_only() {
        ObjectRef east = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", "repl", "east");
        ObjectRef westWait = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnect", "repl", "west");
        ObjectRef connector = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnector", "repl", "flow-source");
        ObjectRef created = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaConnector", "other", "new-source");
        List<Step> steps = new ArrayList<>();
        steps.add(new Step(1, StepKind.SET_WORKER_EOS, "connect_cluster.east", east, List.of(),
                new StepPayload.SetWorkerEos(EosMode.PREPARING, List.of()), "eos"));
        steps.add(new Step(2, StepKind.WAIT_FOR_ROLL, "connect_cluster.west", westWait, List.of(),
                new StepPayload.WaitForRoll(EosMode.PREPARING, 2L), "wait"));
        steps.add(new Step(3, StepKind.UPDATE_CONNECTOR, "kafka_connector.flow-source", connector, List.of(),
                new StepPayload.PatchObject(List.of()), "patch"));
        steps.add(new Step(4, StepKind.CREATE_CONNECTOR, "kafka_connector.new-source", created, List.of(),
                new StepPayload.CreateObject(Map.of("metadata", Map.of("labels", Map.of("strimzi.io/cluster", "north"))),
                        Set.of()), "create"));
        Plan plan = new Plan(Plan.FORMAT_VERSION, "prod", T0, null, Map.of(), List.of(), steps, List.of());

        assertThat(ClusterLease.targets(plan, o -> o.name().equals("flow-source") ? Optional.of("south") : Optional.empty()))
                .containsExactly(new Target("other", "north"), new Target("repl", "east"), new Target("repl", "south"));
        assertThat(new Target("repl", "east").leaseName()).isEqualTo("flowform-east");
    }

    @Test
    void a_mirror_maker_2_and_its_forced_roll_take_the_lease_of_its_own_connect_cluster() {
        ObjectRef mm2 = new ObjectRef("kafka.strimzi.io/v1beta2", "KafkaMirrorMaker2", "repl", "east");
        ObjectRef podSet = new ObjectRef("core.strimzi.io/v1beta2", "StrimziPodSet", "repl", "east-mirrormaker2");
        List<Step> steps = List.of(
                new Step(1, StepKind.SET_WORKER_EOS, "mirrormaker2.east", mm2, List.of(),
                        new StepPayload.SetWorkerEos(EosMode.PREPARING, List.of()), "eos"),
                new Step(2, StepKind.FORCE_ROLL, "mirrormaker2.east", podSet, List.of(1),
                        new StepPayload.PatchObject(List.of()), "force"));
        Plan plan = new Plan(Plan.FORMAT_VERSION, "prod", T0, null, Map.of(), List.of(), steps, List.of());
        assertThat(ClusterLease.targets(plan, o -> Optional.empty())).containsExactly(new Target("repl", "east-mirrormaker2"));
        assertThat(ClusterLease.targets(new Plan(Plan.FORMAT_VERSION, "prod", T0, null, Map.of(), List.of(),
                List.of(steps.get(1)), List.of()), o -> Optional.empty())).containsExactly(new Target("repl", "east-mirrormaker2"));
    }

    @Test
    void on_the_api_server_one_owner_takes_the_lease_the_other_finds_it_held_until_released_or_expired() {
        try (EmbeddedCluster cluster = Sim.start("existing-v1", tmp, SimSettings.fast())) {
            KubernetesClient client = cluster.client();
            Target t = new Target("replication", "mm2-connect");
            Owner alice = new Owner("lock-a", "alice@a", "apply", "prod", "lineage-a");
            Owner bob = new Owner("lock-b", "bob@b", "apply", "staging", "lineage-b");

            assertThat(ClusterLease.tryAcquire(client, t, alice, THIRTY, T0, Set.of()))
                    .isEqualTo(new Attempt.Taken(t, Optional.empty()));
            Lease stored = client.leases().inNamespace("replication").withName("flowform-mm2-connect").get();
            assertThat(stored.getSpec().getHolderIdentity()).isEqualTo("lock-a");
            assertThat(stored.getSpec().getLeaseDurationSeconds()).isEqualTo(30);
            assertThat(stored.getSpec().getRenewTime().toInstant()).isEqualTo(T0);
            assertThat(stored.getMetadata().getAnnotations()).containsEntry("flowform.dev/lease-who", "alice@a")
                    .containsEntry("flowform.dev/lease-environment", "prod").containsEntry("flowform.dev/lease-lineage", "lineage-a")
                    .containsEntry("flowform.dev/lease-operation", "apply").containsEntry("flowform.dev/lease-since", T0.toString());

            Attempt held = ClusterLease.tryAcquire(client, t, bob, THIRTY, T0.plusSeconds(10), Set.of());
            assertThat(held).isInstanceOfSatisfying(Attempt.Held.class, h -> {
                assertThat(h.holder().identity()).isEqualTo("lock-a");
                assertThat(h.holder().who()).isEqualTo("alice@a");
                assertThat(h.holder().expires()).isEqualTo(T0.plusSeconds(30));
            });

            // a write carrying an old resourceVersion loses (409): that is how two takers never both win
            Lease stale = client.leases().inNamespace("replication").withName("flowform-mm2-connect").get();
            assertThat(ClusterLease.renew(client, t, "lock-a", T0.plusSeconds(10))).isEmpty();
            stale.getSpec().setHolderIdentity("lock-b");
            assertThatThrownBy(() -> client.leases().inNamespace("replication").resource(stale).update())
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));

            // renewed at +10 s: still held at +35 s, expired at +41 s and taken over with the previous holder named
            assertThat(ClusterLease.tryAcquire(client, t, bob, THIRTY, T0.plusSeconds(35), Set.of()))
                    .isInstanceOf(Attempt.Held.class);
            Attempt over = ClusterLease.tryAcquire(client, t, bob, THIRTY, T0.plusSeconds(41), Set.of());
            assertThat(over).isInstanceOfSatisfying(Attempt.Taken.class,
                    a -> assertThat(a.tookOverFrom()).hasValueSatisfying(p -> assertThat(p.identity()).isEqualTo("lock-a")));
            Lease taken = client.leases().inNamespace("replication").withName("flowform-mm2-connect").get();
            assertThat(taken.getSpec().getHolderIdentity()).isEqualTo("lock-b");
            assertThat(taken.getSpec().getLeaseTransitions()).isEqualTo(1);
            assertThat(taken.getMetadata().getAnnotations()).containsEntry("flowform.dev/lease-who", "bob@b");

            // the old holder finds out when it renews, and cannot release what is not its own
            assertThat(ClusterLease.renew(client, t, "lock-a", T0.plusSeconds(42))).hasValueSatisfying(
                    m -> assertThat(m).contains("now held by lock-b"));
            assertThat(ClusterLease.release(client, t, "lock-a")).isFalse();

            assertThat(ClusterLease.release(client, t, "lock-b")).isTrue();
            Lease free = client.leases().inNamespace("replication").withName("flowform-mm2-connect").get();
            assertThat(free.getSpec().getHolderIdentity()).isNull();
            assertThat(free.getMetadata().getAnnotations()).doesNotContainKey("flowform.dev/lease-who");
            assertThat(ClusterLease.tryAcquire(client, t, alice, THIRTY, T0.plusSeconds(43), Set.of()))
                    .isEqualTo(new Attempt.Taken(t, Optional.empty()));
        }
    }

    @Test
    void leases_wait_until_the_holder_lets_go_renew_and_report_a_lost_lease() throws Exception {
        try (EmbeddedCluster cluster = Sim.start("existing-v1", tmp, SimSettings.fast())) {
            KubernetesClient client = cluster.client();
            Target t = new Target("replication", "mm2-connect");
            TestClock clock = new TestClock(T0);
            Owner alice = new Owner("lock-a", "alice@a", "apply", "prod", "lineage-a");
            List<String> heard = new ArrayList<>();
            HeldLeases.Listener listener = new HeldLeases.Listener() {
                @Override
                public void waiting(Target target, ClusterLease.Holder holder) {
                    heard.add("waiting for " + holder.identity());
                }

                @Override
                public void tookOver(Target target, ClusterLease.Holder previous) {
                    heard.add("took over from " + previous.identity());
                }
            };
            HeldLeases a = new HeldLeases(client, alice, THIRTY, clock, new StopSignal(), listener, Set.of());
            a.acquire(List.of(t), Duration.ZERO);
            assertThat(a.held()).containsExactly(t);

            HeldLeases b = new HeldLeases(client, new Owner("lock-b", "bob@b", "apply", "prod", "lineage-b"), THIRTY,
                    clock, new StopSignal(), listener, Set.of());
            assertThatThrownBy(() -> b.acquire(List.of(t), Duration.ZERO)).isInstanceOfSatisfying(HeldLeases.HeldException.class,
                    e -> {
                        assertThat(e.holder().identity()).isEqualTo("lock-a");
                        assertThat(e.waited()).isZero();
                    });

            clock.advance(Duration.ofSeconds(20));
            a.renewAll();
            assertThat(a.lost()).isEmpty();
            clock.advance(Duration.ofSeconds(20));
            assertThatThrownBy(() -> b.acquire(List.of(t), Duration.ZERO)).isInstanceOf(HeldLeases.HeldException.class);

            // a known-gone holder is taken over at once, and the old holder learns it lost the lease
            HeldLeases c = new HeldLeases(client, new Owner("lock-c", "carol@c", "apply", "prod", "lineage-a"), THIRTY,
                    clock, new StopSignal(), listener, Set.of("lock-a"));
            c.acquire(List.of(t), Duration.ZERO);
            assertThat(heard).containsExactly("took over from lock-a");
            a.renewAll();
            assertThat(a.lost()).hasValueSatisfying(m -> assertThat(m).contains("now held by lock-c"));
            assertThat(a.release()).isEmpty();
            assertThat(client.leases().inNamespace("replication").withName("flowform-mm2-connect").get().getSpec()
                    .getHolderIdentity()).isEqualTo("lock-c");

            assertThat(c.release()).isEmpty();
            assertThat(client.leases().inNamespace("replication").withName("flowform-mm2-connect").get().getSpec()
                    .getHolderIdentity()).isNull();
        }
    }
}
