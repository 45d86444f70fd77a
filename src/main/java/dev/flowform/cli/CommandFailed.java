package dev.flowform.cli;

/**
 * Ends a command with an exit code after its error has been printed. Thrown by the session and
 * commands; turned into the exit code by {@link Main}.
 */
public final class CommandFailed extends RuntimeException {

    private final int exitCode;

    /** @param exitCode the process exit code (1 for errors) */
    public CommandFailed(int exitCode) {
        super(null, null, false, false);
        this.exitCode = exitCode;
    }

    /** @return the exit code */
    public int exitCode() {
        return exitCode;
    }
}
