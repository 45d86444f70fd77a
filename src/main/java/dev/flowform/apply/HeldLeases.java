package dev.flowform.apply;

import dev.flowform.apply.ClusterLease.Attempt;
import dev.flowform.apply.ClusterLease.Holder;
import dev.flowform.apply.ClusterLease.Owner;
import dev.flowform.apply.ClusterLease.Target;
import dev.flowform.locking.LockWait;
import dev.flowform.locking.Renewal;
import dev.flowform.locking.Sleeper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link ClusterLease leases} one apply holds, one per Connect cluster it writes to: taken in a fixed order
 * (waiting as for the state lock, {@link LockWait}; taking over expired ones), renewed every third of the duration
 * ({@link Renewal}), released at the end; {@link #lost()} stops the apply when one could not be renewed. Thread-safe.
 */
public final class HeldLeases implements AutoCloseable {

    /** Hears what taking the leases went through, to tell the user. */
    public interface Listener {
        /**
         * A lease is held; this apply waits for it (called once per lease waited for).
         *
         * @param target the Connect cluster
         * @param holder who holds it
         */
        void waiting(Target target, Holder holder);

        /**
         * An expired lease was taken over.
         *
         * @param target   the Connect cluster
         * @param previous the holder that stopped renewing it
         */
        void tookOver(Target target, Holder previous);
    }

    /** A lease stayed held by someone else for longer than the timeout allowed. */
    public static final class HeldException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Target target;
        private final transient Holder holder;
        private final Duration waited;

        /**
         * @param target the Connect cluster
         * @param holder who holds its lease
         * @param waited how long this apply waited (zero: it did not)
         */
        public HeldException(Target target, Holder holder, Duration waited) {
            super("the lease of Connect cluster " + target + " is held by " + holder.identity());
            this.target = target;
            this.holder = holder;
            this.waited = waited;
        }

        /** @return the Connect cluster */
        public Target target() {
            return target;
        }

        /** @return who holds its lease */
        public Holder holder() {
            return holder;
        }

        /** @return how long this apply waited before giving up (zero: it did not wait) */
        public Duration waited() {
            return waited;
        }
    }

    private final KubernetesClient client;
    private final Owner me;
    private final Duration duration;
    private final Clock clock;
    private final Sleeper sleeper;
    private final Listener listener;
    private final Set<String> gone;
    private final Map<Target, Instant> held = new LinkedHashMap<>();
    private Renewal renewer;
    private String lost;

    /**
     * The leases of one apply, pausing with the system's sleeper while waiting; {@code gone} holds, for example, the
     * state lock IDs this apply released because their process no longer runs.
     *
     * @param stop interrupts the pauses while waiting (Ctrl-C)
     * @see #HeldLeases(KubernetesClient, Owner, Duration, Clock, Sleeper, Listener, Set) the other parameters
     */
    public HeldLeases(KubernetesClient client, Owner me, Duration duration, Clock clock, StopSignal stop, Listener listener,
                         Set<String> gone) {
        this(client, me, duration, clock, d -> stop.interruptibly(() -> {
            Sleeper.SYSTEM.sleep(d);
            return null;
        }), listener, gone);
    }

    /**
     * @param client   the cluster the leases live in
     * @param me       who takes them
     * @param duration the lease duration written to each lease
     * @param clock    the current time
     * @param sleeper  pauses while waiting for a held lease (interrupted by a stop request)
     * @param listener told about waits and take-overs
     * @param gone     holder identities known to be gone, whose leases are taken over at once
     */
    public HeldLeases(KubernetesClient client, Owner me, Duration duration, Clock clock, Sleeper sleeper,
                         Listener listener, Set<String> gone) {
        this.gone = Set.copyOf(gone);
        this.client = client;
        this.me = me;
        this.duration = duration;
        this.clock = clock;
        this.sleeper = sleeper;
        this.listener = listener;
    }

    /**
     * Takes the lease of every target not held yet, in order, and starts renewing them. A held lease is asked
     * for again after pauses of 1 s doubling to 16 s (never past its expiry, so an abandoned one is taken over
     * promptly) until {@code timeout} has passed; then every lease taken by this call is released again.
     *
     * @param targets the Connect clusters, sorted
     * @param timeout how long to wait for a held lease (zero: one attempt)
     * @throws HeldException        when a lease stays held
     * @throws InterruptedException when the stop signal ended a wait
     * @throws KubernetesClientException when the API server refuses (e.g. no permission on leases)
     */
    public void acquire(Collection<Target> targets, Duration timeout) throws InterruptedException {
        List<Target> takenNow = new ArrayList<>();
        try {
            for (Target t : targets) {
                synchronized (this) {
                    if (held.containsKey(t)) {
                        continue;
                    }
                }
                acquireOne(t, timeout);
                takenNow.add(t);
            }
        } catch (InterruptedException | RuntimeException e) {
            for (Target t : takenNow) {
                releaseOne(t, new ArrayList<>());
            }
            throw e;
        }
        startRenewing();
    }

    private void acquireOne(Target target, Duration timeout) throws InterruptedException {
        LockWait wait = new LockWait(timeout, clock, sleeper);
        while (true) {
            Instant now = clock.instant();
            Attempt a = ClusterLease.tryAcquire(client, target, me, duration, now, gone);
            if (a instanceof Attempt.Taken taken) {
                synchronized (this) {
                    held.put(target, now);
                }
                taken.tookOverFrom().ifPresent(h -> listener.tookOver(target, h));
                return;
            }
            Holder holder = ((Attempt.Held) a).holder();
            Duration remaining = wait.remaining(waited -> new HeldException(target, holder, waited),
                    () -> listener.waiting(target, holder));
            Duration untilExpiry = holder.expires() == null ? null : Duration.between(now, holder.expires()).plusMillis(50);
            // never past a held lease's expiry, so an abandoned one is taken over promptly
            wait.pause(remaining, untilExpiry == null || !untilExpiry.isNegative() ? untilExpiry : Duration.ofMillis(50));
        }
    }

    private synchronized void startRenewing() {
        if (renewer != null || held.isEmpty()) {
            return;
        }
        renewer = Renewal.start("flowform-lease-renewal", ClusterLease.renewInterval(duration), this::renewAll);
    }

    /** Renews every held lease once; a lease that is no longer ours, or not renewed for a whole duration, is lost. */
    void renewAll() {
        List<Target> targets;
        synchronized (this) {
            if (lost != null) {
                return;
            }
            targets = new ArrayList<>(held.keySet());
        }
        for (Target t : targets) {
            Instant now = clock.instant();
            String problem;
            try {
                problem = ClusterLease.renew(client, t, me.identity(), now).orElse(null);
                if (problem == null) {
                    synchronized (this) {
                        if (held.containsKey(t)) {
                            held.put(t, now);
                        }
                    }
                    continue;
                }
            } catch (KubernetesClientException e) {
                Instant last;
                synchronized (this) {
                    last = held.get(t);
                }
                if (last == null || Duration.between(last, now).compareTo(duration) < 0) {
                    continue;
                }
                problem = "the lease of Connect cluster " + t + " could not be renewed for " + Duration.between(last, now)
                        .toSeconds() + " s: " + e.getMessage();
            }
            synchronized (this) {
                held.remove(t);
                if (lost == null) {
                    lost = problem;
                }
            }
        }
    }

    /** @return why a lease is no longer ours (taken by another holder, deleted, not renewable), or empty */
    public synchronized Optional<String> lost() {
        return Optional.ofNullable(lost);
    }

    /** @return the Connect clusters whose leases are held now */
    public synchronized Set<Target> held() {
        return Set.copyOf(held.keySet());
    }

    /**
     * Stops renewing and releases every held lease (idempotent; never throws).
     *
     * @return one line per lease that could not be released (it then lapses after its duration)
     */
    public List<String> release() {
        Renewal r;
        List<Target> targets;
        synchronized (this) {
            r = renewer;
            renewer = null;
            targets = new ArrayList<>(held.keySet());
        }
        if (r != null) {
            r.close();
        }
        List<String> problems = new ArrayList<>();
        for (Target t : targets) {
            releaseOne(t, problems);
        }
        return problems;
    }

    private void releaseOne(Target t, List<String> problems) {
        synchronized (this) {
            held.remove(t);
        }
        try {
            ClusterLease.release(client, t, me.identity());
        } catch (RuntimeException e) {
            problems.add("the lease " + t.namespace() + "/" + t.leaseName() + " could not be released (" + e.getMessage()
                    + "); it lapses " + duration.toSeconds() + " s after its last renewal");
        }
    }

    /** Same as {@link #release()}, ignoring what could not be released. */
    @Override
    public void close() {
        release();
    }
}
