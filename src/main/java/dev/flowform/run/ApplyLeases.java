package dev.flowform.run;

import dev.flowform.apply.ClusterLease;
import dev.flowform.apply.HeldLeases;
import dev.flowform.apply.StopSignal;
import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.LiveConnector;
import dev.flowform.model.LiveState;
import dev.flowform.model.ObjectRef;
import dev.flowform.plan.Plan;
import dev.flowform.plan.Staleness;
import dev.flowform.render.Text;
import dev.flowform.state.LockInfo;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The cluster leases of one apply ({@link ClusterLease}): one per Connect cluster the plan writes to, holder
 * identity = the state lock's ID, taken before the plan is shown (waiting up to {@code --lock-timeout} for a held
 * one), renewed while the apply runs, and released before the state lock, also on failure and on Ctrl-C. A lease
 * that cannot be renewed stops the apply like a lost state lock ({@link #lost()} is a stop probe).
 */
final class ApplyLeases {

    /** How many times the plan is made again when the cluster keeps changing while the leases are taken. */
    private static final int MAX_REPLANS = 3;

    private final Environment env;
    private final RunContext ctx;
    private final StopSignal stop;
    private final ApplyOperation.LockHold lock;
    private final Duration lockTimeout;
    private final RunHooks hooks;
    private final String replan;
    private final AtomicReference<HeldLeases> held = new AtomicReference<>();

    /**
     * @param lockTimeout how long to wait for a held lease ({@code --lock-timeout}; zero: one attempt)
     * @param replan      the plan command a stale saved plan's error suggests
     */
    ApplyLeases(Environment env, RunContext ctx, StopSignal stop, ApplyOperation.LockHold lock, Duration lockTimeout,
           String replan, RunHooks hooks) {
        this.env = env;
        this.ctx = ctx;
        this.stop = stop;
        this.lock = lock;
        this.lockTimeout = lockTimeout;
        this.replan = replan;
        this.hooks = hooks;
    }

    /**
     * Takes the lease of every Connect cluster {@code plan} writes to, then makes sure the plan still matches the
     * cluster: when a live object it was made from changed meanwhile (e.g. another apply finished while this one
     * waited), the plan is made again from the live cluster (its new Connect clusters leased too), and a saved
     * plan is refused as stale. A plan that writes nothing takes no lease.
     *
     * @param live   the cluster it was made from
     * @param saved  true for a saved plan (refused, never made again)
     * @param replan makes the plan again from the cluster now; null when that plan cannot be applied (reported)
     * @return the plan to apply, or null after reporting why not (lease held, stale saved plan)
     * @throws InterruptedException after reporting it, when the stop signal ended a wait
     */
    Plan take(Plan plan, LiveState live, boolean saved, Function<LiveState, Plan> replan) throws InterruptedException {
        LiveState read = live;
        Plan current = plan;
        for (int round = 0; ; round++) {
            if (current.isRefreshOnly() || current.steps().stream().noneMatch(s -> s.kind().isMutation())) {
                return current;
            }
            LiveState planned = read;
            SortedSet<ClusterLease.Target> targets = ClusterLease.targets(current, o -> connectorCluster(planned, o));
            HeldLeases mine = leases();
            if (round > 0 && mine.held().containsAll(targets)) {
                return current;
            }
            if (!acquire(mine, targets)) {
                return null;
            }
            LiveState now = env.cluster().readLive(env.workspace().desired());
            if (now.fingerprints().equals(current.liveFingerprints())) {
                return current;
            }
            if (!mayPlanAgain(current, now, saved, round)) {
                return null;
            }
            hooks.note("info", "The cluster changed since it was read; planning again from the live cluster.");
            read = now;
            current = replan.apply(now);
            if (current == null) {
                return null;
            }
        }
    }

    /** @return false after reporting that a saved plan went stale, or that the cluster keeps changing */
    private boolean mayPlanAgain(Plan plan, LiveState now, boolean saved, int round) {
        if (saved) {
            List<Diagnostic> stale = Staleness.check(plan, env.workspace().environment(), env.state().stateRef(),
                    now.fingerprints(), replan);
            hooks.diagnostics(stale.isEmpty() ? List.of(Diagnostic.error("Saved plan is stale", "Live objects the plan "
                    + "was made from changed while this apply took the cluster lease. Create a new plan with: " + replan))
                    : stale);
            return false;
        }
        if (round >= MAX_REPLANS) {
            hooks.diagnostics(List.of(Diagnostic.error("The cluster keeps changing", "Live objects changed again while "
                    + "this apply took the cluster lease; nothing was changed. Run \"flowform apply\" again.")));
            return false;
        }
        return true;
    }

    /** @return this apply's leases, created on first use */
    private HeldLeases leases() {
        HeldLeases mine = held.get();
        if (mine == null) {
            ClusterLease.Owner owner = new ClusterLease.Owner(lock.id(), LockInfo.localWho(), "apply",
                    env.workspace().environment(), env.state().environment().lineage());
            mine = new HeldLeases(env.cluster().client(), owner, ClusterLease.duration(ctx.env()), ctx.clock(), stop,
                    listener(), lock.releasedGone());
            held.set(mine);
        }
        return mine;
    }

    /** @return false after reporting why the leases cannot be taken */
    private boolean acquire(HeldLeases mine, SortedSet<ClusterLease.Target> targets) throws InterruptedException {
        try {
            mine.acquire(targets, lockTimeout);
            return true;
        } catch (HeldLeases.HeldException e) {
            hooks.diagnostics(List.of(refused(e)));
            return false;
        } catch (InterruptedException e) {
            hooks.diagnostics(List.of(Diagnostic.error("Interrupted while waiting for the cluster lease", "Nothing was changed.")));
            throw e;
        } catch (KubernetesClientException e) {
            hooks.diagnostics(List.of(Diagnostic.error("Cannot take the cluster lease", "Taking the Lease of Connect "
                    + "cluster(s) " + targets + " failed: " + (e.getStatus() != null && e.getStatus().getMessage() != null
                    ? e.getStatus().getMessage() : e.getMessage()) + "\nflowform needs get, create, update and delete on "
                    + "leases (coordination.k8s.io) in the Connect clusters' namespaces. Nothing was changed.")));
            return false;
        }
    }

    /** @return the Connect cluster a KafkaConnector runs on, from the desired state, else the live object */
    private Optional<String> connectorCluster(LiveState live, ObjectRef o) {
        for (DesiredFlow f : env.workspace().desired().flows()) {
            for (DesiredConnector d : f.connectors()) {
                if (d.namespace().equals(o.namespace()) && d.name().equals(o.name())) {
                    return Optional.of(d.connectCluster());
                }
            }
        }
        return live.connector(o.namespace(), o.name()).map(LiveConnector::connectCluster);
    }

    private HeldLeases.Listener listener() {
        return new HeldLeases.Listener() {
            @Override
            public void waiting(ClusterLease.Target target, ClusterLease.Holder holder) {
                hooks.note("info", "Acquiring the lease of Connect cluster " + target + " (held by " + holderName(holder)
                        + "). This may take a few moments...");
            }

            @Override
            public void tookOver(ClusterLease.Target target, ClusterLease.Holder previous) {
                hooks.note("warn", "Took over the lease " + target.namespace() + "/" + target.leaseName() + " of Connect "
                        + "cluster " + target + " from " + holderName(previous) + (previous.renewed() == null ? ""
                        : ", last renewed " + previous.renewed() + " (" + Text.duration(
                        Duration.between(previous.renewed(), ctx.clock().instant())) + " ago)")
                        + ": its holder stopped renewing it, so it no longer runs.");
            }
        };
    }

    private static String holderName(ClusterLease.Holder h) {
        StringBuilder sb = new StringBuilder(h.identity());
        if (h.who() != null) {
            sb.append(", ").append(h.operation() == null ? "" : h.operation() + " by ").append(h.who());
        }
        if (h.environment() != null) {
            sb.append(", environment \"").append(h.environment()).append('"');
        }
        return sb.toString();
    }

    /** @return the error for a lease held by another apply, with its holder as {@code force-unlock} shows a lock's */
    private Diagnostic refused(HeldLeases.HeldException e) {
        ClusterLease.Holder h = e.holder();
        ClusterLease.Target t = e.target();
        StringBuilder d = new StringBuilder();
        d.append("Connect cluster ").append(t).append(" is being applied by another flowform: its Lease ")
                .append(t.namespace()).append('/').append(t.leaseName()).append(" is held")
                .append(e.waited().isZero() ? "" : " (waited " + Text.duration(e.waited()) + ")")
                .append(".\nLease holder:\n  ID:          ").append(h.identity());
        if (h.who() != null) {
            d.append("\n  Who:         ").append(h.who());
        }
        if (h.operation() != null) {
            d.append("\n  Operation:   ").append(h.operation());
        }
        if (h.environment() != null) {
            d.append("\n  Environment: ").append(h.environment());
        }
        if (h.lineage() != null) {
            d.append("\n  Lineage:     ").append(h.lineage());
        }
        if (h.since() != null) {
            d.append("\n  Since:       ").append(h.since()).append(" (")
                    .append(Text.duration(Duration.between(h.since(), ctx.clock().instant()))).append(" ago)");
        }
        if (h.expires() != null) {
            d.append("\n  Expires:     ").append(h.expires()).append(" unless renewed");
        }
        d.append("\nNothing was changed.");
        if (e.waited().isZero()) {
            d.append(" To wait for it, add --lock-timeout (e.g. --lock-timeout 10m).");
        }
        return Diagnostic.error("Error acquiring the cluster lease", d.toString());
    }

    /** @return why a cluster lease was lost while applying, for the stop signal; empty while they are held */
    Optional<String> lost() {
        HeldLeases l = held.get();
        return l == null ? Optional.empty() : l.lost().map(m -> "the cluster lease was lost: " + m);
    }

    /** Releases the leases, if any, reporting what could not be released. Idempotent; callable from any thread. */
    void release() {
        HeldLeases l = held.getAndSet(null);
        if (l == null) {
            return;
        }
        for (String problem : l.release()) {
            hooks.note("warn", "Could not release a cluster lease: " + problem + ".");
        }
    }
}
