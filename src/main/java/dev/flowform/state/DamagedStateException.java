package dev.flowform.state;

import java.nio.file.Path;

/**
 * The state database file is damaged: truncated, or not an H2 database file, or a file that H2 would open as a new,
 * empty database although it held a state. Thrown before H2 may write to it, so the damaged file stays as it was for
 * a restore ({@link StateBackups#restore}).
 */
public final class DamagedStateException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final String problem;

    /**
     * @param file    the database file
     * @param problem what is wrong with it, one short sentence without a final period
     */
    public DamagedStateException(Path file, String problem) {
        super("the state database " + file + " is damaged: " + problem);
        this.file = file;
        this.problem = problem;
    }

    /** @return the database file */
    public Path file() {
        return file;
    }

    /** @return what is wrong with it */
    public String problem() {
        return problem;
    }
}
