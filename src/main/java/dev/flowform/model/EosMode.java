package dev.flowform.model;

import java.util.Locale;
import java.util.Optional;

/**
 * The Kafka Connect worker setting {@code exactly.once.source.support} (KIP-618, Kafka 3.3+).
 *
 * <p>Source: Kafka {@code DistributedConfig}: "To enable exactly-once source support on a new
 * cluster, set this property to 'enabled'. To enable support on an existing cluster, first set to
 * 'preparing' on every worker in the cluster, then set to 'enabled'." The value is parsed
 * case-insensitively and defaults to {@code disabled}. Declaration order is the upgrade order.
 */
public enum EosMode {
    /** Default: plain producers, at-least-once source tasks. */
    DISABLED,
    /** Transactional leader (fencing of zombie leaders) but no EOS tasks yet. */
    PREPARING,
    /** Transactional leader and exactly-once source tasks. */
    ENABLED;

    /** The worker configuration key. */
    public static final String CONFIG_KEY = "exactly.once.source.support";

    /** @return the value as written in worker configuration, e.g. {@code preparing} */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a configuration value the way Kafka does (case-insensitive).
     *
     * @param value the raw value, or {@code null} for "not set"
     * @return the mode ({@link #DISABLED} for {@code null}), or empty when the value is not a mode
     */
    public static Optional<EosMode> parse(String value) {
        if (value == null) {
            return Optional.of(DISABLED);
        }
        try {
            return Optional.of(valueOf(value.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return value();
    }
}
