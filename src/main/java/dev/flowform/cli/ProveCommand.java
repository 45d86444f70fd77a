package dev.flowform.cli;

import dev.flowform.cli.view.ProveView;
import dev.flowform.config.ConfigLoader;
import dev.flowform.config.KubernetesTarget;
import dev.flowform.config.LoadResult;
import dev.flowform.diag.Diagnostics;
import dev.flowform.locking.Sleeper;
import dev.flowform.run.ClusterConnection;
import dev.flowform.run.ExactlyOnceProof;
import dev.flowform.run.ProveOperation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code flowform prove}: runs a configuration's rollout on real Kafka and shows with data what it achieves: loads the
 * configuration, hands {@link ProveOperation} the rollout (flowform's own {@code plan} and {@code apply}) and prints
 * through a {@link ProveView} (docs/exactly-once-proof.md). Exit 0 when every phase shows what it claims, 1 otherwise.
 */
@Command(name = "prove", mixinStandardHelpOptions = true,
        description = "Run the rollout on real Kafka (an embedded environment with \"kafka\" clusters) and prove "
                + "exactly-once with data: records produced, replicated, aborted records seen, duplicates.")
public final class ProveCommand extends FlowformSubcommand implements Callable<Integer> {
    /** The counts of the last run, for tests; null before a run or when the rollout failed. */
    ExactlyOnceProof.Report report;

    /**
     * Loads the configuration, starts real Kafka and the embedded cluster, and runs the proof.
     *
     * @return 0 when every phase shows what it claims, 1 otherwise or on error
     */
    @Override
    public Integer call() {
        Terminal term = FlowformCommand.terminal(spec, common.noColor);
        CliContext ctx = parent.context();
        LoadResult loaded = new ConfigLoader().loadWith(common.dir(), common.environment, common.variableInputs(ctx.env()));
        term.addSources(loaded.sources());
        Diagnostics diags = new Diagnostics().addAll(loaded.diagnostics());
        if (diags.hasErrors() || loaded.configuration() == null) {
            term.diagnostics(diags);
            return 1;
        }
        String env = loaded.configuration().environment().name();
        if (!(loaded.configuration().environment().kubernetes() instanceof KubernetesTarget.Embedded e) || e.kafka().isEmpty()) {
            term.error("No real Kafka in environment \"" + env + "\"",
                    "prove needs an environment on the embedded cluster that declares its Kafka clusters: \"kubernetes\": "
                            + "{\"embedded\": {\"seed\": \"./seed\", \"kafka\": {\"<alias>\": {\"bootstrap_servers\": [...]}}}}. "
                            + "See examples/real-kafka.");
            return 1;
        }
        Path work;
        try {
            work = Files.createTempDirectory("flowform-prove-");
        } catch (IOException ex) {
            term.error("Cannot create a working folder", String.valueOf(ex.getMessage()));
            return 1;
        }
        return prove(term, ctx, e, env, loaded.configuration().environment().namespace(), work);
    }

    /** Runs the proof on the Kafka clusters of {@code e}, printing through a {@link ProveView}. */
    private int prove(Terminal term, CliContext ctx, KubernetesTarget.Embedded e, String env, String ns, Path work) {
        ProveOperation.Outcome outcome = new ProveOperation(new ProveView(spec.commandLine().getOut()), Sleeper.SYSTEM)
                .run(e, ClusterConnection.embeddedSettings(e, ctx.simSettings(), ctx.env()), ns, work,
                        cluster -> rollout(ctx.withAttachedCluster(cluster), env, work));
        report = outcome.report();
        if (outcome.failure() != null) {
            term.error(outcome.failure(), outcome.detail());
        }
        return outcome.proven() ? 0 : 1;
    }

    /** Runs flowform's own {@code plan}, then {@code apply --auto-approve}, against the attached cluster. */
    private boolean rollout(CliContext attached, String env, Path work) {
        List<String> base = new ArrayList<>(List.of("--dir", common.dir().toString(), "-e", env,
                "--state-dir", work.resolve("state").toString()));
        if (common.noColor) {
            base.add("--no-color");
        }
        int plan = run(attached, "plan", base);
        if (plan != 0) {
            return false;
        }
        List<String> apply = new ArrayList<>(base);
        apply.add("--auto-approve");
        return run(attached, "apply", apply) == 0;
    }

    private int run(CliContext ctx, String command, List<String> args) {
        CommandLine cl = Main.commandLine(ctx);
        cl.setOut(spec.commandLine().getOut());
        cl.setErr(spec.commandLine().getErr());
        List<String> all = new ArrayList<>();
        all.add(command);
        all.addAll(args);
        return cl.execute(all.toArray(String[]::new));
    }
}
