package dev.flowform.cli;

import dev.flowform.apply.Applier;
import dev.flowform.apply.ApplyResult;
import dev.flowform.apply.Fabric8ClusterWriter;
import dev.flowform.apply.Fabric8RolloutWatcher;
import dev.flowform.apply.Sleeper;
import dev.flowform.apply.StepResult;
import dev.flowform.diag.Diagnostic;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.LiveState;
import dev.flowform.plan.DriftEntry;
import dev.flowform.plan.Json;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.PlanSummary;
import dev.flowform.plan.Staleness;
import dev.flowform.render.PlanRenderer;
import dev.flowform.render.Text;
import dev.flowform.state.LockHeartbeat;
import dev.flowform.state.LockHeldException;
import dev.flowform.state.LockInfo;
import dev.flowform.state.ResourceSnapshot;
import dev.flowform.state.RunOutcome;
import dev.flowform.state.StateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code flowform apply [FILE]}: plans (or reads a saved plan and checks it is not stale), asks for
 * approval (unless {@code --auto-approve} or a plan file), then executes the steps in order under the
 * environment's lock, journaling every step in the state database. A refresh-only plan records the
 * drifted objects in the state instead.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = "Plan (or take a saved plan), ask for approval, then execute the steps in order, waiting for every roll.")
public final class ApplyCommand implements Callable<Integer> {

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Option(names = {"--auto-approve", "-auto-approve"}, description = "Apply without asking for approval.")
    boolean autoApprove;

