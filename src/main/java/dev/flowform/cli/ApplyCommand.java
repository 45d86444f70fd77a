package dev.flowform.cli;

import dev.flowform.apply.Applier;
import dev.flowform.apply.ApplyResult;
import dev.flowform.apply.Fabric8ClusterWriter;
import dev.flowform.apply.Fabric8RolloutWatcher;
import dev.flowform.apply.Sleeper;
import dev.flowform.apply.StepResult;
import dev.flowform.model.DesiredConnectCluster;
import dev.flowform.model.DesiredConnector;
import dev.flowform.model.DesiredFlow;
import dev.flowform.model.LiveState;
import dev.flowform.plan.Json;
import dev.flowform.plan.Plan;
import dev.flowform.plan.PlanCodec;
import dev.flowform.plan.PlanSummary;
import dev.flowform.render.PlanRenderer;
import dev.flowform.render.Text;
import dev.flowform.state.LockHeartbeat;
import dev.flowform.state.LockHeldException;
import dev.flowform.state.LockInfo;
import dev.flowform.state.ResourceSnapshot;
import dev.flowform.state.RunOutcome;
import dev.flowform.state.StateStore;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code flowform apply}: plans, asks for approval (unless {@code --auto-approve}), then executes the
 * steps in order under the environment's lock, journaling every step in the state database.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = "Plan, ask for approval, then execute the steps in order, waiting for every roll.")
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

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        CliContext ctx = parent.context();
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
        LiveState live = session.readLive(term);
        Plan plan = session.plan(live);
        term.diagnostics(plan.diagnostics());
        if (!plan.isApplyable()) {
            return 1;
        }
        term.print(PlanRenderer.render(plan, term.style()));
        if (!plan.hasChanges()) {
            term.println("");
            term.println(term.style().green(term.style().bold("Apply complete!")) + " Resources: 0 added, 0 changed, 0 destroyed.");
            return 0;
        }
        if (!autoApprove && !approved(session, term, ctx)) {
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
