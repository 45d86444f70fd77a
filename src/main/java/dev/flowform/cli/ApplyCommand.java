package dev.flowform.cli;

import dev.flowform.apply.Applier;
import dev.flowform.apply.ClusterLease;
import dev.flowform.apply.ClusterLeases;
import dev.flowform.apply.ApplyListener;
import dev.flowform.apply.ApplyResult;
import dev.flowform.apply.Fabric8ClusterWriter;
import dev.flowform.apply.Fabric8RolloutWatcher;
import dev.flowform.apply.Resume;
import dev.flowform.apply.Sleeper;
import dev.flowform.apply.StepTimeouts;
import dev.flowform.apply.StopSignal;
import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.LiveState;
import dev.flowform.plan.DriftEntry;
import dev.flowform.plan.Json;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.Staleness;
import dev.flowform.render.PlanRenderer;
import dev.flowform.render.Style;
import dev.flowform.state.LockInfo;
import dev.flowform.state.ResourceSnapshot;
import dev.flowform.state.RunOutcome;
import dev.flowform.state.StateBackups;
import dev.flowform.state.StateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code flowform apply [FILE]}: under the environment's lock, continues an interrupted run if there is
 * one, plans from the live cluster (or reads a saved plan and checks it is not stale), asks for approval
 * (unless {@code --auto-approve} or a plan file), then executes the steps (Connect clusters in parallel,
 * each cluster's steps in order), journaling every step in the state database. A refresh-only plan
 * records the drifted objects in the state instead; a successful apply records the outputs.
 *
 * <p>Before it shows the plan, it takes the cluster lease ({@link ClusterLease}) of every Connect cluster the
 * plan writes to, holder identity = the state lock's ID, waiting up to {@code --lock-timeout} for a held one;
 * the leases are renewed while the apply runs and released before the state lock, also on failure and on
 * Ctrl-C. A lease that cannot be renewed stops the apply like a lost state lock.
 *
 * <p>Exit codes: 0 when every step is done (or there was nothing to do); 1 on an error or a failed
 * step; 130 after Ctrl-C (143 after SIGTERM), once the step in flight is journaled and the lock is
 * released.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = "Plan (or take a saved plan), ask for approval, then execute the steps in order, waiting for every roll.")
public final class ApplyCommand implements Callable<Integer> {

    private enum Phase { PREPARING, APPROVAL, APPLYING }

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Option(names = {"--auto-approve", "-auto-approve"}, description = "Apply without asking for approval.")
    boolean autoApprove;

