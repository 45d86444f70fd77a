package dev.flowform.state;

import java.time.Duration;
import java.util.Objects;

/**
 * Thrown when an environment's state lock is held by someone else (Terraform's {@code LockError}).
 *
 * <p>The message follows Terraform's "Error acquiring the state lock" text and prints the holder's
 * {@link LockInfo}, the lock's age and whether it looks stale, so the user can decide to wait or
 * to force-unlock with the printed ID.
 */
public final class LockHeldException extends RuntimeException {

    /** The lock found held (transient: LockInfo is not serializable; exceptions are not persisted). */
    private final transient LockInfo holder;
    /** Age of the lock when the attempt failed. */
    private final Duration age;
    /** Time since the holder's last heartbeat when the attempt failed. */
    private final Duration sinceHeartbeat;
    /** How long the caller waited before giving up. */
    private final Duration waited;

    /**
     * @param holder         the lock as read from the database
     * @param age            how long it has been held (now minus created), from the store's clock
     * @param sinceHeartbeat now minus the holder's last heartbeat
     * @param waited         how long the caller retried before giving up; zero for a single attempt
     */
    public LockHeldException(LockInfo holder, Duration age, Duration sinceHeartbeat, Duration waited) {
        super(message(Objects.requireNonNull(holder, "holder"), age, sinceHeartbeat, waited), null, false, false);
        this.holder = holder;
        this.age = age;
        this.sinceHeartbeat = sinceHeartbeat;
        this.waited = waited;
    }

    /** @return the lock that is held */
    public LockInfo holder() {
        return holder;
    }

    /** @return how long the lock had been held when the attempt failed */
    public Duration age() {
        return age;
    }

    /** @return how long since the holder's last heartbeat when the attempt failed */
    public Duration sinceHeartbeat() {
        return sinceHeartbeat;
    }

    /** @return how long the caller waited for the lock before giving up (zero: it did not wait) */
    public Duration waited() {
        return waited;
    }

    /** @return true when the holder's heartbeat is older than {@link LockInfo#STALE_AFTER} */
    public boolean isProbablyStale() {
        return sinceHeartbeat.compareTo(LockInfo.STALE_AFTER) > 0;
    }

    /** @return a copy that also says how long the caller waited */
    LockHeldException afterWaiting(Duration waitedFor) {
        return new LockHeldException(holder, age, sinceHeartbeat, waitedFor);
    }

    private static String message(LockInfo h, Duration age, Duration sinceHeartbeat, Duration waited) {
        StringBuilder sb = new StringBuilder();
        sb.append("Error acquiring the state lock: environment \"").append(h.environment()).append("\" is locked");
        if (!waited.isZero()) {
            sb.append(" (waited ").append(human(waited)).append(')');
        }
        sb.append(".\n").append(details(h, age, sinceHeartbeat));
        sb.append('\n');
        if (sinceHeartbeat.compareTo(LockInfo.STALE_AFTER) > 0) {
            sb.append("The holder has not shown a heartbeat for more than ").append(human(LockInfo.STALE_AFTER))
                    .append(", so it has probably stopped. If you are sure no flowform process is still working on \"")
                    .append(h.environment()).append("\", release the lock with force-unlock and the ID above.");
        } else {
            sb.append("flowform acquires a state lock to protect the state from being written by several runs at "
                    + "the same time. Wait for the other run to finish, or retry with a lock timeout.");
        }
        return sb.toString();
    }

    /** @return the holder's {@code Lock Info:} block, one line per field, each line ending in a line break */
    static String details(LockInfo h, Duration age, Duration sinceHeartbeat) {
        StringBuilder sb = new StringBuilder("Lock Info:\n");
        sb.append("  ID:        ").append(h.id()).append('\n');
        sb.append("  Operation: ").append(h.operation()).append('\n');
        sb.append("  Who:       ").append(h.who()).append('\n');
        sb.append("  Version:   ").append(h.version()).append('\n');
        sb.append("  Created:   ").append(h.created()).append(" (").append(human(age)).append(" ago)\n");
        sb.append("  Heartbeat: ").append(h.heartbeat()).append(" (").append(human(sinceHeartbeat)).append(" ago)\n");
        h.holderProcess().ifPresent(p -> sb.append("  Process:   ").append(p.pidOnHost()).append('\n'));
        if (h.session() != null) {
            sb.append("  Session:   PostgreSQL server process ").append(h.session()).append('\n');
        }
        if (h.info() != null && !h.info().isBlank()) {
            sb.append("  Info:      ").append(h.info()).append('\n');
        }
        return sb.toString();
    }

    /** Formats like Go's time.Duration: {@code 1h2m3s}, {@code 4m0s}, {@code 12s}, {@code 250ms}. */
    static String human(Duration d) {
        if (d.isNegative()) {
            d = Duration.ZERO;
        }
        if (d.compareTo(Duration.ofSeconds(1)) < 0) {
            return d.toMillis() + "ms";
        }
        long h = d.toHours();
        int m = d.toMinutesPart();
        int s = d.toSecondsPart();
        if (h > 0) {
            return h + "h" + m + "m" + s + "s";
        }
        if (m > 0) {
            return m + "m" + s + "s";
        }
        return s + "s";
    }
}
