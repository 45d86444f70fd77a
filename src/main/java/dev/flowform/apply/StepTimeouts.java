package dev.flowform.apply;

import dev.flowform.plan.StepKind;
import java.time.Duration;
import java.util.Objects;

/**
 * How long each kind of wait may take before its step fails with a timeout.
 *
 * <p>Defaults ({@link #DEFAULTS}): a rolling restart ({@code WAIT_FOR_ROLL}) 20 minutes, enough for
 * Strimzi to restart a few workers one at a time, each within its own 5-minute
 * {@code operationTimeoutMs}; a connector ({@code WAIT_FOR_CONNECTOR_READY}) 5 minutes, as a
 * connector restart takes seconds once its workers run. {@code apply --timeout} sets one value for
 * every wait.
 *
 * @param roll      limit of a {@code WAIT_FOR_ROLL} step
 * @param connector limit of a {@code WAIT_FOR_CONNECTOR_READY} step
 */
public record StepTimeouts(Duration roll, Duration connector) {

    /** 20 minutes per rolling restart, 5 minutes per connector. */
    public static final StepTimeouts DEFAULTS = new StepTimeouts(Duration.ofMinutes(20), Duration.ofMinutes(5));

    /** @throws IllegalArgumentException when a duration is zero or negative */
    public StepTimeouts {
        Objects.requireNonNull(roll, "roll");
        Objects.requireNonNull(connector, "connector");
        if (roll.isZero() || roll.isNegative() || connector.isZero() || connector.isNegative()) {
            throw new IllegalArgumentException("wait timeouts must be positive, got " + roll + " / " + connector);
        }
    }

    /**
     * @param every the limit for every wait, or null for {@link #DEFAULTS}
     * @return timeouts with {@code every} for all waits
     */
    public static StepTimeouts of(Duration every) {
        return every == null ? DEFAULTS : new StepTimeouts(every, every);
    }

    /**
     * @param kind a wait kind
     * @return its limit; {@link #roll()} for kinds that do not wait
     */
    public Duration forKind(StepKind kind) {
        return kind == StepKind.WAIT_FOR_CONNECTOR_READY ? connector : roll;
    }
}
