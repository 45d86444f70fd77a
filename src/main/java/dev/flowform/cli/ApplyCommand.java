package dev.flowform.cli;

import dev.flowform.apply.StopSignal;
import dev.flowform.cli.view.ApplyView;
import dev.flowform.cli.view.HumanApplyView;
import dev.flowform.cli.view.JsonApplyView;
import dev.flowform.run.ApplyOperation;
import dev.flowform.run.Environment;
import dev.flowform.run.OperationFailed;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code flowform apply [FILE]}: checks the flags, opens the environment under its state lock, runs one
 * {@link ApplyOperation} and hands its events to the human or the JSON view; signals as Terraform
 * ({@link ApplyInterrupts}). Exit 0 when every step is done, 1 on an error or a failed step, 130 after Ctrl-C (143
 * after SIGTERM) once the step in flight is journaled and the lock released.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = "Plan (or take a saved plan), ask for approval, then execute the steps in order, waiting for every roll.")
public final class ApplyCommand extends FlowformSubcommand implements Callable<Integer> {

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
            description = "How many steps to run at once (default: ${DEFAULT-VALUE}): Connect clusters in parallel, and the "
                    + "connectors of one cluster on Kafka 3.6 or newer; the rest of a cluster's steps stay in order.")
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

    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        CliContext ctx = parent.context();
        ApplyView view = json ? JsonApplyView.open(term, ctx.prompter(), ctx.clock(), Version.get(), Outputs::json)
                : new HumanApplyView(term, ctx.prompter(), ctx.clock(), ctx.env(), Outputs::human);
        if (!validArguments(term)) {
            return 1;
        }
        StopSignal stop = new StopSignal();
        CommandLock lock = new CommandLock("apply", lockTimeout, "apply of " + common.dir().toAbsolutePath().normalize(), ctx,
                term, stop, releaseHint());
        ApplyInterrupts interrupts = new ApplyInterrupts(stop, lock, view);
        try (Interrupts signals = Interrupts.install(interrupts);
             Environment env = CommandEnvironment.open(common, ctx, term, view, lock)) {
            stop.addProbe(lock::lost);
            ApplyOperation op = new ApplyOperation(env, ctx.run(), new ApplyOperation.Request(planning.toOptions(), planFile,
                    autoApprove, timeout, lockTimeout, parallelism, Version.get(), planning.dryRun(),
                    CommandHint.command("plan", replanArguments())),
                    new ApplyOperation.LockHold(lock.held().id(), lock.releasedGone(), lock::lost), stop,
                    ctx.journalDecorator(), view);
            interrupts.running(op);
            return switch (op.run().status()) {
                case COMPLETE -> 0;
                case ERROR, FAILED, LOCK_LOST -> 1;
                case INTERRUPTED -> interrupts.exitCode(1);
                case INTERRUPTED_WAITING -> interrupts.exitCode(130);
            };
        } catch (CommandFailed e) {
            return interrupts.exitCode(e.exitCode());
        } catch (OperationFailed e) {
            return interrupts.exitCode(1);
        }
    }

    /** @return false after printing which flag is wrong; with FILE, selects the plan's environment and variables */
    private boolean validArguments(Terminal term) {
        if (json && !autoApprove && planFile == null) {
            term.error("--json needs --auto-approve", "With --json there is no one to ask for approval; add "
                    + "--auto-approve (as Terraform's apply -json requires).");
            return false;
        }
        if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
            term.error("Invalid --timeout", "--timeout must be longer than zero, got " + timeout + ".");
            return false;
        }
        if (parallelism < 1) {
            term.error("Invalid --parallelism", "--parallelism must be at least 1, got " + parallelism + ".");
            return false;
        }
        return planFile == null || SavedPlanFile.checkArguments(planFile, common, planning, term);
    }

    /**
     * @return the arguments of the {@code plan} a stale saved plan's error suggests: the options that select this
     *         configuration, environment and state, the variable files, and {@code --out FILE} (unquoted)
     */
    private java.util.List<String> replanArguments() {
        java.util.List<String> args = CommandHint.selectingWithVarFiles(common, null);
        args.addAll(java.util.List.of("--out", "FILE"));
        return args;
    }

    /** The options that select this environment, for the force-unlock hint. */
    private String releaseHint() {
        StringBuilder sb = new StringBuilder();
        CommandHint.selecting(common, null).forEach(a -> sb.append(' ').append(CommandHint.quote(a)));
        return sb.toString();
    }
}
