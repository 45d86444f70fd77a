package dev.flowform.state;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Thrown instead of opening an H2 state file whose holder does not answer: another process has the file open and
 * serves it to the others (H2's auto-server), but is stopped (SIGSTOP, Ctrl-Z, a debugger) or hung, so every other
 * command would wait for it without end. Names that process and, when the file shows one, the state lock it holds.
 */
public final class HolderNotAnsweringException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Path directory;
    private final transient H2FileHolder.Server server;
    private final transient LocalProcess process;
    private final Duration waited;
    private transient Optional<LockInfo> lock;

    /**
     * @param directory the folder of the database file, {@code <stateDir>/<env>}
     * @param server    the holder's server, which did not answer
     * @param process   the process holding it open, or null when it could not be found
     * @param waited    how long the caller waited for the holder before giving up; zero for one attempt
     */
    HolderNotAnsweringException(Path directory, H2FileHolder.Server server, LocalProcess process, Duration waited) {
        super(message(H2Backend.databaseFile(directory), process, waited), null, false, false);
        this.directory = directory;
        this.server = server;
        this.process = process;
        this.waited = waited;
    }

    /** @return the database file */
    public Path database() {
        return H2Backend.databaseFile(directory);
    }

    /** @return the process holding the file open, when found */
    public Optional<LocalProcess> process() {
        return Optional.ofNullable(process);
    }

    /**
     * @return the state lock as last written to the file, when there is one; read (from a copy of the file) on the
     *         first call
     */
    public synchronized Optional<LockInfo> lock() {
        if (lock == null) {
            lock = H2FileHolder.lastWrittenLock(directory);
        }
        return lock;
    }

    /** @return how long the caller waited before giving up (zero: it did not wait) */
    public Duration waited() {
        return waited;
    }

    /** @return a copy that also says how long the caller waited */
    HolderNotAnsweringException afterWaiting(Duration waitedFor) {
        HolderNotAnsweringException copy = new HolderNotAnsweringException(directory, server, process, waitedFor);
        copy.lock = lock;
        return copy;
    }

    /**
     * Asks the holder again and waits up to {@code window} for its answer.
     *
     * @return true when the holder answered (or no longer holds the file)
     * @throws InterruptedException when the sleeper is interrupted
     */
    boolean awaitAnswer(Duration window, dev.flowform.locking.Sleeper sleeper) throws InterruptedException {
        return H2FileHolder.answers(server, sleeper, window);
    }

    /**
     * @param clock the clock to age the lock with
     * @return the lock's details in the form of {@link LockHeldException}, or empty when the lock is not known
     */
    public Optional<String> lockDetails(Clock clock) {
        return lock().map(l -> LockHeldException.details(l, l.age(clock), l.sinceHeartbeat(clock)));
    }

    private static String message(Path database, LocalProcess process, Duration waited) {
        String who = process == null ? "a process that does not answer"
                : process.describe() + ", which " + (process.isStopped() ? "is stopped and " : "") + "does not answer";
        return "the state database " + database + " is held open by " + who
                + (waited.isZero() ? "" : " (waited " + LockHeldException.human(waited) + ")")
                + "; while it does not answer, no other command can read or write this state";
    }
}
