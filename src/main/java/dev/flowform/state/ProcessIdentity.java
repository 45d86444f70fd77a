package dev.flowform.state;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Which process holds a state lock, precisely enough for another process on the same machine (same host, boot and PID
 * namespace) to tell the holder is gone: no process with its PID, or one started at another time. A lock row outlives
 * {@code kill -9}; this makes its release certain where a stale heartbeat is only a guess (docs/state-backends.md,
 * "Locking").
 *
 * @param pid     the process id
 * @param machine host name, boot id and PID namespace, e.g. {@code ci-7/5f1c.../pid:[4026531836]}
 * @param started when the process started, or null when the platform does not say
 */
public record ProcessIdentity(long pid, String machine, Instant started) {

    /** How far two readings of one process's start time may differ and still name the same process. */
    static final Duration START_TOLERANCE = Duration.ofSeconds(1);

    private static final String SEPARATOR = "|";

    /** @throws NullPointerException when {@code machine} is null */
    public ProcessIdentity {
        Objects.requireNonNull(machine, "machine");
    }

    /** @return this process */
    public static ProcessIdentity current() {
        ProcessHandle self = ProcessHandle.current();
        return new ProcessIdentity(self.pid(), thisMachine(), self.info().startInstant().orElse(null));
    }

    /** @return the stored form, {@code pid|startEpochMillis|machine} ({@code -} for an unknown start) */
    public String encode() {
        return pid + SEPARATOR + (started == null ? "-" : Long.toString(started.toEpochMilli())) + SEPARATOR + machine;
    }

    /**
     * @param text what {@link #encode()} produced, or null
     * @return the identity, or empty when {@code text} is null or not in that form (e.g. written by
     *         another tool)
     */
    public static Optional<ProcessIdentity> decode(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String[] parts = text.split("\\|", 3);
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(parts[0]);
            Instant started = "-".equals(parts[1]) ? null : Instant.ofEpochMilli(Long.parseLong(parts[1]));
            return Optional.of(new ProcessIdentity(pid, parts[2], started));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * @return true only when this identity names a process on this machine (same host, boot and PID
     *         namespace) that no longer runs; false when it runs, or when it is on another machine
     *         (then nobody here can know)
     */
    public boolean isGoneFromThisMachine() {
        if (!machine.equals(thisMachine())) {
            return false;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return true;
        }
        Optional<Instant> start = handle.get().info().startInstant();
        return started != null && start.isPresent()
                && Duration.between(started, start.get()).abs().compareTo(START_TOLERANCE) > 0;
    }

    /** @return e.g. {@code process 4242 on ci-7}, for a sentence */
    public String describe() {
        return "process " + pid + " on " + host();
    }

    /** @return e.g. {@code pid 4242 on ci-7}, the value of the {@code Process:} line of a lock's description */
    public String pidOnHost() {
        return "pid " + pid + " on " + host();
    }

    /** @return the host name part of {@link #machine} */
    private String host() {
        int slash = machine.indexOf('/');
        return slash < 0 ? machine : machine.substring(0, slash);
    }

    /** @return host name, plus boot id and PID namespace where the platform exposes them */
    static String thisMachine() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException | SecurityException e) {
            host = Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
        }
        return host + "/" + read(Path.of("/proc/sys/kernel/random/boot_id")) + "/" + link(Path.of("/proc/self/ns/pid"));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException | RuntimeException e) {
            // not Linux, no /proc, or links unsupported: the identity just carries less
            return "-";
        }
    }

    private static String link(Path file) {
        try {
            return Files.readSymbolicLink(file).toString();
        } catch (IOException | RuntimeException e) {
            // not Linux, no /proc, or links unsupported: the identity just carries less
            return "-";
        }
    }
}
