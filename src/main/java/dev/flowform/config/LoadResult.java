package dev.flowform.config;

import dev.flowform.diag.Diagnostics;
import java.util.Objects;

/**
 * What {@link ConfigLoader#load} returns: the configuration when it is valid, and every problem found.
 *
 * @param configuration the loaded configuration, or null when {@code diagnostics} has errors
 * @param diagnostics   errors and warnings, sorted by file, line and column (sourceless ones last)
 */
public record LoadResult(Configuration configuration, Diagnostics diagnostics) {
    /** Checks the diagnostics are present and that a configuration comes only without errors. */
    public LoadResult {
        Objects.requireNonNull(diagnostics, "diagnostics");
        if (configuration != null && diagnostics.hasErrors()) {
            throw new IllegalArgumentException("a configuration with errors must not be returned");
        }
    }

    /** @return true when the configuration loaded (warnings allowed) */
    public boolean ok() {
        return configuration != null;
    }
}
