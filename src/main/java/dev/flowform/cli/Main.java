package dev.flowform.cli;

import picocli.CommandLine;

/**
 * Entry point of {@code flowform}: builds the command line, maps usage errors to exit 1 (2 is reserved
 * for {@code plan --detailed-exitcode}), and turns unexpected exceptions into a one-line error without a
 * stack trace (set {@code FLOWFORM_DEBUG=1} to see it).
 */
public final class Main {

    private Main() {
    }

    /**
     * Runs flowform with the process's arguments and exits with its exit code, after stopping the JDK HTTP
     * client threads that would hold the JVM's exit up ({@link ProcessExit}).
     */
    public static void main(String[] args) {
        int exitCode = run(CliContext.system(), args);
        ProcessExit.stopHttpClientSelectors();
        System.exit(exitCode);
    }

    /**
     * Runs flowform in-process (tests use this with their own writers through {@link #commandLine}).
     *
     * @return the exit code
     */
    public static int run(CliContext context, String... args) {
        return commandLine(context, args).execute(args);
    }

    /** @return the configured command line with every subcommand, so callers can set its out/err writers */
    public static CommandLine commandLine(CliContext context) {
        return commandLine(context, new String[0]);
    }

    /**
     * @param args the arguments it will run: when they start with a subcommand's name, only that subcommand is built
     *             ({@link FlowformCommand#register})
     * @return the configured command line, so callers can set its out/err writers
     */
    public static CommandLine commandLine(CliContext context, String... args) {
        CommandLine cl = new CommandLine(new FlowformCommand(context));
        FlowformCommand.register(cl, args);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler((ex, rest) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("Error: " + ex.getMessage());
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, c.getErr())) {
                c.getErr().println("Run '" + c.getCommandSpec().qualifiedName() + " --help' for usage.");
            }
            return 1;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            if ("1".equals(context.env().get("FLOWFORM_DEBUG"))) {
                ex.printStackTrace(c.getErr());
            }
            c.getErr().println("Error: " + ex.getClass().getSimpleName() + ": " + ex.getMessage());
            c.getErr().println("This is a bug in flowform; run with FLOWFORM_DEBUG=1 for details.");
            return 1;
        });
        return cl;
    }
}
