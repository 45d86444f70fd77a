package dev.flowform.cli;

import dev.flowform.cli.view.TerminalView;
import dev.flowform.run.ClusterConnection;
import dev.flowform.run.OperationFailed;
import dev.flowform.run.Workspace;
import dev.flowform.sim.EmbeddedCluster;
import java.nio.file.Path;
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
     * {@code flowform cluster serve}: serves an environment's embedded cluster (API server and simulated Strimzi
     * operator) on 127.0.0.1 until Ctrl-C, and writes a kubeconfig for it, so kubectl and flowform in other
     * processes can watch a roll, create drift or break a connector. The objects are kept in the same file the
     * environment's own commands use and saved after every write and on exit.
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

        @Override
        public Integer call() throws InterruptedException {
            CliContext ctx = parent.parent.context();
            Terminal term = FlowformCommand.terminal(spec, common.noColor);
            EmbeddedCluster cluster;
            Workspace workspace;
            try {
                workspace = Workspace.load(common.dir(), common.environment, common.variableInputs(ctx.env()),
                        common.stateDirOption(), term.secrets(), new TerminalView(term));
                cluster = ClusterConnection.serve(workspace, ctx.run());
            } catch (OperationFailed e) {
                return 1;
            } catch (IllegalArgumentException e) {
                term.error("Cannot serve environment \"" + common.environment + "\"", e.getMessage());
                return 1;
            }
            Path envDir = workspace.stateDir().resolve(workspace.environment());
            Path file = kubeconfig != null ? kubeconfig : envDir.resolve("kubeconfig.yaml");
            cluster.writeKubeconfig(file);
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                cluster.close();
                term.println("Stopped; the objects are saved in " + envDir.resolve(ClusterConnection.EMBEDDED_CLUSTER_FILE));
                stopped.countDown();
            }, "flowform-cluster-serve-stop"));
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
            term.println("Not served: kubectl apply --server-side, get -w and wait (no streaming watch).");
            term.println("Ctrl-C stops it; its objects are saved.");
            stopped.await();
            return 0;
        }
    }
}
