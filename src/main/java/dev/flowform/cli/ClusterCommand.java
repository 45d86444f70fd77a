package dev.flowform.cli;

import dev.flowform.apply.StopSignal;
import dev.flowform.cli.view.TerminalView;
import dev.flowform.run.ClusterConnection;
import dev.flowform.run.OperationFailed;
import dev.flowform.run.StateHome;
import dev.flowform.run.Workspace;
import dev.flowform.sim.EmbeddedCluster;
import dev.flowform.state.StateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code flowform cluster}: the embedded cluster as a process of its own. */
@Command(name = "cluster", mixinStandardHelpOptions = true, subcommands = ClusterCommand.Serve.class,
        description = "Work with the embedded demo cluster.")
public final class ClusterCommand implements Runnable {

    @ParentCommand
    FlowformCommand parent;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * {@code flowform cluster serve}: serves an environment's embedded cluster on 127.0.0.1 until Ctrl-C, with a
     * kubeconfig for kubectl, holding the state lock meanwhile (the environment's commands write the same file)
     * (docs/kubernetes.md).
     */
    @Command(name = "serve", mixinStandardHelpOptions = true,
            description = "Serve an environment's embedded cluster on 127.0.0.1 until Ctrl-C, with a kubeconfig for kubectl.")
    public static final class Serve implements Callable<Integer> {

        @ParentCommand
        ClusterCommand parent;

        @Spec
        CommandSpec spec;

        @Mixin
        CommonOptions common;

        @Option(names = "--kubeconfig", paramLabel = "FILE",
                description = "Where to write the kubeconfig (default: kubeconfig.yaml in the environment's state folder).")
        Path kubeconfig;

        @Option(names = "--port", paramLabel = "N",
                description = "The port on 127.0.0.1 to serve on (default: one derived from the environment's state folder, "
                        + "the same at every start; 0 for any free port).")
        Integer port;

        @Option(names = {"--lock-timeout", "-lock-timeout"}, paramLabel = "DURATION", defaultValue = "0s",
                converter = DurationConverter.class,
                description = "How long to retry when the environment's state lock is held, e.g. by an apply "
                        + "(default: ${DEFAULT-VALUE}, fail at once).")
        Duration lockTimeout;

        @Override
        public Integer call() throws InterruptedException {
            CliContext ctx = parent.parent.context();
            Terminal term = FlowformCommand.terminal(spec, common.noColor);
            StopSignal stop = new StopSignal();
            CountDownLatch stopped = new CountDownLatch(1);
            try (Interrupts signals = Interrupts.install((signal, count) -> {
                stop.requestStop("interrupted by " + signal);
                stopped.countDown();
                if (count > 1) {
                    Runtime.getRuntime().halt(Interrupts.exitCode(signal));
                }
            })) {
                Workspace workspace = Workspace.load(common.dir(), common.environment, common.variableInputs(ctx.env()),
                        common.stateDirOption(), term.secrets(), new TerminalView(term));
                Path envDir = ClusterConnection.servable(workspace);
                int listen = port != null ? port : ClusterConnection.defaultServePort(envDir);
                if (listen < 0 || listen > 65535) {
                    term.error("Invalid --port", "--port must be from 1 to 65535 (0: any free port), got " + listen + ".");
                    return 1;
                }
                Path file = kubeconfig != null ? kubeconfig : envDir.resolve("kubeconfig.yaml");
                CommandLock lock = new CommandLock(CommandLock.SERVE, lockTimeout, "serving the embedded cluster; kubeconfig "
                        + file.toAbsolutePath(), ctx, term, stop, releaseHint(workspace.environment()));
                StateHome home = workspace.home();
                List<String> select = CommandHint.selecting(common, workspace.environment());
                try (StateStore state = lock.open(() -> CommandState.forWriting(home, workspace.environment(), ctx, term,
                        select, "cluster serve", lock.sleeper()))) {
                    try (EmbeddedCluster cluster = serve(workspace, ctx, listen, term)) {
                        cluster.writeKubeconfig(file);
                        announce(term, workspace, cluster, file);
                        stopped.await();
                    } finally {
                        lock.release();
                    }
                }
                term.println("Stopped; the objects are saved in " + envDir.resolve(ClusterConnection.EMBEDDED_CLUSTER_FILE));
                return 0;
            } catch (OperationFailed e) {
                return 1;
            } catch (CommandFailed e) {
                return e.exitCode();
            } catch (IllegalArgumentException e) {
                term.error("Cannot serve environment \"" + common.environment + "\"", e.getMessage());
                return 1;
            }
        }

        /** @return the served cluster, or throws {@link CommandFailed} after saying that the port is taken */
        private EmbeddedCluster serve(Workspace workspace, CliContext ctx, int listen, Terminal term) {
            try {
                return ClusterConnection.serve(workspace, ctx.run(), listen);
            } catch (IllegalStateException e) {
                term.error("Cannot serve environment \"" + workspace.environment() + "\" on port " + listen,
                        e.getMessage() + "\nGive another port with --port N" + (port == null ? " (" + listen + " is this "
                                + "environment's default, derived from its state folder)" : "") + ", or --port 0 for any "
                                + "free port (then a kubeconfig written before no longer reaches it).");
                throw new CommandFailed(1);
            }
        }

        private static void announce(Terminal term, Workspace workspace, EmbeddedCluster cluster, Path file) {
            String ns = String.join(",", workspace.managedNamespaces());
            term.println("Embedded cluster of environment \"" + workspace.environment() + "\" serving at "
                    + cluster.url() + " (Strimzi " + cluster.api().version() + ")");
            term.println("Kubeconfig: " + file.toAbsolutePath() + " (context \"" + EmbeddedCluster.CONTEXT + "\")");
            term.println("");
            term.println("  export KUBECONFIG=" + file.toAbsolutePath());
            term.println("  kubectl get kafkaconnects,kafkaconnectors,strimzipodsets,pods -n " + ns);
            term.println("");
            term.println("flowform reaches it through an environment with \"kubernetes\": {\"kubeconfig\": \""
                    + file.toAbsolutePath() + "\", \"context\": \"" + EmbeddedCluster.CONTEXT + "\"}.");
            term.println("While it serves, it holds the state lock of environment \"" + workspace.environment()
                    + "\": apply there is refused; plan reads the objects as served.");
            term.println("Not served: kubectl apply --server-side, get -w and wait (no streaming watch).");
            term.println("Ctrl-C stops it; its objects are saved.");
        }

        /** @return the options that select this environment, for the force-unlock hint */
        private String releaseHint(String environment) {
            StringBuilder sb = new StringBuilder();
            CommandHint.selecting(common, environment).forEach(a -> sb.append(' ').append(CommandHint.quote(a)));
            return sb.toString();
        }
    }
}
