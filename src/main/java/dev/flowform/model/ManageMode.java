package dev.flowform.model;

import java.util.Locale;
import java.util.Optional;

/**
 * Who owns a Kubernetes object that a configuration block describes.
 *
 * <p>{@link #OWN}: flowform owns the whole object, creates it when absent and removes keys the block
 * does not declare. {@link #ADOPT}: the object already exists; flowform owns only what the block
 * declares plus the EOS keys, and leaves every other key alone (docs/configuration.md).
 */
public enum ManageMode {
    /** flowform owns the whole object. */
    OWN,
    /** flowform owns declared keys and the EOS keys of an existing object. */
    ADOPT;

    /** @return {@code own} or {@code adopt} */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return the mode for {@code own} / {@code adopt}, or empty for anything else */
    public static Optional<ManageMode> parse(String s) {
        if (s == null) {
            return Optional.empty();
        }
        return switch (s) {
            case "own" -> Optional.of(OWN);
            case "adopt" -> Optional.of(ADOPT);
            default -> Optional.empty();
        };
    }
}
