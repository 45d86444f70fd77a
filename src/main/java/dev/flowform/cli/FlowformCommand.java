package dev.flowform.cli;

import dev.flowform.render.Style;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The top-level {@code flowform} command; the work is in its subcommands ({@link #SUBCOMMANDS}), which
 * {@link #register} adds to the command line.
 */
@Command(name = "flowform", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Plan and apply exactly-once (KIP-618) rollouts of Kafka replication flows on Strimzi.", ""},
        footer = {"", "Exit codes: 0 success, 1 error, 2 (plan --detailed-exitcode) changes or drift present,",
                "130 apply interrupted by Ctrl-C (143 by SIGTERM);",
                "fmt: 2 a file is not valid JSON, 3 (--check) a file is not formatted."})
public final class FlowformCommand implements Runnable {

    /**
     * Every subcommand by its name, in the order {@code flowform --help} lists them. Each name is the one in the class's
     * {@code @Command} annotation (a test checks it).
     */
    static final Map<String, Class<?>> SUBCOMMANDS = subcommands(PlanCommand.class, ApplyCommand.class,
            ShowCommand.class, ValidateCommand.class, FmtCommand.class, OutputCommand.class, HistoryCommand.class,
            StateCommand.class, ForceUnlockCommand.class, ProveCommand.class, GraphCommand.class, CompletionCommand.class,
            ClusterCommand.class, ImportCommand.class, CommandLine.HelpCommand.class);

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

    /**
     * Adds the subcommands to the root command line: only the one {@code args} runs when its name comes first, else
     * all of them, and none for a lone {@code --version}/{@code -V}. picocli builds each subcommand's model by reflection
     * when it is added, which is most of the command line's start-up; {@code help} and {@code completion} describe the
     * others, so they get all.
     *
     * @param root the command line of a {@link FlowformCommand}
     * @param args the process's arguments
     */
    static void register(CommandLine root, String... args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return;
        }
        Class<?> only = args.length == 0 ? null : SUBCOMMANDS.get(args[0]);
        if (only != null && only != CommandLine.HelpCommand.class && only != CompletionCommand.class) {
            root.addSubcommand(args[0], only);
            return;
        }
        SUBCOMMANDS.forEach(root::addSubcommand);
    }

    private static Map<String, Class<?>> subcommands(Class<?>... classes) {
        Map<String, Class<?>> byName = new LinkedHashMap<>();
        for (Class<?> c : classes) {
            byName.put(c.getAnnotation(Command.class).name(), c);
        }
        return byName;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** @return a terminal on the writers of the running subcommand's {@code spec}, coloured unless {@code noColor} */
    static Terminal terminal(CommandSpec spec, boolean noColor) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        boolean ansi = !noColor && spec.commandLine().getColorScheme().ansi().enabled();
        return new Terminal(out, err, ansi ? Style.ANSI : Style.PLAIN);
    }
}