    @Option(names = {"--timeout"}, paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Limit for every wait. Default per step kind: WAIT_FOR_ROLL 20m, WAIT_FOR_CONNECTOR_READY 5m.")
    Duration timeout;

    @Option(names = {"--lock-timeout", "-lock-timeout"}, paramLabel = "DURATION", defaultValue = "0s",
            converter = DurationConverter.class,
            description = "How long to retry when the state lock or a Connect cluster's lease is held (default: ${DEFAULT-VALUE}, fail at once).")
    Duration lockTimeout;

    @Option(names = {"--parallelism", "-parallelism"}, paramLabel = "N", defaultValue = "10",
            description = "How many Connect clusters to apply at once (default: ${DEFAULT-VALUE}); each cluster's steps stay in order.")
    int parallelism;

    @Option(names = {"--json", "-json"},
            description = "Print one JSON object per line (Terraform's machine-readable UI); needs --auto-approve or FILE.")
    boolean json;

    @Mixin
    PlanningOptions planning;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE",
            description = "A plan saved with \"flowform plan --out FILE\": apply exactly it (no new plan, no prompt), "
                    + "or refuse when it is stale.")
    Path planFile;

    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.PREPARING);
    private final AtomicInteger signalExit = new AtomicInteger();
    private final AtomicReference<ClusterLeases> leases = new AtomicReference<>();

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        CliContext ctx = parent.context();
        JsonUi ui = null;
        if (json) {
            ui = new JsonUi(term, ctx.clock());
            term.json(ui);
            ui.version(Version.get());
            if (!autoApprove && planFile == null) {
                term.error("--json needs --auto-approve", "With --json there is no one to ask for approval; add "
                        + "--auto-approve (as Terraform's apply -json requires).");
                return 1;
            }
        }
        if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
            term.error("Invalid --timeout", "--timeout must be longer than zero, got " + timeout + ".");
            return 1;
        }
        if (parallelism < 1) {
            term.error("Invalid --parallelism", "--parallelism must be at least 1, got " + parallelism + ".");
            return 1;
        }
        if (planFile != null && !SavedPlanFile.checkArguments(planFile, common, planning, term)) {
            return 1;
        }
        StopSignal stop = new StopSignal();
        StateLock lock = new StateLock("apply", lockTimeout, "apply of " + common.dir().toAbsolutePath().normalize(), ctx,
                term, stop, releaseHint());
        Interrupts signals = Interrupts.install((sig, n) -> onSignal(sig, n, stop, lock, term));
        try (Session session = Session.open(common, ctx, term, lock)) {
            stop.addProbe(lock::lost);
            stop.addProbe(this::leaseLost);
            try {
                return applyLocked(session, term, ctx, stop, lock, ui);
            } finally {
                releaseLeases(term);
            }
        } catch (CommandFailed e) {
            return signalExit.get() != 0 ? signalExit.get() : e.exitCode();
        } finally {
            signals.close();
        }
    }

    /** The options that select this environment, for the force-unlock hint. */
    private String releaseHint() {
        StringBuilder sb = new StringBuilder();
        CommandHint.selecting(common, null).forEach(a -> sb.append(' ').append(CommandHint.quote(a)));
        return sb.toString();
    }

    private void onSignal(String signal, int count, StopSignal stop, StateLock lock, Terminal term) {
        int code = Interrupts.exitCode(signal);
        if (count == 1) {
            signalExit.set(code);
            stop.requestStop("interrupted by " + ("INT".equals(signal) ? "Ctrl-C (SIGINT)" : "SIGTERM"));
            if (!term.isJson()) {
                term.errorLine("");
            }
            term.note("warn", "Interrupt received. Please wait: flowform finishes the API call in flight, records it and "
                    + "releases the state lock. Interrupt again to exit at once.");
            if (phase.get() == Phase.APPROVAL) {
                releaseLeases(term);
                lock.release();
                term.errorLine("Apply cancelled; nothing was changed.");
                System.exit(code);
            }
        } else {
            term.errorLine("Second interrupt: exiting at once. Run \"flowform apply\" again to continue from the live cluster.");
            releaseLeases(term);
            lock.release();
            Runtime.getRuntime().halt(code);
        }
    }

    private int applyLocked(Session session, Terminal term, CliContext ctx, StopSignal stop, StateLock lock, JsonUi ui) {
        StateStore state = session.state();
        if (!backUp(session, term, ctx)) {
            return 1;
        }
        Optional<Diagnostic> identity = session.identityProblem();
        if (identity.isPresent()) {
            term.diagnostics(List.of(identity.get()));
            return 1;
        }
        Optional<ResumeSupport.Prior> prior = ResumeSupport.unfinished(state);
        LiveState live = session.readLive(term);
        Optional<Resume.Analysis> resume = prior.map(p -> Resume.analyze(p.run(), live, state::hashSecret));
        Plan plan;
        if (planFile == null) {
            resume.ifPresent(a -> ResumeSupport.settle(state, prior.get(), a));
            plan = session.plan(live, planning.toOptions(), resume);
            term.diagnostics(plan.diagnostics());
            if (!plan.isApplyable()) {
                return 1;
            }
        } else {
            plan = savedPlan(session, term, live);
            if (plan == null) {
                return 1;
            }
            // the saved plan was made from the state as it was (a plan made after an interruption already
            // carries the waits to resume); record what resuming found only now that it is known not stale
            resume.ifPresent(a -> ResumeSupport.settle(state, prior.get(), a));
        }
        if (stop.check()) {
            return stoppedBeforeStart(term, stop);
        }
        plan = underLeases(session, term, ctx, stop, lock, plan, prior, live);
        if (plan == null) {
            return 1;
        }
        if (ui != null) {
            ui.plannedChanges(plan);
            ui.changeSummary(plan, "plan", planLine(plan));
        } else {
            term.print(PlanRenderer.render(PlanCodec.decode(PlanCodec.toJson(plan, Version.get(), PlanCodec.MASK)),
                    term.style()));
        }
        if (plan.isRefreshOnly()) {
            if (plan.hasDrift() && !autoApprove && planFile == null && !approve(session, term, ctx)) {
                return 1;
            }
            return acceptDrift(session, term, ui, plan);
        }
        if (!plan.hasChanges()) {
            String done = "Apply complete! Resources: 0 added, 0 changed, 0 destroyed.";
            if (ui != null) {
                ui.changeSummary(plan, "apply", done);
            } else {
                term.println("");
                term.println(term.style().green(term.style().bold("Apply complete!")) + " Resources: 0 added, 0 changed, 0 destroyed.");
            }
            return saveOutputs(session, term, ui);
        }
        boolean mutates = plan.steps().stream().anyMatch(s -> s.kind().isMutation());
        if (!autoApprove && planFile == null && mutates && !approve(session, term, ctx)) {
            return 1;
        }
        if (stop.check()) {
            return stoppedBeforeStart(term, stop);
        }
        if (ui == null) {
            term.println("");
        }
        session.recordIdentity();
        String version = Version.get();
        long runId = state.startRun("apply", term.redact(PlanCodec.toJson(plan, version, state::hashSecret)),
                LockInfo.localWho(), version);
        phase.set(Phase.APPLYING);
        ApplyListener listener;
        LiveProgress live2 = null;
        if (ui != null) {
            listener = ui.listener(plan);
        } else if (ctx.prompter().interactive() && term.style() == Style.ANSI) {
            live2 = new LiveProgress(term, ctx.clock(), columns(ctx));
            listener = live2;
        } else {
            listener = new HumanProgress(term);
        }
        Applier applier = new Applier(new Fabric8ClusterWriter(session.writeClient(), Sleeper.SYSTEM),
                new Fabric8RolloutWatcher(session.client(), ctx.clock(), ctx.progressInterval()),
                ctx.journalDecorator().apply(new StateJournal(state, runId, version, term::redact)), listener, ctx.clock(),
                StepTimeouts.of(timeout), parallelism, stop);
        Instant start = ctx.clock().instant();
        ApplyResult result;
        try {
            result = applier.apply(plan);
        } finally {
            if (live2 != null) {
                live2.close();
            }
        }
        Duration took = Duration.between(start, ctx.clock().instant());
        String summary = ApplyReport.summaryLine(plan, result, took);
        Optional<String> lost = lock.lost();
        if (lost.isEmpty()) {
            state.finishRun(runId, result.succeeded() ? RunOutcome.SUCCEEDED
                    : result.interrupted() ? RunOutcome.INTERRUPTED : RunOutcome.FAILED, term.redact(summary));
            snapshot(session, term);
        }
        int code = report(term, ui, plan, result, summary, lost);
        return code == 0 ? saveOutputs(session, term, ui) : code;
    }

    /**
     * Backs up the state database before this apply can change it ({@link StateBackups}): once per serial, the newest
     * three kept. A fresh state (serial 0) has nothing to lose and is not backed up.
     *
     * @return false after printing why the backup failed (then nothing was changed)
     */
    static boolean backUp(Session session, Terminal term, CliContext ctx) {
        StateStore state = session.state();
        try {
            if (state.stateRef().serial() > 0) {
                StateBackups.backup(state, session.stateDir(), ctx.clock());
            }
            return true;
        } catch (RuntimeException e) {
            term.error("Cannot back up the state", "Before an apply flowform backs up the state of environment \""
                    + session.environment() + "\" to " + StateBackups.folder(session.stateDir(), session.environment())
                    + ", which failed: " + e.getMessage() + "\nNothing was changed.");
            return false;
        }
    }

    /**
     * Takes the cluster lease of every Connect cluster {@code plan} writes to (see {@link ClusterLease}), waiting
     * up to {@code --lock-timeout} for a held one, then makes sure the plan still matches the cluster: when a
     * live object it was made from changed meanwhile (e.g. another apply finished while this one waited), a fresh
     * plan is made again from the live cluster (its new Connect clusters leased too), and a saved plan is refused
     * as stale. A plan that writes nothing takes no lease.
     *
     * @return the plan to apply, or null after printing why not (lease held, stale saved plan)
     * @throws CommandFailed exit 130 when interrupted while waiting
     */
    private Plan underLeases(Session session, Terminal term, CliContext ctx, StopSignal stop, StateLock lock, Plan plan,
                             Optional<ResumeSupport.Prior> prior, LiveState live) {
        StateStore state = session.state();
        LiveState read = live;
        for (int round = 0; ; round++) {
            if (plan.isRefreshOnly() || plan.steps().stream().noneMatch(s -> s.kind().isMutation())) {
                return plan;
            }
            LiveState planned = read;
            java.util.SortedSet<ClusterLease.Target> targets = ClusterLease.targets(plan,
                    o -> connectorCluster(session, planned, o));
            ClusterLeases mine = leases.get();
            if (mine == null) {
                ClusterLease.Owner owner = new ClusterLease.Owner(lock.held().id(), LockInfo.localWho(), "apply",
                        session.environment(), state.environment().lineage());
                mine = new ClusterLeases(session.client(), owner, ClusterLease.duration(ctx.env()), ctx.clock(), stop,
                        leaseListener(term, ctx), lock.releasedGone());
                leases.set(mine);
            }
            if (round > 0 && mine.held().containsAll(targets)) {
                return plan;
            }
            try {
                mine.acquire(targets, lockTimeout);
            } catch (ClusterLeases.HeldException e) {
                leaseRefused(term, ctx, e);
                return null;
            } catch (InterruptedException e) {
                term.error("Interrupted while waiting for the cluster lease", "Nothing was changed.");
                throw new CommandFailed(signalExit.get() != 0 ? signalExit.get() : 130);
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                term.error("Cannot take the cluster lease", "Taking the Lease of Connect cluster(s) " + targets + " failed: "
                        + (e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage())
                        + "\nflowform needs get, create, update and delete on leases (coordination.k8s.io) in the Connect "
                        + "clusters' namespaces. Nothing was changed.");
                return null;
            }
            LiveState now = session.readLive(term);
            if (now.fingerprints().equals(plan.liveFingerprints())) {
                return plan;
            }
            if (planFile != null) {
                List<Diagnostic> stale = Staleness.check(plan, session.environment(), state.stateRef(), now.fingerprints());
                term.diagnostics(stale.isEmpty() ? List.of(Diagnostic.error("Saved plan is stale", "Live objects the plan "
                        + "was made from changed while this apply took the cluster lease. Create a new plan with "
                        + "\"flowform plan --out FILE\".")) : stale);
                return null;
            }
            if (round >= 3) {
                term.error("The cluster keeps changing", "Live objects changed again while this apply took the cluster lease; "
                        + "nothing was changed. Run \"flowform apply\" again.");
                return null;
            }
            term.note("info", "The cluster changed since it was read; planning again from the live cluster.");
            read = now;
            plan = session.plan(now, planning.toOptions(),
                    prior.map(p -> dev.flowform.apply.Resume.analyze(p.run(), now, state::hashSecret)));
            term.diagnostics(plan.diagnostics());
            if (!plan.isApplyable()) {
                return null;
            }
        }
    }

    /** @return the Connect cluster a KafkaConnector runs on, from the desired state, else the live object */
    private static Optional<String> connectorCluster(Session session, LiveState live, dev.flowform.model.ObjectRef o) {
        for (DesiredFlow f : session.desired().flows()) {
            for (DesiredConnector d : f.connectors()) {
                if (d.namespace().equals(o.namespace()) && d.name().equals(o.name())) {
                    return Optional.of(d.connectCluster());
                }
            }
        }
        return live.connector(o.namespace(), o.name()).map(dev.flowform.model.LiveConnector::connectCluster);
    }

    private static ClusterLeases.Listener leaseListener(Terminal term, CliContext ctx) {
        return new ClusterLeases.Listener() {
            @Override
            public void waiting(ClusterLease.Target target, ClusterLease.Holder holder) {
                term.note("info", "Acquiring the lease of Connect cluster " + target + " (held by " + holderName(holder)
                        + "). This may take a few moments...");
            }

            @Override
            public void tookOver(ClusterLease.Target target, ClusterLease.Holder previous) {
                term.note("warn", "Took over the lease " + target.namespace() + "/" + target.leaseName() + " of Connect "
                        + "cluster " + target + " from " + holderName(previous) + (previous.renewed() == null ? ""
                        : ", last renewed " + previous.renewed() + " (" + dev.flowform.render.Text.duration(
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

    private void leaseRefused(Terminal term, CliContext ctx, ClusterLeases.HeldException e) {
        ClusterLease.Holder h = e.holder();
        ClusterLease.Target t = e.target();
        Instant now = ctx.clock().instant();
        StringBuilder d = new StringBuilder();
        d.append("Connect cluster ").append(t).append(" is being applied by another flowform: its Lease ")
                .append(t.namespace()).append('/').append(t.leaseName()).append(" is held")
                .append(e.waited().isZero() ? "" : " (waited " + dev.flowform.render.Text.duration(e.waited()) + ")")
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
                    .append(dev.flowform.render.Text.duration(Duration.between(h.since(), now))).append(" ago)");
        }
        if (h.expires() != null) {
            d.append("\n  Expires:     ").append(h.expires()).append(" unless renewed");
        }
        d.append("\nNothing was changed.");
        if (e.waited().isZero()) {
            d.append(" To wait for it, add --lock-timeout (e.g. --lock-timeout 10m).");
        }
        term.error("Error acquiring the cluster lease", d.toString());
    }

    /** @return why a cluster lease was lost while applying, for the stop signal */
    private Optional<String> leaseLost() {
        ClusterLeases l = leases.get();
        return l == null ? Optional.empty() : l.lost().map(m -> "the cluster lease was lost: " + m);
    }

    /** Releases the cluster leases, if any; prints what could not be released. Idempotent. */
    private void releaseLeases(Terminal term) {
        ClusterLeases l = leases.getAndSet(null);
        if (l == null) {
            return;
        }
        for (String problem : l.release()) {
            term.note("warn", "Could not release a cluster lease: " + problem + ".");
        }
    }

    /** Asks for approval while a Ctrl-C is handled by releasing the lock and exiting at once. */
    private boolean approve(Session session, Terminal term, CliContext ctx) {
        phase.set(Phase.APPROVAL);
        try {
            return approved(session, term, ctx);
        } finally {
            phase.set(Phase.PREPARING);
        }
    }

    /** Records the configuration's outputs after a successful apply, printed or as a JSON line. */
    private static int saveOutputs(Session session, Terminal term, JsonUi ui) {
        if (ui == null) {
            return Outputs.saveAfterApply(session, term);
        }
        try {
            session.state().replaceOutputs(Outputs.records(session.config().outputs()));
        } catch (RuntimeException e) {
            term.error("Cannot record the outputs", "The apply succeeded, but writing its outputs to the state of environment \""
                    + session.environment() + "\" failed: " + e.getMessage());
            return 1;
        }
        ui.outputs(Outputs.json(session.state().outputs()));
        return 0;
    }

    /**
     * Reads the saved plan, refuses it when it was made for another environment or state lineage, when the
     * state's serial moved, or when any live object it read changed since ({@link Staleness}), then reveals
     * its secrets.
     *
     * @return the plan, or null after printing why it cannot be applied
     */
    private Plan savedPlan(Session session, Terminal term, LiveState live) {
        StateStore state = session.state();
        String text = SavedPlanFile.read(planFile, term);
        if (text == null) {
            return null;
        }
        Plan header = SavedPlanFile.decode(planFile, text, java.util.function.UnaryOperator.identity(), term);
        if (header == null) {
            return null;
        }
        List<Diagnostic> stale = Staleness.check(header, session.environment(), state.stateRef(), live.fingerprints());
        if (!stale.isEmpty()) {
            term.diagnostics(stale);
            return null;
        }
        if (!header.isApplyable()) {
            term.error("The saved plan cannot be applied", "The plan in " + planFile + " has errors; plan again.");
            return null;
        }
        Plan plan = SavedPlanFile.decode(planFile, text, state::decryptSecret, term);
        if (plan == null) {
            return null;
        }
        term.diagnostics(plan.diagnostics());
        return plan;
    }

    /**
     * Applies a refresh-only plan: records every drifted object in the state as it is live now (a deleted one
     * is forgotten). Changes nothing in the cluster; recorded as a {@code refresh} run.
     */
    private static int acceptDrift(Session session, Terminal term, JsonUi ui, Plan plan) {
        StateStore state = session.state();
        if (!plan.hasDrift()) {
            String msg = "Apply complete! The state already matches the live objects.";
            if (ui != null) {
                ui.log("info", msg);
            } else {
                term.println("");
                term.println(term.style().green(term.style().bold("Apply complete!")) + " The state already matches the live objects.");
            }
            return 0;
        }
        String version = Version.get();
        long runId = state.startRun("refresh", term.redact(PlanCodec.toJson(plan, version, state::hashSecret)),
                LockInfo.localWho(), version);
        LiveState now = session.readLive(term);
        Set<String> secrets = term.secrets();
        int recorded = 0;
        for (DriftEntry e : plan.drift()) {
            Optional<Map<String, Object>> raw = "KafkaConnect".equals(e.object().kind())
                    ? now.cluster(e.object().namespace(), e.object().name()).map(c -> c.raw())
                    : now.connector(e.object().namespace(), e.object().name()).map(c -> c.raw());
            if (raw.isEmpty()) {
                state.deleteResource(e.address());
            } else {
                state.saveResource(ResourceSnapshot.of(e.address(), e.object().kind(), e.object().namespace(),
                        e.object().name(), Json.render(Snapshots.secretFree(raw.get(), state::hashSecret, secrets))));
            }
            recorded++;
        }
        String summary = "Recorded " + recorded + " object(s) changed outside flowform in the state; the cluster was not changed.";
        state.finishRun(runId, RunOutcome.SUCCEEDED, summary);
        if (ui != null) {
            ui.log("info", "Apply complete! " + summary);
        } else {
            term.println("");
            term.println(term.style().green(term.style().bold("Apply complete!")) + " " + summary);
        }
        return 0;
    }

    private int report(Terminal term, JsonUi ui, Plan plan, ApplyResult result, String summary, Optional<String> lost) {
        if (result.succeeded()) {
            if (ui != null) {
                ui.changeSummary(plan, "apply", "Apply complete! " + summary);
            } else {
                term.println("");
                term.println(term.style().green(term.style().bold("Apply complete!")) + " " + summary);
            }
            return 0;
        }
        if (ui == null) {
            term.println("");
        }
        String details = ApplyReport.details(result);
        if (lost.isPresent()) {
            term.error("Apply stopped: " + lost.get(), summary + "\n\n" + details + "\nAnother process may hold the lock now; "
                    + "this run did not write its outcome. The next apply re-reads the cluster and continues.");
            return 1;
        }
        if (result.interrupted()) {
            term.error("Apply interrupted", summary + "\n\n" + details + "\nThe state records every step; the lock is "
                    + "released. Run \"flowform apply\" again to continue: it re-reads the live cluster and does only "
                    + "what is still needed.");
            return signalExit.get() != 0 ? signalExit.get() : 1;
        }
        term.error("Apply failed", summary + "\n\n" + details + "\nThe state records what was done. Fix the cause, then run "
                + "\"flowform apply\" again: it re-reads the live cluster and does only what is still needed.");
        return 1;
    }

    private int stoppedBeforeStart(Terminal term, StopSignal stop) {
        term.error("Apply interrupted", "Stopped (" + stop.reason() + ") before any step ran; nothing was changed.");
        return signalExit.get() != 0 ? signalExit.get() : 1;
    }

    private static String planLine(Plan plan) {
        var s = plan.summary();
        return "Plan: " + s.add() + " to add, " + s.change() + " to change, " + s.destroy() + " to destroy, " + s.rolls()
                + (s.rolls() == 1 ? " rolling restart." : " rolling restarts.");
    }

    private static int columns(CliContext ctx) {
        try {
            return Integer.parseInt(ctx.env().getOrDefault("COLUMNS", "100"));
        } catch (NumberFormatException e) {
            return 100;
        }
    }

    private boolean approved(Session session, Terminal term, CliContext ctx) {
        if (!ctx.prompter().interactive()) {
            term.error("No approval",
                    "apply shows the plan and asks for \"yes\" before acting, but there is no terminal to ask on. "
                            + "Re-run with --auto-approve to apply without asking.");
            return false;
        }
        term.println("");
        term.println(term.style().bold("Do you want to perform these actions in environment \"" + session.environment() + "\"?"));
        term.println("  flowform will perform the actions described above, in the order shown.");
        term.println("  Only 'yes' will be accepted to approve.");
        term.println("");
        String answer = ctx.prompter().ask("  Enter a value: ");
        if (!"yes".equals(answer == null ? null : answer.trim())) {
            term.errorLine("");
            term.errorLine("Apply cancelled.");
            return false;
        }
        return true;
    }

    /** Records the managed objects as they are now, secrets hashed. */
    private static void snapshot(Session session, Terminal term) {
        StateStore state = session.state();
        LiveState now;
        try {
            now = session.readLive(term);
        } catch (CommandFailed e) {
            return;
        }
        Set<String> secrets = term.secrets();
        for (DesiredConnectCluster c : session.desired().clusters()) {
            now.cluster(c.namespace(), c.name()).ifPresent(l -> state.saveResource(ResourceSnapshot.of(c.address(),
                    "KafkaConnect", l.namespace(), l.name(),
                    Json.render(Snapshots.secretFree(l.raw(), state::hashSecret, secrets)))));
        }
        for (DesiredFlow f : session.desired().flows()) {
            for (DesiredConnector d : f.connectors()) {
                now.connector(d.namespace(), d.name()).ifPresent(l -> state.saveResource(ResourceSnapshot.of(d.address(),
                        "KafkaConnector", l.namespace(), l.name(),
                        Json.render(Snapshots.secretFree(l.raw(), state::hashSecret, secrets)))));
            }
        }
    }
}
