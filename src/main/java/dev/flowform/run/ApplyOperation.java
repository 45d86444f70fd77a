package dev.flowform.run;

import dev.flowform.apply.Applier;
import dev.flowform.apply.ApplyListener;
import dev.flowform.apply.ApplyResult;
import dev.flowform.apply.Fabric8ClusterWriter;
import dev.flowform.apply.Fabric8RolloutWatcher;
import dev.flowform.apply.Journal;
import dev.flowform.locking.Sleeper;
import dev.flowform.apply.StepTimeouts;
import dev.flowform.apply.StopSignal;
import dev.flowform.config.StateBackend;
import dev.flowform.diag.Diagnostic;
import dev.flowform.model.LiveState;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.PlanOptions;
import dev.flowform.plan.resume.Resume;
import dev.flowform.state.EnvironmentRecord;
import dev.flowform.state.LockInfo;
import dev.flowform.state.RunOutcome;
import dev.flowform.state.StateBackups;
import dev.flowform.state.StateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One apply of an environment whose state lock is held (Terraform's local backend {@code opApply}): backup, identity
 * guard, resume of an interrupted run, plan (or a saved plan checked for staleness), cluster leases, approval, the
 * steps journaled in the state, then the run's outcome, snapshots and outputs. Reports through {@link ApplyHooks}
 * (docs/architecture.md, "The flow of one apply").
 */
public final class ApplyOperation {

    /**
     * What the user asked for.
     *
     * @param options      the planning flags (ignored with a saved plan)
     * @param planFile     a saved plan to apply exactly, or null to plan now
     * @param autoApprove  apply without asking
     * @param stepTimeout  limit for every wait, or null for the defaults per step kind ({@link StepTimeouts})
     * @param lockTimeout  how long to wait for a held cluster lease (zero: fail at once)
     * @param parallelism  how many steps to run at once over the whole plan (at least 1)
     * @param version      flowform's version, recorded with the run
     * @param dryRun       dry-run the plan's writes on the API server before applying (ignored with a saved plan, which
     *                     was dry-run when it was made)
     * @param replan       the plan command a stale saved plan's error suggests, as the user would paste it
     *                     ({@code flowform plan --dir ... -e ... --out FILE})
     */
    public record Request(PlanOptions options, Path planFile, boolean autoApprove, Duration stepTimeout,
                          Duration lockTimeout, int parallelism, String version, boolean dryRun, String replan) {
    }

    /**
     * The environment's state lock as this apply holds it.
     *
     * @param id           the lock's ID, which the cluster leases carry as their holder identity
     * @param releasedGone IDs of locks released while taking it because their process no longer runs (a cluster
     *                     lease still naming one of them is taken over at once)
     * @param lost         why the lock is no longer held (force-unlocked, database lost), or empty
     */
    public record LockHold(String id, Set<String> releasedGone, Supplier<Optional<String>> lost) {
    }

    private final Environment env;
    private final StateStore state;
    private final RunContext ctx;
    private final Request request;
    private final LockHold lock;
    private final StopSignal stop;
    private final UnaryOperator<Journal> journal;
    private final ApplyHooks hooks;
    private final PlanOperation planner;
    private final ApplyLeases leases;

    /**
     * @param env     the open environment, its state locked by {@code lock}
     * @param ctx     the process context
     * @param request what the user asked for
     * @param lock    the state lock held
     * @param stop    stops the apply between API calls (Ctrl-C, a lost lock); a probe for lost cluster leases is added
     * @param journal decorates the step journal of the run (a fault-injection seam)
     * @param hooks   the view
     */
    public ApplyOperation(Environment env, RunContext ctx, Request request, LockHold lock, StopSignal stop,
                          UnaryOperator<Journal> journal, ApplyHooks hooks) {
        this.env = env;
        this.state = env.state();
        this.ctx = ctx;
        this.request = request;
        this.lock = lock;
        this.stop = stop;
        this.journal = journal;
        this.hooks = hooks;
        this.planner = new PlanOperation(env, ctx.clock(), request.dryRun());
        this.leases = new ApplyLeases(env, ctx, stop, lock, request.lockTimeout(), request.replan(), hooks);
        stop.addProbe(leases::lost);
    }

    /**
     * Runs the apply; the cluster leases are released at the end, whatever happens.
     *
     * @return how it ended
     * @throws OperationFailed after reporting that the cluster cannot be read
     */
    public ApplyOutcome run() {
        try {
            return prepareAndApply();
        } catch (InterruptedException e) {
            // the stop signal ended the wait for a lease; the interrupt flag stays clear so that the state's
            // file I/O while the lock is released and the state closes is not disturbed
            return ApplyOutcome.of(ApplyOutcome.Status.INTERRUPTED_WAITING);
        } finally {
            leases.release();
        }
    }

    /** Releases the cluster leases now (the command is exiting at once); reports what could not be released. */
    public void releaseLeases() {
        leases.release();
    }

    private ApplyOutcome prepareAndApply() throws InterruptedException {
        if (!backUp()) {
            return ApplyOutcome.of(ApplyOutcome.Status.ERROR);
        }
        List<Diagnostic> identity = planner.identity();
        if (!identity.isEmpty()) {
            hooks.diagnostics(identity);
            return ApplyOutcome.of(ApplyOutcome.Status.ERROR);
        }
        PriorRunReader reader = new PriorRunReader(state);
        Optional<PriorRunReader.Prior> prior = reader.unfinished();
        LiveState live = env.cluster().readLive(env.workspace().desired());
        Optional<Resume.Analysis> resume = prior.map(p -> Resume.analyze(p.run(), live, state.cipher()::hash));
        Plan plan;
        if (request.planFile() == null) {
            resume.ifPresent(a -> reader.settle(prior.get(), a));
            plan = fresh(live, resume);
        } else {
            plan = saved(live);
            // the saved plan was made from the state as it was (a plan made after an interruption already carries
            // the waits to resume): what resuming found is recorded only once the plan is known not to be stale
            if (plan != null) {
                resume.ifPresent(a -> reader.settle(prior.get(), a));
            }
        }
        if (plan == null) {
            return ApplyOutcome.of(ApplyOutcome.Status.ERROR);
        }
        if (stop.check()) {
            return stoppedBeforeStart();
        }
        plan = leases.take(plan, live, request.planFile() != null, now -> planAgain(now, prior));
        if (plan == null) {
            return ApplyOutcome.of(ApplyOutcome.Status.ERROR);
        }
        hooks.planned(plan);
        return plan.isRefreshOnly() ? refresh(plan) : applyChanges(plan);
    }

    /** @return the plan made now, or null after reporting that it cannot be applied */
    private Plan fresh(LiveState live, Optional<Resume.Analysis> resume) {
        Plan plan = planner.plan(live, request.options(), resume);
        hooks.diagnostics(plan.diagnostics());
        return plan.isApplyable() ? plan : null;
    }

    /** @return the saved plan, or null after reporting why it cannot be applied */
    private Plan saved(LiveState live) {
        return SavedPlan.forApply(request.planFile(), env.workspace().environment(), state, live, request.replan(), hooks);
    }

    /** @return the plan made again from the cluster {@code now}, or null after reporting that it cannot be applied */
    private Plan planAgain(LiveState now, Optional<PriorRunReader.Prior> prior) {
        return fresh(now, prior.map(p -> Resume.analyze(p.run(), now, state.cipher()::hash)));
    }

    /** Applies a refresh-only plan: records the drifted objects in the state; the cluster is not changed. */
    private ApplyOutcome refresh(Plan plan) {
        if (plan.hasDrift() && mustAsk() && !hooks.approve(env.workspace().environment())) {
            return ApplyOutcome.of(ApplyOutcome.Status.ERROR);
        }
        if (!plan.hasDrift()) {
            hooks.complete(plan, true, "The state already matches the live objects.");
            return ApplyOutcome.of(ApplyOutcome.Status.COMPLETE);
        }
        long runId = startRun("refresh", plan);
        String summary = new StateRecorder(env).acceptDrift(plan);
        state.journal().finishRun(runId, RunOutcome.SUCCEEDED, summary);
        hooks.complete(plan, true, summary);
        return ApplyOutcome.of(ApplyOutcome.Status.COMPLETE);
    }

    private ApplyOutcome applyChanges(Plan plan) {
        if (!plan.hasChanges()) {
            hooks.complete(plan, false, "Resources: 0 added, 0 changed, 0 destroyed.");
            return saveOutputs(null);
        }
        boolean mutates = plan.steps().stream().anyMatch(s -> s.kind().isMutation());
        if (mutates && mustAsk() && !hooks.approve(env.workspace().environment())) {
            return ApplyOutcome.of(ApplyOutcome.Status.ERROR);
        }
        if (stop.check()) {
            return stoppedBeforeStart();
        }
        return execute(plan);
    }

    /** @return true when the user must approve: neither {@code --auto-approve} nor a saved plan */
    private boolean mustAsk() {
        return !request.autoApprove() && request.planFile() == null;
    }

    /** Runs the steps, then records the outcome, the objects as they are now and the outputs. */
    private ApplyOutcome execute(Plan plan) {
        ApplyListener listener = hooks.applying(plan);
        long runId;
        Instant start;
        ApplyResult result;
        try {
            recordIdentity();
            runId = startRun("apply", plan);
            Applier applier = new Applier(new Fabric8ClusterWriter(env.cluster().writeClient(), Sleeper.SYSTEM),
                    new Fabric8RolloutWatcher(env.cluster().client(), ctx.clock(), ctx.progressInterval()),
                    journal.apply(StepJournal.of(state, runId, request.version(), env.secrets()::redact)), listener, ctx.clock(),
                    StepTimeouts.of(request.stepTimeout()), request.parallelism(), stop);
            start = ctx.clock().instant();
            result = applier.apply(plan);
        } finally {
            hooks.applied();
        }
        String summary = ApplyReport.summaryLine(plan, result, Duration.between(start, ctx.clock().instant()));
        Optional<String> lost = lock.lost().get();
        if (lost.isEmpty()) {
            state.journal().finishRun(runId, result.succeeded() ? RunOutcome.SUCCEEDED
                    : result.interrupted() ? RunOutcome.INTERRUPTED : RunOutcome.FAILED, env.secrets().redact(summary));
            new StateRecorder(env).snapshot();
        }
        if (result.succeeded()) {
            hooks.complete(plan, false, summary);
            return saveOutputs(result);
        }
        hooks.incomplete(result, summary, lost);
        return new ApplyOutcome(lost.isPresent() ? ApplyOutcome.Status.LOCK_LOST
                : result.interrupted() ? ApplyOutcome.Status.INTERRUPTED : ApplyOutcome.Status.FAILED, result);
    }

    /** @return the outcome after recording the configuration's outputs in the state */
    private ApplyOutcome saveOutputs(ApplyResult result) {
        try {
            state.outputs().replaceWithConfigured(env.workspace().config().outputs());
        } catch (RuntimeException e) {
            hooks.diagnostics(List.of(Diagnostic.error("Cannot record the outputs", "The apply succeeded, but writing "
                    + "its outputs to the state of environment \"" + env.workspace().environment() + "\" failed: "
                    + e.getMessage())));
            return new ApplyOutcome(ApplyOutcome.Status.ERROR, result);
        }
        hooks.outputs(state.outputs().all());
        return new ApplyOutcome(ApplyOutcome.Status.COMPLETE, result);
    }

    private ApplyOutcome stoppedBeforeStart() {
        hooks.stoppedBeforeStart(stop.reason());
        return ApplyOutcome.of(ApplyOutcome.Status.INTERRUPTED);
    }

    /** @return the new run's ID; its plan is stored with secrets hashed and redacted */
    private long startRun(String kind, Plan plan) {
        String version = request.version();
        return state.journal().startRun(kind, env.secrets().redact(PlanCodec.toJson(plan, version, state.cipher()::hash)),
                LockInfo.localWho(), version);
    }

    /**
     * Backs up the state database before this apply can change it ({@link StateBackups}): once per serial, the newest
     * three kept. A fresh state (serial 0) has nothing to lose and is not backed up.
     *
     * @return false after reporting why the backup failed (then nothing was changed)
     */
    private boolean backUp() {
        Path stateDir = env.workspace().stateDir();
        String name = env.workspace().environment();
        try {
            // backups are copies of H2 files; a PostgreSQL database is backed up with its own tools (docs/state-backends.md)
            if (state.stateRef().serial() > 0 && !(env.workspace().backend() instanceof StateBackend.Pg)) {
                StateBackups.backup(state, stateDir, ctx.clock());
            }
            return true;
        } catch (RuntimeException e) {
            hooks.diagnostics(List.of(Diagnostic.error("Cannot back up the state", "Before an apply flowform backs up the "
                    + "state of environment \"" + name + "\" to " + StateBackups.folder(stateDir, name) + ", which failed: "
                    + e.getMessage() + "\nNothing was changed.")));
            return false;
        }
    }

    /** Records the server and namespaces this environment is being applied to, when they changed (serial +1). */
    private void recordIdentity() {
        String current = env.cluster().serverIdentity();
        String namespaces = String.join(",", env.workspace().managedNamespaces());
        EnvironmentRecord e = state.environment();
        if (!current.equals(e.kubeServer()) || !namespaces.equals(e.kubeNamespace())) {
            state.setKubeServer(current, namespaces);
        }
    }
}