    @Option(names = {"--timeout"}, paramLabel = "DURATION", defaultValue = "20m", converter = DurationConverter.class,
            description = "How long each wait (rolling restart, connector start) may take (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Mixin
    PlanningOptions planning;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE",
            description = "A plan saved with \"flowform plan --out FILE\": apply exactly it (no new plan, no prompt), "
                    + "or refuse when it is stale.")
    Path planFile;

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        CliContext ctx = parent.context();
        if (planFile != null && !SavedPlanFile.checkArguments(planFile, common, planning, term)) {
            return 1;
        }
        try (Session session = Session.open(common, ctx, term)) {
            StateStore state = session.state();
            LockInfo lock;
            try {
                lock = state.lock("apply", LockInfo.localWho(), Version.get());
            } catch (LockHeldException e) {
                term.error("Error acquiring the state lock", e.getMessage());
                return 1;
            }
            ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "flowform-lock-heartbeat");
                t.setDaemon(true);
                return t;
            });
            try (LockHeartbeat beat = LockHeartbeat.start(state, lock.id(), heartbeat, LockInfo.HEARTBEAT_INTERVAL)) {
                int code = applyLocked(session, term, ctx);
                // issue 3: after a successful apply, record (and print) the root outputs, still under the lock
                return code == 0 ? Outputs.saveAfterApply(session, term) : code;
            } finally {
                heartbeat.shutdownNow();
                state.unlock(lock.id());
            }
        } catch (CommandFailed e) {
            return e.exitCode();
        }
    }

    private int applyLocked(Session session, Terminal term, CliContext ctx) {
        StateStore state = session.state();
        Obtained obtained = obtainPlan(session, term);
        if (obtained.exitCode() != null) {
            return obtained.exitCode();
        }
        Plan plan = obtained.plan();
        if (plan.isRefreshOnly()) {
            if (plan.hasDrift() && !autoApprove && !obtained.saved() && !approved(session, term, ctx)) {
                return 1;
            }
            return acceptDrift(session, term, plan);
        }
        if (!plan.hasChanges()) {
            term.println("");
            term.println(term.style().green(term.style().bold("Apply complete!")) + " Resources: 0 added, 0 changed, 0 destroyed.");
            return 0;
        }
        if (!autoApprove && !obtained.saved() && !approved(session, term, ctx)) {
            return 1;
        }
        term.println("");
        String version = Version.get();
        long runId = state.startRun("apply", PlanCodec.toJson(plan, version, state::hashSecret), LockInfo.localWho(), version);
        Applier applier = new Applier(new Fabric8ClusterWriter(session.client(), Sleeper.SYSTEM),
                new Fabric8RolloutWatcher(session.client(), ctx.clock(), ctx.progressInterval()),
                new StateJournal(state, runId, version), new HumanProgress(term), ctx.clock(), timeout);
        Instant start = ctx.clock().instant();
        ApplyResult result = applier.apply(plan);
        Duration took = Duration.between(start, ctx.clock().instant());
        String summary = summary(plan, result, took);
        state.finishRun(runId, result.succeeded() ? RunOutcome.SUCCEEDED
                : result.interrupted() ? RunOutcome.INTERRUPTED : RunOutcome.FAILED, summary);
        snapshot(session, term);
        term.println("");
        if (result.succeeded()) {
            term.println(term.style().green(term.style().bold("Apply complete!")) + " " + summary);
            return 0;
        }
        StepResult failed = result.results().stream().filter(r -> r.outcome() == StepResult.Outcome.FAILED).findFirst()
                .orElse(null);
        term.error("Apply failed", (failed == null ? "" : "Step " + failed.step().id() + " (" + failed.step().kind() + " "
                + failed.step().address() + ") failed: " + failed.detail() + "\n\n") + summary
                + "\nThe state records what was done; run \"flowform plan\" to see what is left.");
        return 1;
    }

    // ------------------------------------------------------------------------------------------------
    // Obtaining the plan (issue 4): a fresh plan, or a saved plan file checked for staleness. The
    // execution path above takes the Plan from here and does not care where it came from.

    /**
     * The plan to execute, or the exit code when there is none.
     *
     * @param plan     the plan (null when {@code exitCode} is set)
     * @param saved    true when it came from a plan file (which counts as approval, as in Terraform)
     * @param exitCode set when the command ends here
     */
    private record Obtained(Plan plan, boolean saved, Integer exitCode) {
    }

    /**
     * Without FILE: plans against the live cluster with the planning flags. With FILE: reads the saved plan,
     * refuses it when it was made for another environment or state lineage, when the state's serial moved,
     * or when any live object it read changed since ({@link Staleness}), then decrypts its secrets. Prints
     * the plan either way.
     */
    private Obtained obtainPlan(Session session, Terminal term) {
        if (planFile == null) {
            Plan plan = session.plan(session.readLive(term), planning.toOptions());
            term.diagnostics(plan.diagnostics());
            if (!plan.isApplyable()) {
                return new Obtained(null, false, 1);
            }
            term.print(PlanRenderer.render(PlanCodec.decode(PlanCodec.toJson(plan, Version.get(), PlanCodec.MASK)),
                    term.style()));
            return new Obtained(plan, false, null);
        }
        StateStore state = session.state();
        String text = SavedPlanFile.read(planFile, term);
        if (text == null) {
            return new Obtained(null, true, 1);
        }
        Plan header = SavedPlanFile.decode(planFile, text, java.util.function.UnaryOperator.identity(), term);
        if (header == null) {
            return new Obtained(null, true, 1);
        }
        List<Diagnostic> stale = Staleness.check(header, session.environment(), state.stateRef(),
                session.readLive(term).fingerprints());
        if (!stale.isEmpty()) {
            term.diagnostics(stale);
            return new Obtained(null, true, 1);
        }
        if (!header.isApplyable()) {
            term.error("The saved plan cannot be applied", "The plan in " + planFile + " has errors; plan again.");
            return new Obtained(null, true, 1);
        }
        Plan plan = SavedPlanFile.decode(planFile, text, state::decryptSecret, term);
        if (plan == null) {
            return new Obtained(null, true, 1);
        }
        term.diagnostics(plan.diagnostics());
        term.print(PlanRenderer.render(PlanCodec.decode(PlanCodec.toJson(plan, Version.get(), PlanCodec.MASK)),
                term.style()));
        return new Obtained(plan, true, null);
    }

    /**
     * Applies a refresh-only plan: records every drifted object in the state as it is live now (a deleted one
     * is forgotten). Changes nothing in the cluster; recorded as a {@code refresh} run.
     */
    private int acceptDrift(Session session, Terminal term, Plan plan) {
        StateStore state = session.state();
        term.println("");
        if (!plan.hasDrift()) {
            term.println(term.style().green(term.style().bold("Apply complete!")) + " The state already matches the live objects.");
            return 0;
        }
        String version = Version.get();
        long runId = state.startRun("refresh", PlanCodec.toJson(plan, version, state::hashSecret), LockInfo.localWho(), version);
        LiveState now = session.readLive(term);
        int recorded = 0;
        for (DriftEntry e : plan.drift()) {
            java.util.Optional<java.util.Map<String, Object>> raw = "KafkaConnect".equals(e.object().kind())
                    ? now.cluster(e.object().namespace(), e.object().name()).map(c -> c.raw())
                    : now.connector(e.object().namespace(), e.object().name()).map(c -> c.raw());
            if (raw.isEmpty()) {
                state.deleteResource(e.address());
            } else {
                state.saveResource(ResourceSnapshot.of(e.address(), e.object().kind(), e.object().namespace(),
                        e.object().name(), Json.render(Snapshots.secretFree(raw.get(), state::hashSecret))));
            }
            recorded++;
        }
        String summary = "Recorded " + recorded + " object(s) changed outside flowform in the state; the cluster was not changed.";
        state.finishRun(runId, RunOutcome.SUCCEEDED, summary);
        term.println(term.style().green(term.style().bold("Apply complete!")) + " " + summary);
        return 0;
    }

    // ------------------------------------------------------------------------------------------------

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

    private static String summary(Plan plan, ApplyResult result, Duration took) {
        PlanSummary s = plan.summary();
        StringBuilder sb = new StringBuilder();
        if (result.succeeded()) {
            sb.append("Resources: ").append(s.add()).append(" added, ").append(s.change()).append(" changed, ")
                    .append(s.destroy()).append(" destroyed; ").append(s.rolls()).append(s.rolls() == 1 ? " rolling restart" : " rolling restarts")
                    .append(" in ").append(Text.duration(took)).append('.');
        } else {
            sb.append(result.count(StepResult.Outcome.DONE)).append(" of ").append(result.results().size())
                    .append(" steps done, ").append(result.count(StepResult.Outcome.FAILED)).append(" failed, ")
                    .append(result.count(StepResult.Outcome.SKIPPED)).append(" not run");
            if (result.interrupted()) {
                sb.append(" (interrupted)");
            }
            sb.append(", after ").append(Text.duration(took)).append('.');
        }
        return sb.toString();
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
        for (DesiredConnectCluster c : session.desired().clusters()) {
            now.cluster(c.namespace(), c.name()).ifPresent(l -> state.saveResource(ResourceSnapshot.of(c.address(),
                    "KafkaConnect", l.namespace(), l.name(), Json.render(Snapshots.secretFree(l.raw(), state::hashSecret)))));
        }
        for (DesiredFlow f : session.desired().flows()) {
            for (DesiredConnector d : f.connectors()) {
                now.connector(d.namespace(), d.name()).ifPresent(l -> state.saveResource(ResourceSnapshot.of(d.address(),
                        "KafkaConnector", l.namespace(), l.name(),
                        Json.render(Snapshots.secretFree(l.raw(), state::hashSecret)))));
            }
        }
    }
}
