package dev.flowform.apply;

import dev.flowform.model.ObjectRef;
import dev.flowform.model.strimzi.MirrorMaker2Names;
import dev.flowform.model.strimzi.Strimzi;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Step;
import dev.flowform.plan.StepKind;
import dev.flowform.plan.StepPayload;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The cluster-side lock of one Connect cluster, a Kubernetes {@code Lease} {@code flowform-<connect cluster>} in its
 * namespace, which keeps out every flowform applying that cluster from any folder or machine: holder identity (the
 * state lock ID), duration, acquire and renew times, and who holds it in annotations. {@link #decide} is pure; every
 * write carries the {@code resourceVersion} read, so of two racers exactly one wins; expiry uses the reader's clock,
 * as Kubernetes leader election does (docs/operations.md, "Cluster lease").
 */
public final class ClusterLease {

    /** Prefix of lease names: {@code flowform-<connect cluster name>}. */
    public static final String NAME_PREFIX = "flowform-";

    /** Prefix of the annotations that describe the holder. */
    public static final String ANNOTATION_PREFIX = "flowform.dev/lease-";

    /** How long a lease stays valid without renewal unless {@value #DURATION_ENV} says otherwise: 30 s. */
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(30);

    /** Environment variable with the lease duration in whole seconds (for tests of an expired holder). */
    public static final String DURATION_ENV = "FLOWFORM_LEASE_SECONDS";

    private static final String STRIMZI_CLUSTER_LABEL = "strimzi.io/cluster";

    private ClusterLease() {
    }

    /** What a lease means to the one who reads it. */
    public enum State {
        /** No lease object, or one without a holder: it may be taken. */
        FREE,
        /** Held by the reader itself. */
        MINE,
        /** Held by someone else, renewed recently enough to be valid. */
        HELD,
        /** Held by someone else who stopped renewing it: it may be taken over. */
        EXPIRED
    }

    /**
     * A Connect cluster an apply writes to.
     *
     * @param namespace      its namespace, where the lease lives
     * @param connectCluster the KafkaConnect name
     */
    public record Target(String namespace, String connectCluster) implements Comparable<Target> {
        /** @return the lease's name, {@code flowform-<connect cluster>} */
        public String leaseName() {
            return NAME_PREFIX + connectCluster;
        }

        @Override
        public int compareTo(Target o) {
            int c = namespace.compareTo(o.namespace);
            return c != 0 ? c : connectCluster.compareTo(o.connectCluster);
        }

        @Override
        public String toString() {
            return namespace + "/" + connectCluster;
        }
    }

    /**
     * Who takes a lease: written to {@code holderIdentity} and the annotations.
     *
     * @param identity    the state lock ID
     * @param who         {@code user@host}
     * @param operation   e.g. {@code apply}
     * @param environment the environment applied
     * @param lineage     the environment state's lineage
     */
    public record Owner(String identity, String who, String operation, String environment, String lineage) {
    }

    /**
     * Who holds a lease, as read from it; any part but the identity may be null (a lease written by another tool).
     *
     * @param identity    {@code spec.holderIdentity}
     * @param who         annotation {@code flowform.dev/lease-who}
     * @param operation   annotation {@code flowform.dev/lease-operation}
     * @param environment annotation {@code flowform.dev/lease-environment}
     * @param lineage     annotation {@code flowform.dev/lease-lineage}
     * @param since       annotation {@code flowform.dev/lease-since}, else {@code spec.acquireTime}
     * @param renewed     {@code spec.renewTime}, else {@code spec.acquireTime}
     * @param expires     when the lease lapses unless renewed
     */
    public record Holder(String identity, String who, String operation, String environment, String lineage,
                         Instant since, Instant renewed, Instant expires) {
    }

    /**
     * Decides what {@code lease} means to {@code me} at {@code now}; a holder with no times, or known {@code gone}, counts
     * as expired, and a lease without a duration lasts {@code fallback}.
     *
     * @param lease    the lease as read, or null when it does not exist
     * @param me       our holder identity
     * @param now      the current time
     * @param fallback the duration to assume when the lease gives none
     * @param gone     holder identities known to be gone
     * @return free, mine, held or expired
     */
    public static State decide(Lease lease, String me, Instant now, Duration fallback, Set<String> gone) {
        String holder = lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
        if (holder == null || holder.isEmpty()) {
            return State.FREE;
        }
        if (holder.equals(me)) {
            return State.MINE;
        }
        if (gone.contains(holder)) {
            return State.EXPIRED;
        }
        Instant expires = expiry(lease.getSpec(), fallback);
        return expires != null && expires.isAfter(now) ? State.HELD : State.EXPIRED;
    }

    /**
     * @param lease    a lease with a holder
     * @param fallback the duration to assume when the lease gives none
     * @return who holds it, from its spec and annotations
     */
    public static Holder holder(Lease lease, Duration fallback) {
        LeaseSpec spec = lease.getSpec() == null ? new LeaseSpec() : lease.getSpec();
        Map<String, String> a = lease.getMetadata() == null || lease.getMetadata().getAnnotations() == null ? Map.of()
                : lease.getMetadata().getAnnotations();
        Instant since = parse(a.get(ANNOTATION_PREFIX + "since"));
        Instant acquired = instant(spec.getAcquireTime());
        Instant renewed = instant(spec.getRenewTime());
        return new Holder(spec.getHolderIdentity(), a.get(ANNOTATION_PREFIX + "who"), a.get(ANNOTATION_PREFIX + "operation"),
                a.get(ANNOTATION_PREFIX + "environment"), a.get(ANNOTATION_PREFIX + "lineage"),
                since != null ? since : acquired, renewed != null ? renewed : acquired, expiry(spec, fallback));
    }

    /**
     * The Connect clusters a plan writes to: the KafkaConnect of every mutating step, for a step on a
     * KafkaConnector the Connect cluster it runs on, and for a step on a KafkaMirrorMaker2 (or on its StrimziPodSet,
     * a forced roll) the Connect cluster Strimzi runs for it, {@code <name>-mirrormaker2}, so its lease cannot be
     * confused with a KafkaConnect of the same name. Waits write nothing and take no lease.
     *
     * @param plan             the plan to apply
     * @param connectorCluster the Connect cluster of a KafkaConnector (from the desired or live state), or empty
     *                         when unknown; then the {@code strimzi.io/cluster} label of a created manifest is used
     * @return the targets, sorted (leases are always taken in this order, so two applies never wait on each other)
     */
    public static SortedSet<Target> targets(Plan plan, Function<ObjectRef, Optional<String>> connectorCluster) {
        SortedSet<Target> out = new TreeSet<>();
        for (Step s : plan.steps()) {
            if (!s.kind().isMutation()) {
                continue;
            }
            ObjectRef o = s.object();
            if ("KafkaConnect".equals(o.kind())) {
                out.add(new Target(o.namespace(), o.name()));
                continue;
            }
            if (Strimzi.KAFKA_MIRROR_MAKER_2_KIND.equals(o.kind())) {
                out.add(new Target(o.namespace(), MirrorMaker2Names.podSetName(o.name())));
                continue;
            }
            if (s.kind() == StepKind.FORCE_ROLL) {
                out.add(new Target(o.namespace(), o.name()));
                continue;
            }
            Optional<String> cluster = connectorCluster.apply(o);
            if (cluster.isEmpty() && s.payload() instanceof StepPayload.CreateObject create) {
                cluster = label(create.manifest());
            }
            cluster.ifPresent(c -> out.add(new Target(o.namespace(), c)));
        }
        return out;
    }

    /** What one attempt to take a lease found. */
    public sealed interface Attempt {
        /**
         * The lease is ours now.
         *
         * @param target       the Connect cluster
         * @param tookOverFrom the holder whose lease had expired, when it was taken over
         */
        record Taken(Target target, Optional<Holder> tookOverFrom) implements Attempt {
        }

        /**
         * Someone else holds it.
         *
         * @param target the Connect cluster
         * @param holder who holds it
         */
        record Held(Target target, Holder holder) implements Attempt {
        }
    }

    /**
     * One attempt to take the lease of {@code target}: creates it when absent, takes it when free or expired
     * (an update carrying the {@code resourceVersion} read), renews it when already ours. A write that loses
     * a race (HTTP 409) reads the lease again, at most three times.
     *
     * @param client   the cluster
     * @param target   the Connect cluster
     * @param me       who takes it
     * @param duration the lease duration to write
     * @param now      the current time
     * @param gone     holder identities known to be gone (see {@link #decide})
     * @return taken (perhaps over an expired holder) or held by someone else
     * @throws KubernetesClientException when the API server refuses for another reason (e.g. no permission)
     */
    public static Attempt tryAcquire(KubernetesClient client, Target target, Owner me, Duration duration, Instant now,
                                     Set<String> gone) {
        return readAgainOnConflict(3, () -> {
            Lease current = get(client, target);
            State state = decide(current, me.identity(), now, duration, gone);
            if (state == State.HELD) {
                return new Attempt.Held(target, holder(current, duration));
            }
            Optional<Holder> previous = state == State.EXPIRED ? Optional.of(holder(current, duration)) : Optional.empty();
            if (current == null) {
                client.leases().inNamespace(target.namespace()).resource(fresh(target, me, duration, now)).create();
            } else {
                client.leases().inNamespace(target.namespace()).resource(take(current, me, duration, now, state)).update();
            }
            return new Attempt.Taken(target, previous);
        });
    }

    /**
     * Renews our lease: sets {@code renewTime} to {@code now}, carrying the {@code resourceVersion} read.
     *
     * @param client the cluster
     * @param target the Connect cluster
     * @param me     our identity
     * @param now    the current time
     * @return empty when renewed; otherwise why the lease is no longer ours (deleted, or another holder)
     * @throws KubernetesClientException when the API server cannot be reached or refuses (a 409 is retried once)
     */
    public static Optional<String> renew(KubernetesClient client, Target target, String me, Instant now) {
        return readAgainOnConflict(1, () -> {
            Lease current = get(client, target);
            if (current == null) {
                return Optional.of("the lease " + target.namespace() + "/" + target.leaseName() + " was deleted");
            }
            String holder = current.getSpec() == null ? null : current.getSpec().getHolderIdentity();
            if (!me.equals(holder)) {
                return Optional.of("the lease " + target.namespace() + "/" + target.leaseName() + " is now held by "
                        + (holder == null || holder.isEmpty() ? "nobody" : holder));
            }
            current.getSpec().setRenewTime(time(now));
            client.leases().inNamespace(target.namespace()).resource(current).update();
            return Optional.empty();
        });
    }

    /**
     * Releases our lease: clears the holder, times and holder annotations, carrying the {@code resourceVersion}
     * read; does nothing when it is no longer ours. The object stays (with its {@code leaseTransitions}).
     *
     * @param client the cluster
     * @param target the Connect cluster
     * @param me     our identity
     * @return true when it was ours and is released now
     * @throws KubernetesClientException when the API server cannot be reached or refuses
     */
    public static boolean release(KubernetesClient client, Target target, String me) {
        return readAgainOnConflict(1, () -> {
            Lease current = get(client, target);
            if (current == null || current.getSpec() == null || !me.equals(current.getSpec().getHolderIdentity())) {
                return false;
            }
            current.getSpec().setHolderIdentity(null);
            current.getSpec().setRenewTime(null);
            current.getSpec().setAcquireTime(null);
            Map<String, String> annotations = current.getMetadata().getAnnotations();
            if (annotations != null) {
                annotations.keySet().removeIf(k -> k.startsWith(ANNOTATION_PREFIX));
            }
            client.leases().inNamespace(target.namespace()).resource(current).update();
            return true;
        });
    }

    /**
     * Runs {@code attempt} (read the lease, decide, write), again after a write that lost a race (HTTP 409), at most
     * {@code retries} more times.
     */
    private static <T> T readAgainOnConflict(int retries, java.util.function.Supplier<T> attempt) {
        for (int round = 0; ; round++) {
            try {
                return attempt.get();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || round >= retries) {
                    throw e;
                }
            }
        }
    }

    /**
     * @param env the process environment
     * @return the lease duration: {@value #DURATION_ENV} when it holds a whole number of seconds of at least 1,
     *         else {@link #DEFAULT_DURATION}
     */
    public static Duration duration(Map<String, String> env) {
        String v = env.get(DURATION_ENV);
        if (v != null) {
            try {
                long s = Long.parseLong(v.trim());
                if (s >= 1) {
                    return Duration.ofSeconds(s);
                }
            } catch (NumberFormatException e) {
                // fall back to the default
            }
        }
        return DEFAULT_DURATION;
    }

    /**
     * @param duration the lease duration
     * @return how often a holder renews: a third of the duration (10 s for 30 s), at least 1 s
     */
    public static Duration renewInterval(Duration duration) {
        Duration third = duration.dividedBy(3);
        return third.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : third;
    }

    private static Lease get(KubernetesClient client, Target target) {
        return client.leases().inNamespace(target.namespace()).withName(target.leaseName()).get();
    }

    private static Lease fresh(Target target, Owner me, Duration duration, Instant now) {
        Lease lease = new Lease();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(target.leaseName());
        meta.setNamespace(target.namespace());
        Map<String, String> labels = new HashMap<>();
        labels.put("app.kubernetes.io/managed-by", "flowform");
        meta.setLabels(labels);
        meta.setAnnotations(new HashMap<>());
        lease.setMetadata(meta);
        LeaseSpec spec = new LeaseSpec();
        spec.setLeaseTransitions(0);
        lease.setSpec(spec);
        return take(lease, me, duration, now, State.FREE);
    }

    private static Lease take(Lease lease, Owner me, Duration duration, Instant now, State state) {
        LeaseSpec spec = lease.getSpec() == null ? new LeaseSpec() : lease.getSpec();
        lease.setSpec(spec);
        boolean newHolder = state != State.MINE;
        if (newHolder && lease.getMetadata().getResourceVersion() != null) {
            spec.setLeaseTransitions((spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions()) + 1);
        }
        spec.setHolderIdentity(me.identity());
        spec.setLeaseDurationSeconds((int) Math.max(1, duration.toSeconds()));
        if (newHolder || spec.getAcquireTime() == null) {
            spec.setAcquireTime(time(now));
        }
        spec.setRenewTime(time(now));
        Map<String, String> a = lease.getMetadata().getAnnotations() == null ? new HashMap<>()
                : new HashMap<>(lease.getMetadata().getAnnotations());
        a.put(ANNOTATION_PREFIX + "who", me.who());
        a.put(ANNOTATION_PREFIX + "operation", me.operation());
        a.put(ANNOTATION_PREFIX + "environment", me.environment());
        a.put(ANNOTATION_PREFIX + "lineage", me.lineage());
        if (newHolder || !a.containsKey(ANNOTATION_PREFIX + "since")) {
            a.put(ANNOTATION_PREFIX + "since", now.truncatedTo(ChronoUnit.SECONDS).toString());
        }
        lease.getMetadata().setAnnotations(a);
        return lease;
    }

    private static Instant expiry(LeaseSpec spec, Duration fallback) {
        Instant last = instant(spec.getRenewTime());
        if (last == null) {
            last = instant(spec.getAcquireTime());
        }
        if (last == null) {
            return null;
        }
        Integer seconds = spec.getLeaseDurationSeconds();
        return last.plus(seconds == null || seconds < 1 ? fallback : Duration.ofSeconds(seconds));
    }

    private static Optional<String> label(Map<String, Object> manifest) {
        if (manifest.get("metadata") instanceof Map<?, ?> meta && meta.get("labels") instanceof Map<?, ?> labels
                && labels.get(STRIMZI_CLUSTER_LABEL) instanceof String s) {
            return Optional.of(s);
        }
        return Optional.empty();
    }

    private static ZonedDateTime time(Instant t) {
        return t.truncatedTo(ChronoUnit.MICROS).atZone(ZoneOffset.UTC);
    }

    private static Instant instant(ZonedDateTime t) {
        return t == null ? null : t.toInstant();
    }

    private static Instant parse(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }
}
