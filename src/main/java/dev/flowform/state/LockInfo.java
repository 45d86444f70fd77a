package dev.flowform.state;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Who holds an environment's state lock and since when: Terraform's {@code LockInfo} plus a heartbeat. A heartbeat
 * older than {@link #STALE_AFTER} is advice to the user, never a reason to take the lock over; only a holder known gone
 * from this machine ({@link #isHolderGone()}) is released by {@link StateLockTable#acquire} (docs/state-backends.md,
 * "Locking").
 *
 * @param id          random UUID; the nonce {@code force-unlock} asks for
 * @param environment the environment locked (Terraform's Path)
 * @param operation   what the holder is doing, e.g. {@code apply}
 * @param who         {@code user@host} of the holder
 * @param version     flowform version of the holder
 * @param created     when the lock was taken
 * @param heartbeat   when the holder last showed it is alive
 * @param info        free text from the holder (e.g. the plan file), or null
 * @param process     the holder's {@link ProcessIdentity} in its stored form, or null (locks before schema version 3)
 * @param session     on PostgreSQL, {@code pg_backend_pid()} of the session holding the advisory lock; null on H2
 */
public record LockInfo(String id, String environment, String operation, String who, String version,
                       Instant created, Instant heartbeat, String info, String process, Integer session) {

    /**
     * How old a heartbeat may get before the lock counts as probably stale: 2 minutes. A holder
     * heartbeats far more often (every {@link #HEARTBEAT_INTERVAL}), so missing several in a row
     * means the process is most likely gone (killed, machine lost).
     */
    public static final Duration STALE_AFTER = Duration.ofMinutes(2);

    /** How often a lock holder should call {@link StateLockTable#heartbeat(String)}: every 15 seconds. */
    public static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(15);

    /** A lock without a database session (H2); the components are the record's. */
    public LockInfo(String id, String environment, String operation, String who, String version, Instant created,
                    Instant heartbeat, String info, String process) {
        this(id, environment, operation, who, version, created, heartbeat, info, process, null);
    }

    /** @throws NullPointerException when a required component is null */
    public LockInfo {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(who, "who");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(heartbeat, "heartbeat");
    }

    /**
     * @param clock the current time
     * @return how long the lock has been held: now minus {@code created}, never negative
     */
    public Duration age(Clock clock) {
        return nonNegative(Duration.between(created, clock.instant()));
    }

    /**
     * @param clock the current time
     * @return how long since the last heartbeat: now minus {@code heartbeat}, never negative
     */
    public Duration sinceHeartbeat(Clock clock) {
        return nonNegative(Duration.between(heartbeat, clock.instant()));
    }

    /**
     * @param clock the current time
     * @return true when the last heartbeat is more than {@link #STALE_AFTER} old, i.e. the holder
     *         has most likely died; a hint for the user, who decides whether to force-unlock
     */
    public boolean isProbablyStale(Clock clock) {
        return sinceHeartbeat(clock).compareTo(STALE_AFTER) > 0;
    }

    /**
     * The {@code who} value for locks and runs started by this process, Terraform's
     * {@code user@host}.
     *
     * @return {@code user.name} system property, {@code @}, and the local host name (from
     *         {@link InetAddress#getLocalHost()}, else the {@code HOSTNAME} or {@code COMPUTERNAME}
     *         environment variable, else {@code localhost})
     */
    public static String localWho() {
        String user = System.getProperty("user.name", "unknown");
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException | SecurityException e) {
            host = System.getenv("HOSTNAME");
            if (host == null || host.isBlank()) {
                host = System.getenv("COMPUTERNAME");
            }
            if (host == null || host.isBlank()) {
                host = "localhost";
            }
        }
        return user + "@" + host;
    }

    /** @return the holder's process, when recorded in a form this flowform understands */
    public Optional<ProcessIdentity> holderProcess() {
        return ProcessIdentity.decode(process);
    }

    /**
     * @return true when the holder was a process on this machine that no longer exists (killed,
     *         crashed): the lock is certainly abandoned; false when it runs, is elsewhere, or is unknown
     */
    public boolean isHolderGone() {
        return holderProcess().map(ProcessIdentity::isGoneFromThisMachine).orElse(false);
    }

    private static Duration nonNegative(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }

    /**
     * @param pid the PostgreSQL session now holding the advisory lock
     * @return this lock with that session
     */
    public LockInfo withSession(Integer pid) {
        return new LockInfo(id, environment, operation, who, version, created, heartbeat, info, process, pid);
    }
}
