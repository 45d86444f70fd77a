package dev.flowform.cli;

import dev.flowform.render.Style;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level {@code flowform} command; the work is in its subcommands. */
@Command(name = "flowform", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Plan and apply exactly-once (KIP-618) rollouts of Kafka replication flows on Strimzi.", ""},
        subcommands = {PlanCommand.class, ApplyCommand.class, ShowCommand.class, ValidateCommand.class, FmtCommand.class,
                OutputCommand.class, HistoryCommand.class, StateCommand.class, ForceUnlockCommand.class, ProveCommand.class, GraphCommand.class,
                CompletionCommand.class, ClusterCommand.class, ImportCommand.class,
                CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 success, 1 error, 2 (plan --detailed-exitcode) changes or drift present,",
                "130 apply interrupted by Ctrl-C (143 by SIGTERM);",
                "fmt: 2 a file is not valid JSON, 3 (--check) a file is not formatted."})
public final class FlowformCommand implements Runnable {

    private final CliContext context;

    @Spec
    CommandSpec spec;

    /** @param context what the commands take from the process */
    public FlowformCommand(CliContext context) {
        this.context = context;
    }

    /** @return the process context */
    public CliContext context() {
        return context;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * @param spec    the running subcommand's spec (for its writers)
     * @param noColor {@code --no-color}
     * @return a terminal on picocli's writers
     */
    static Terminal terminal(CommandSpec spec, boolean noColor) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean ansi = !noColor && spec.commandLine().getColorScheme().ansi().enabled();
        return new Terminal(out, err, ansi ? Style.ANSI : Style.PLAIN);
    }
}
